"""One standings read for every view, and penalties in MP.

The example: plan MDD, 4 pairs, VP scale 20 VP / 4 hands. Round 1 (Mitchell) is
played 0–0 at both tables: difference 0 → 10–10, so every pair has 10 VP after round 1.
Round 2 (Danish) is published; the arbiter gives pair 3 a 1 VP penalty "in round 2".
After round 1 pair 3 must show 10 VP everywhere (the arbiter's default page showed 9);
after round 2 (played 0–0 again: 10 + 10) it shows 20 − 1 = 19.
"""
import datetime
import io
import shutil
import subprocess
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from openpyxl import load_workbook

from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Pair, Penalty, Round, ScoreSheet
from tournaments.printing import documents, spreadsheets

ZERO = [services.HandInput(0, 0)] * 4


def play_all(rnd, arbiter, results=None):
    """Validate every playing table (0–0 unless ``results`` gives table → hands) and close."""
    for table in rnd.tables.filter(bye="").order_by("number"):
        hands = (results or {}).get(table.number, ZERO)
        services.save_score_sheet(table=table, hands=hands, by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


def next_round(tournament, arbiter):
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    return services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)


@pytest.fixture
def mdd(arbiter, make_pairs):
    t = services.create_tournament(by=arbiter, name="Torneo MDD", slug="mdd", date=datetime.date(2026, 11, 30),
                                   plan="MDD", public_enabled=True)
    make_pairs(t, 4)
    play_all(next_round(t, arbiter), arbiter)
    return t


@pytest.fixture
def round2(mdd, arbiter):
    """Round 2 published (in play), penalty −1 VP to pair 3 in round 2."""
    rnd = next_round(mdd, arbiter)
    services.add_penalty(pair=mdd.pairs.get(number=3), vp=Decimal(1), reason="cellulare", by=arbiter,
                         round_number=2)
    return rnd


def page(client, url):
    resp = client.get(url)
    assert resp.status_code == 200
    return resp.content.decode()


def arbiter_cells(html):
    """Rows of the arbiter's standings table: position, pair, players, VP, penalty, ..."""
    rows = html.split("<tbody")[1].split("</tbody>")[0].split("<tr")[1:]
    return [[c.split(">", 1)[1].split("</td>")[0].strip() for c in r.split("<td")[1:]] for r in rows]


def arbiter_vp(html, pair):
    return next(c[3] for c in arbiter_cells(html) if c[1] == str(pair))


def public_vp(html, pair):
    body = html.split('id="classifica"')[1].split("<tbody>")[1].split("</tbody>")[0]
    for row in body.split("<tr>")[1:]:
        cells = [c.split(">", 1)[1] for c in row.split("<td")[1:]]
        if cells[1].strip().startswith(f"{pair} "):
            return cells[2].split("<b>")[1].split("</b>")[0]
    raise AssertionError(f"pair {pair} not on the public page")


def xlsx_row(content, pair):
    ws = load_workbook(io.BytesIO(content)).active
    header = [c.value for c in ws[1]]
    for row in ws.iter_rows(min_row=2, values_only=True):
        if row[header.index("Coppia")] == pair:
            return dict(zip(header, row, strict=False))
    raise AssertionError(f"pair {pair} not in the XLSX")


def pdf_text(content):
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) not installed")
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=content, capture_output=True,
                          check=True).stdout.decode()


def pdf_vp(text, pair):
    """VP of ``pair`` in the PDF text: the line starting "<pos> <pair> <names> <VP> ..."."""
    for line in text.splitlines():
        words = line.split()
        if len(words) > 3 and words[1] == str(pair) and words[2].startswith("Rossi"):
            return words[words.index(f"Bruno{pair}") + 1]
    raise AssertionError(f"pair {pair} not in the PDF text")


# --------------------------------------------------------------------------- one read, the example


def test_round2_penalty_not_counted_after_round_1_in_any_view(arbiter_client, client, round2, monkeypatch):
    """Regression: the arbiter's default view counted the round-2 penalty (9 VP "after
    round 1") while PDF, XLSX, ?dopo=1 and the public page showed 10."""
    calls = []
    real = selectors.standings_after

    def spy(tournament, after_round=None):
        view = real(tournament, after_round)
        calls.append(view.after_round)
        return view

    monkeypatch.setattr(selectors, "standings_after", spy)
    url = reverse("standings", args=["mdd"])
    default = page(arbiter_client, url)
    assert "Classifica dopo il turno 1" in default and arbiter_vp(default, 3) == "10"
    assert "ultimo turno chiuso (turno 1)" in default
    after1 = page(arbiter_client, url + "?dopo=1")
    assert "Classifica dopo il turno 1" in after1 and arbiter_vp(after1, 3) == "10"
    pdf = arbiter_client.get(reverse("standings_pdf", args=["mdd"]) + "?dopo=1").content
    text = pdf_text(pdf)
    assert "Classifica dopo il turno 1" in text and pdf_vp(text, 3) == "10"
    xlsx = arbiter_client.get(reverse("standings_xlsx", args=["mdd"]) + "?dopo=1").content
    row = xlsx_row(xlsx, 3)
    assert (row["VP"], row["Penalità"], row["Penalità MP"]) == (10, 0, 0)
    public = page(client, reverse("public", args=["mdd"]))
    assert "Classifica dopo il turno 1" in public and public_vp(public, 3) == "10"
    assert calls == [1, 1, 1, 1, 1]  # page, ?dopo=1, PDF, XLSX, public page: one selector


def test_after_round_2_the_penalty_is_deducted(arbiter_client, client, mdd, round2, arbiter):
    play_all(round2, arbiter)
    url = reverse("standings", args=["mdd"])
    html = page(arbiter_client, url)
    # 10 (round 1) + 10 (round 2, 0–0) − 1 = 19
    assert "Classifica finale" not in html and "Classifica dopo il turno 2" in html
    row = next(c for c in arbiter_cells(html) if c[1] == "3")
    assert (row[3], row[4]) == ("19", "−1")
    assert arbiter_vp(page(arbiter_client, url + "?dopo=1"), 3) == "10"  # history unchanged
    assert pdf_vp(pdf_text(arbiter_client.get(reverse("standings_pdf", args=["mdd"])).content), 3) == "19"
    row = xlsx_row(arbiter_client.get(reverse("standings_xlsx", args=["mdd"])).content, 3)
    assert (row["VP"], row["Penalità"]) == (19, 1)
    assert public_vp(page(client, reverse("public", args=["mdd"])), 3) == "19"
    view = selectors.standings_after(mdd)
    assert view.after_round == 2 and view.pending == ()
    assert [(p.pair, p.vp, p.round_number) for p in view.penalties] == [(3, Decimal(1), 2)]


def test_pending_penalty_is_listed_apart_on_the_standings_page(arbiter_client, round2):
    html = page(arbiter_client, reverse("standings", args=["mdd"]))
    pending = html.split('id="pending-penalties"')[1].split("</section>")[0]
    assert "Penalità in sospeso" in pending and "entrano in classifica quando quel turno viene chiuso" in pending
    assert "Coppia 3: −1 VP, turno 2" in pending and "cellulare" in pending
    # not in the table: no penalty cell for pair 3
    assert next(c for c in arbiter_cells(html) if c[1] == "3")[4] == ""


def test_no_pending_section_without_pending_penalties(arbiter_client, mdd):
    assert 'id="pending-penalties"' not in page(arbiter_client, reverse("standings", args=["mdd"]))


# --------------------------------------------------------------------------- the round of a penalty


def test_penalty_without_a_round_belongs_to_the_round_in_play(mdd, arbiter):
    next_round(mdd, arbiter)  # round 2 published
    penalty = services.add_penalty(pair=mdd.pairs.get(number=3), vp=1, reason="x", by=arbiter)
    assert penalty.round_number == 2
    assert AuditEntry.objects.get(action="penalty_added").round_number == 2
    assert selectors.standings_after(mdd).pending[0].round_number == 2


def test_penalty_without_a_round_while_none_in_play_belongs_to_the_last_closed(mdd, arbiter):
    assert services.add_penalty(pair=mdd.pairs.get(number=1), vp=1, reason="x", by=arbiter).round_number == 1
    services.generate_round(tournament=mdd, by=arbiter)  # round 2 only a draft: not in play
    assert services.add_penalty(pair=mdd.pairs.get(number=2), vp=1, reason="y", by=arbiter).round_number == 1
    # both count after round 1: 10 − 1 = 9
    rows = {r.pair: r.vp for r in selectors.standings_after(mdd, 1).rows}
    assert rows[1] == rows[2] == Decimal(9)


def test_penalty_before_any_round_belongs_to_round_1(arbiter, make_pairs):
    t = services.create_tournament(by=arbiter, name="Nuovo", slug="nuovo", date=datetime.date(2026, 11, 30))
    make_pairs(t, 2)
    assert services.add_penalty(pair=t.pairs.get(number=1), vp=1, reason="x", by=arbiter).round_number == 1
    view = selectors.standings_after(t)
    assert view.after_round is None and len(view.pending) == 1 and view.penalties == ()


def test_round_of_a_penalty_is_fixed_when_given_not_recomputed(mdd, round2, arbiter):
    penalty = services.add_penalty(pair=mdd.pairs.get(number=4), mp=50, reason="x", by=arbiter)
    assert penalty.round_number == 2
    play_all(round2, arbiter)
    next_round(mdd, arbiter)  # round 3 in play now
    penalty.refresh_from_db()
    assert penalty.round_number == 2
    assert {r.pair: r.penalty_mp for r in selectors.standings_after(mdd).rows}[4] == 50


def test_after_round_past_the_last_closed_is_brought_back(round2, mdd):
    view = selectors.standings_after(mdd, 5)
    assert view.after_round == 1 and {r.pair: r.vp for r in view.rows}[3] == Decimal(10)
    with pytest.raises(ValueError):
        selectors.standings_after(mdd, -1)


def test_danish_round_2_ranking_ignores_a_pending_penalty(mdd, arbiter):
    """The Danish pairing reads the same selector after round 1: a penalty given while no
    round is in play belongs to round 1 and moves the pair down before round 2 is drawn."""
    services.add_penalty(pair=mdd.pairs.get(number=1), vp=1, reason="x", by=arbiter)
    ranking = services.build_pairing_request(mdd, 2)["ranking"]
    assert ranking[-1] == 1  # 9 VP, the others 10


# --------------------------------------------------------------------------- MP penalties


@pytest.fixture
def mp_played(arbiter, make_pairs):
    """4 pairs, round 1 closed. Mitchell 4 pairs: table 1 = 1 v 3, table 2 = 2 v 4.
    Table 1: N/S 1500 (one hand) v E/W 1200 → difference 300 → band 105–300 → 11–9.
    Table 2: 0–0 → 10–10. Pair 1: MP difference +300, MP scored 1500, 11 VP."""
    t = services.create_tournament(by=arbiter, name="MP", slug="mp", date=datetime.date(2026, 11, 30), plan="MMD")
    make_pairs(t, 4)
    rnd = next_round(t, arbiter)
    t1 = rnd.tables.get(number=1)
    assert (t1.ns.number, t1.ew.number) == (1, 3)
    play_all(rnd, arbiter, {1: [services.HandInput(1500, 1200)] + [services.HandInput(0, 0)] * 3})
    return t


def test_mp_penalty_hand_computed_opponents_and_sheet_unchanged(mp_played, arbiter):
    sheet = ScoreSheet.objects.get(table__round__tournament=mp_played, table__number=1)
    before = {r.pair: r for r in selectors.standings_after(mp_played).rows}
    assert (before[1].mp_difference, before[1].mp_scored, before[1].vp) == (300, 1500, Decimal(11))
    services.add_penalty(pair=mp_played.pairs.get(number=1), mp=100, reason="ritardo", by=arbiter)
    after = {r.pair: r for r in selectors.standings_after(mp_played).rows}
    # +300 − 100 = +200; 1500 − 100 = 1400; VP unchanged (11)
    assert (after[1].mp_difference, after[1].mp_scored, after[1].vp, after[1].penalty_mp) == (200, 1400, Decimal(11), 100)
    # opponent pair 3: −300, 1200 MP, 9 VP before and after
    assert (after[3].mp_difference, after[3].mp_scored, after[3].vp) == (-300, 1200, Decimal(9))
    assert after[3] == before[3]
    fresh = ScoreSheet.objects.get(pk=sheet.pk)
    assert (fresh.mp_ns, fresh.mp_ew, fresh.vp_ns, fresh.vp_ew) == (sheet.mp_ns, sheet.mp_ew, sheet.vp_ns, sheet.vp_ew)
    assert (fresh.mp_ns, fresh.mp_ew) == (1500, 1200)


def test_mp_penalty_shown_on_pages_and_documents(arbiter_client, client, mp_played, arbiter):
    services.update_tournament(tournament=mp_played, by=arbiter, public_enabled=True)
    services.add_penalty(pair=mp_played.pairs.get(number=1), mp=100, reason="ritardo", by=arbiter)
    html = page(arbiter_client, reverse("standings", args=["mp"]))
    row = next(c for c in arbiter_cells(html) if c[1] == "1")
    assert (row[3], row[4], row[5], row[6]) == ("11", "−100 MP", "200", "1400")
    doc = documents.standings_document(mp_played)
    line = next(r for r in doc.rows if r.pair == 1)
    assert (line.penalty_text, line.mp_difference, line.mp_scored) == ("−100 MP", 200, 1400)
    printed = documents.standings_html(doc)
    assert "−100 MP" in printed and "ritardo" in printed
    row = xlsx_row(spreadsheets.standings_xlsx(doc), 1)
    assert (row["VP"], row["Penalità"], row["Scarto MP"], row["MP fatti"], row["Penalità MP"]) == (11, 0, 200, 1400, 100)
    assert "(−100 MP)" in page(client, reverse("public", args=["mp"]))


def test_penalty_page_adds_an_mp_penalty_audited(arbiter_client, mp_played):
    url = reverse("penalties", args=["mp"])
    resp = arbiter_client.post(url, {"pair": "1", "mp": "100", "reason": "ritardo"}, follow=True)
    html = resp.content.decode()
    assert "Penalità di −100 MP alla coppia 1 registrata (turno 1)." in html
    penalty = Penalty.objects.get()
    assert (penalty.mp, penalty.vp, penalty.round_number) == (100, 0, 1)
    assert AuditEntry.objects.get(action="penalty_added").new == {"pair": 1, "mp": 100}
    assert "−100 MP" in html


@pytest.mark.parametrize("data, message", [
    ({"pair": "1", "vp": "1", "mp": "100", "reason": "x"}, "Indica la penalità in VP oppure in MP"),
    ({"pair": "1", "reason": "x"}, "Indica la penalità in VP oppure in MP"),
    ({"pair": "1", "mp": "0", "reason": "x"}, "maggiore o uguale a 1"),
    ({"pair": "1", "mp": "12.5", "reason": "x"}, "numero intero"),
])
def test_penalty_page_bad_vp_mp_input_saves_nothing(arbiter_client, mp_played, data, message):
    resp = arbiter_client.post(reverse("penalties", args=["mp"]), data)
    assert resp.status_code == 200 and message in resp.content.decode()
    assert not Penalty.objects.exists() and not AuditEntry.objects.filter(action="penalty_added").exists()


@pytest.mark.parametrize("kwargs, message", [
    ({"vp": 1, "mp": 100}, "uno solo dei due"),
    ({}, "uno solo dei due"),
    ({"mp": -5}, "numero positivo"),
    ({"mp": Decimal("12.5")}, "numero intero"),
])
def test_add_penalty_refuses_bad_amounts(mp_played, arbiter, kwargs, message):
    with pytest.raises(ArbiterError, match=message):
        services.add_penalty(pair=mp_played.pairs.get(number=1), reason="x", by=arbiter, **kwargs)
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("vp, mp", [(1, 100), (0, 0)])
def test_database_refuses_both_kinds_or_none(mp_played, vp, mp):
    pair = Pair.objects.get(tournament=mp_played, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Penalty.objects.create(tournament=mp_played, pair=pair, vp=vp, mp=mp, reason="x", round_number=1)


def test_remove_mp_penalty_audited(arbiter_client, mp_played, arbiter):
    penalty = services.add_penalty(pair=mp_played.pairs.get(number=1), mp=100, reason="ritardo", by=arbiter)
    confirm = page(arbiter_client, reverse("penalty_remove", args=["mp", penalty.pk]))
    assert "−100 MP: ritardo" in confirm
    arbiter_client.post(reverse("penalty_remove", args=["mp", penalty.pk]), {"reason": "errore"})
    assert AuditEntry.objects.get(action="penalty_removed").old == {"pair": 1, "mp": 100, "reason": "ritardo"}
    assert {r.pair: r.mp_difference for r in selectors.standings_after(mp_played).rows}[1] == 300


def test_round_states_are_as_the_example_says(round2, mdd):
    assert list(mdd.rounds.order_by("number").values_list("number", "state")) == [
        (1, Round.State.CLOSED), (2, Round.State.PUBLISHED)]


def test_standings_basis_and_pending_penalties_in_english(arbiter_client, round2):
    from django.conf import settings
    from django.utils import translation

    arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    try:
        html = page(arbiter_client, reverse("standings", args=["mdd"]))
    finally:
        translation.activate(settings.LANGUAGE_CODE)  # the request leaves English active
    assert "After the last closed round (round 1): results and penalties of rounds up to 1." in html
    assert "Pending penalties" in html and "they enter the standings when that round is closed" in html
    assert "Pair 3: −1 VP, round 2" in html
    assert "Penalità in sospeso" not in html
