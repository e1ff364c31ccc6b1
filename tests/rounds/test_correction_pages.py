"""Correction kinds on the pages (rules.md §3, §13; art. 31, 32).

Same tournament as tests/tournaments/test_services_corrections.py: 4 pairs, plan ``DD``,
4 hands, scale vp20-4h. Round 1: table 1 = 1 v 2, 1000–0 (15–5); table 2 = 3 v 4, 0–0
(10–10). Round 2 (Danish): table 1 = 1 v 3, table 2 = 4 v 2.
"""
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.rounds.helpers import grid, hands, url, version
from tournaments import selectors, services
from tournaments.models import AuditEntry, Pair, Round, ScoreSheet, Table
from tournaments.services import Actor


def body(resp):
    return resp.content.decode()


def seating(rnd):
    return {t.number: (t.ns.number, t.ew.number) for t in selectors.round_tables(rnd) if not t.bye}


# ----------------------------------------------------------------------------- the grid asks for the kind

def test_grid_of_an_entered_sheet_asks_for_the_kind_and_refuses_a_change_without_one(arbiter_client, arbiter,
                                                                                     round1_closed, post_sheet):
    page = body(arbiter_client.get(url("sheet", 1)))
    assert 'name="kind"' in page and 'value="transcription"' in page and 'value="sum_error"' in page
    assert 'value="swapped_lines"' not in page  # its own form on the corrections page
    resp = arbiter_client.post(url("sheet", 1), grid(post_sheet, (0, 0), version(1), reason="letto male"))
    assert resp.status_code == 400 and "Scegli il tipo di correzione (art. 31)" in body(resp)
    assert 'name="h1_ns" value="0"' in body(resp)  # the typed grid is kept
    assert ScoreSheet.objects.get(table__round=round1_closed, table__number=1).mp_ns == 1000


def test_grid_of_an_empty_sheet_has_no_kind(arbiter_client, tournament, make_pairs, arbiter):
    make_pairs(tournament, 4)
    services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter)
    assert 'name="kind"' not in body(arbiter_client.get(url("sheet", 1)))


def test_grid_sum_error_accepted_on_a_closed_round_while_the_next_is_a_draft(arbiter_client, arbiter,
                                                                             round1_closed, post_sheet):
    services.generate_round(tournament=round1_closed.tournament, by=arbiter)  # round 2: a draft
    resp = arbiter_client.post(url("sheet", 1), grid(post_sheet, (0, 0), version(1), kind="sum_error",
                                                     reason="smazzata 1 sommata male"))
    assert resp.status_code == 302
    sheet = ScoreSheet.objects.get(table__round=round1_closed, table__number=1)
    assert (sheet.mp_ns, sheet.vp_ns, sheet.state) == (0, 10, "validated")
    assert Round.objects.get(pk=round1_closed.pk).state == "closed"
    assert AuditEntry.objects.filter(action="sheet_corrected").latest("pk").new["kind"] == "sum_error"


def test_grid_sum_error_refused_once_the_next_round_is_published(arbiter_client, arbiter, round1_closed,
                                                                 round2_published, post_sheet):
    page = body(arbiter_client.get(url("sheet", 1)))
    assert 'id="kind-refusal-sum_error"' in page and "art. 31 ¶1" in page
    assert '<option value="sum_error" disabled>' in page
    resp = arbiter_client.post(url("sheet", 1), grid(post_sheet, (0, 0), version(1), kind="sum_error",
                                                     reason="somma sbagliata"))
    assert resp.status_code == 400
    assert "il turno 2 è già pubblicato" in body(resp) and "(art. 31 ¶1)" in body(resp)
    assert ScoreSheet.objects.get(table__round=round1_closed, table__number=1).mp_ns == 1000


def test_grid_transcription_on_a_closed_danish_round_without_reopening(arbiter_client, arbiter, round1_closed,
                                                                       round2_published, post_sheet):
    """Regression: the grid of a closed Danish round was read-only («riaprilo»), and
    reopening is refused once round 2 is published."""
    before = seating(round2_published)
    page = body(arbiter_client.get(url("sheet", 1)))
    # read-only until "Correggi"
    assert 'id="closed-round-note"' in page and 'id="save"' not in page and 'id="start-correction"' in page
    page = body(arbiter_client.get(url("sheet", 1) + "?correggi=1"))
    assert 'id="closed-round-note"' in page and 'id="save"' in page and 'data-kind-first="1"' in page
    resp = arbiter_client.post(url("sheet", 1), grid(post_sheet, (0, 0), version(1), kind="transcription",
                                                     reason="il foglio consegnato dice 0–0"))
    assert resp.status_code == 302
    sheet = ScoreSheet.objects.get(table__round=round1_closed, table__number=1)
    assert (sheet.mp_ns, sheet.state) == (0, "validated")
    assert seating(Round.objects.get(pk=round2_published.pk)) == before


def test_grid_transcription_refused_on_a_sheet_the_captains_entered_and_confirmed(arbiter_client, arbiter,
                                                                                  tournament, make_pairs,
                                                                                  post_sheet):
    make_pairs(tournament, 4)
    r1 = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=hands(200, 100), by=Actor("capitano N/S tavolo 1"))
    services.confirm_sheet(table=t1, by=Actor("capitano E/O tavolo 1"))
    page = body(arbiter_client.get(url("sheet", 1)))
    assert '<option value="transcription" disabled>' in page and 'id="kind-refusal-transcription"' in page
    resp = arbiter_client.post(url("sheet", 1), grid(post_sheet, (300, 100), version(1), kind="transcription",
                                                     reason="letto male"))
    assert resp.status_code == 400 and "inserito e confermato dai capitani" in body(resp)
    assert ScoreSheet.objects.get(table=t1).mp_ns == 200
    resp = arbiter_client.post(url("sheet", 1), grid(post_sheet, (300, 100), version(1), kind="sum_error",
                                                     reason="smazzata 1 sommata male"))
    assert resp.status_code == 302 and ScoreSheet.objects.get(table=t1).mp_ns == 300


def test_round_page_of_a_closed_danish_round_links_every_sheet(arbiter_client, round1_closed, round2_published):
    """Regression: the «Modifica» link of a closed round's sheet showed only for Mitchell."""
    page = body(arbiter_client.get(reverse("round", args=["prova", 1])))
    assert f'href="{url("sheet", 1)}"' in page and f'href="{url("sheet", 2)}"' in page


# ----------------------------------------------------------------------------- corrections page

def test_corrections_page_of_a_closed_round_lists_the_kinds(arbiter_client, round1_closed, round2_published):
    page = body(arbiter_client.get(url("sheet_corrections", 1)))
    assert 'id="correction-kinds"' in page and 'id="closed-round-note"' in page
    kinds = page.split('id="correction-kinds"')[1].split("</section>")[0]
    assert "art. 31 ¶1" in kinds.split('id="kind-sum_error"')[1].split("</li>")[0]
    for allowed in ("transcription", "swapped_lines", "arbitral"):
        assert "kind-allowed" in kinds.split(f'id="kind-{allowed}"')[1].split("</li>")[0]


def test_swapped_lines_on_a_closed_round_by_page(arbiter_client, arbiter, round1_closed, round2_published):
    before = seating(round2_published)
    resp = arbiter_client.post(url("sheet_corrections", 1), {"action": "swap", "swap-reason": "linee invertite"})
    assert resp.status_code == 302
    sheet = ScoreSheet.objects.get(table__round=round1_closed, table__number=1)
    assert (sheet.mp_ns, sheet.mp_ew, sheet.vp_ns, sheet.vp_ew, sheet.state) == (0, 1000, 5, 15, "validated")
    rows = {r.pair: r.vp for r in selectors.standings(round1_closed.tournament, after_round=1)}
    assert (rows[1], rows[2]) == (5, 15)
    assert seating(Round.objects.get(pk=round2_published.pk)) == before


def test_arbitral_score_on_a_closed_round_by_page(arbiter_client, arbiter, round1_closed, round2_published):
    before = seating(round2_published)
    resp = arbiter_client.post(url("sheet_corrections", 2), {
        "action": "arbitral", "arb-vp_ns": "12", "arb-vp_ew": "6", "arb-reason": "art. 15: ritardo E/O"})
    assert resp.status_code == 302
    sheet = ScoreSheet.objects.get(table__round=round1_closed, table__number=2)
    assert (sheet.vp_ns, sheet.vp_ew, sheet.arbitral) == (Decimal(12), Decimal(6), True)
    rows = {r.pair: r.vp for r in selectors.standings(round1_closed.tournament, after_round=1)}
    assert (rows[3], rows[4]) == (12, 6)
    assert seating(Round.objects.get(pk=round2_published.pk)) == before


# ----------------------------------------------------------------------------- the audit page names the kind

def test_audit_page_shows_the_kind_of_each_correction(arbiter_client, arbiter, round1_closed, round2_published):
    t1 = Table.objects.get(round=round1_closed, number=1)
    services.save_score_sheet(table=t1, hands=hands(900, 0), by=arbiter, kind="transcription",
                              reason="il foglio dice 900")
    services.swap_sheet_lines(table=t1, by=arbiter, reason="linee invertite")
    services.set_arbitral_score(table=Table.objects.get(round=round1_closed, number=2), by=arbiter,
                                vp_ns=Decimal(12), vp_ew=Decimal(6), reason="art. 15")
    page = body(arbiter_client.get(reverse("audit", args=["prova"]) + "?round=1"))
    kinds = [part.split("</span>")[0] for part in page.split('class="badge correction-kind">')[1:]]
    assert kinds == ["punteggio arbitrale", "linee invertite", "trascrizione"]  # newest first


# ----------------------------------------------------------------------------- art. 32 on the pair form

def pair_data(**changes):
    data = {"number": "1", "last_name_1": "Rossi1", "first_name_1": "Anna1", "membership_1": "A1", "club_1": "",
            "last_name_2": "Verdi1", "first_name_2": "Bruno1", "membership_2": "B1", "club_2": ""}
    data.update(changes)
    return data


@pytest.fixture
def pair1_played(round2_published):
    return Pair.objects.get(tournament=round2_published.tournament, number=1)


def test_pair_form_refuses_a_new_membership_number_once_played(arbiter_client, pair1_played):
    page = body(arbiter_client.get(reverse("pair_edit", args=["prova", 1])))
    assert 'id="no-substitution"' in page and "art. 32" in page
    resp = arbiter_client.post(reverse("pair_edit", args=["prova", 1]), pair_data(membership_1="A99"))
    assert resp.status_code == 200 and "art. 32" in body(resp)
    assert [p.membership_number for p in Pair.objects.get(pk=pair1_played.pk).players] == ["A1", "B1"]


def test_pair_form_refuses_a_brand_new_player_once_played(arbiter_client, pair1_played):
    resp = arbiter_client.post(reverse("pair_edit", args=["prova", 1]),
                               pair_data(last_name_2="Bianchi", first_name_2="Luca", membership_2="C7"))
    assert resp.status_code == 200 and "art. 32" in body(resp)
    assert Pair.objects.get(pk=pair1_played.pk).players[1].last_name == "Verdi1"


def test_pair_form_allows_a_spelling_fix_and_a_blank_membership_number(arbiter_client, pair1_played):
    pair1_played.members.filter(seat=2).update(membership_number="")
    resp = arbiter_client.post(reverse("pair_edit", args=["prova", 1]),
                               pair_data(last_name_1="Rosi1", membership_2="B555"))
    assert resp.status_code == 302
    players = Pair.objects.get(pk=pair1_played.pk).players
    assert (players[0].last_name, players[1].membership_number) == ("Rosi1", "B555")
    entry = AuditEntry.objects.filter(action="pair_updated").latest("pk")
    assert "grafia" in entry.reason and "B555" in entry.reason
    page = body(arbiter_client.get(reverse("audit", args=["prova"])))
    assert "Rosi1 Anna1" in page and "B555" in page


def test_closed_round_grid_says_its_fields_wait_for_a_correction_kind(arbiter_client, round1_closed):
    """After «Correggi» on a closed round the grid stays locked until a «Tipo di correzione»
    is chosen (rules.md §3, art. 31): the page says so next to the fields, and only then."""
    locked = body(arbiter_client.get(url("sheet", 1)))
    assert 'id="kind-first-note"' not in locked          # read-only: the closed-round note speaks
    correcting = body(arbiter_client.get(url("sheet", 1) + "?correggi=1"))
    note_at = correcting.index('id="kind-first-note"')
    assert "Campi bloccati: scegli prima il «Tipo di correzione»" in correcting
    assert note_at < correcting.index('id="grid"')      # right above the fields it speaks of
    assert '<a href="#kind">' in correcting[note_at:correcting.index('id="grid"')]
    hint_at = correcting.index('id="kind-first-hint"')     # and at the select, which takes the focus
    assert correcting.index('id="kind"') < hint_at < correcting.index('id="reason"')
    assert 'id="kind-first-hint"' not in locked
