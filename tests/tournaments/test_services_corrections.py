"""Corrections of a score sheet and their kinds (rules.md §3, seed code art. 31).

The tournament: 4 pairs, plan ``DD`` (two Danish rounds), 4 hands, scale vp20-4h
(rules.md §4: difference 0–100 → 10–10, 905–1100 → 15–5).

Round 1, first round by pair number (rules.md §7): ranking 1, 2, 3, 4 → table 1: 1 (N/S)
v 2 (E/W), table 2: 3 v 4. Scores: table 1 1000–0 (15–5), table 2 0–0 (10–10).
Standings after round 1: 1 (15), 3 and 4 (10, every tie-break equal: pair order), 2 (5).
Round 2, Danish top-down without rematch: 1 v 3 at table 1, 4 v 2 at table 2.
"""
from decimal import Decimal

import pytest

from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Round, ScoreSheet, Table
from tournaments.services import Actor, HandInput
from tournaments.services.corrections import delivered_by_captains


def hands(ns, ew, n=4):
    """A sheet whose first hand carries the whole score, the others 0–0."""
    return [HandInput(ns, ew)] + [HandInput(0, 0)] * (n - 1)


def seating(rnd):
    return {t.number: (t.ns.number, t.ew.number) for t in selectors.round_tables(rnd) if not t.bye}


def vp_after(tournament, round_number):
    return {row.pair: row.vp for row in selectors.standings(tournament, after_round=round_number)}


@pytest.fixture
def danish(tournament, make_pairs):
    tournament.plan = "DD"
    tournament.save()
    make_pairs(tournament, 4)
    return tournament


@pytest.fixture
def round1_closed(danish, arbiter):
    """Round 1 played as in the module docstring and closed."""
    r1 = services.publish_round(round=services.generate_round(tournament=danish, by=arbiter), by=arbiter)
    assert seating(r1) == {1: (1, 2), 2: (3, 4)}
    for number, score in ((1, (1000, 0)), (2, (0, 0))):
        services.save_score_sheet(table=r1.tables.get(number=number), hands=hands(*score), by=arbiter,
                                  validate=True)
    return services.close_round(round=r1, by=arbiter)


@pytest.fixture
def round2_draft(round1_closed, danish, arbiter):
    return services.generate_round(tournament=danish, by=arbiter)


@pytest.fixture
def round2_published(round2_draft, arbiter):
    r2 = services.publish_round(round=round2_draft, by=arbiter, acknowledge_warnings=True)
    assert seating(r2) == {1: (1, 3), 2: (4, 2)}
    return r2


def table1(rnd):
    return Table.objects.get(round__pk=rnd.pk, number=1)


def last_correction():
    return AuditEntry.objects.filter(action__in=["sheet_corrected", "sheet_lines_swapped", "arbitral_score"]).latest("pk")


# ----------------------------------------------------------------------------- sum error (art. 31 ¶1)

def test_sum_error_on_a_closed_round_is_accepted_while_the_next_round_is_a_draft(round1_closed, round2_draft,
                                                                                  arbiter):
    # the delivered sheet's hand 1 was added wrong: 0–0, not 1000–0 → 10–10
    sheet = services.save_score_sheet(table=table1(round1_closed), hands=hands(0, 0), by=arbiter,
                                      kind="sum_error", reason="smazzata 1 sommata male")
    assert (sheet.mp_ns, sheet.vp_ns, sheet.vp_ew, sheet.state) == (0, 10, 10, "validated")
    assert Round.objects.get(pk=round1_closed.pk).state == "closed"  # no reopening
    assert Round.objects.filter(pk=round2_draft.pk).exists()  # the draft is not discarded here
    assert last_correction().new["kind"] == "sum_error"


def test_sum_error_is_accepted_while_there_is_no_next_round(round1_closed, arbiter):
    sheet = services.save_score_sheet(table=table1(round1_closed), hands=hands(0, 0), by=arbiter,
                                      kind="sum_error", reason="totale sbagliato")
    assert sheet.mp_ns == 0


def test_sum_error_on_an_open_round_is_accepted(danish, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=danish, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=hands(600, 0), by=arbiter, declared=(650, 0))
    assert services.accept_declared_totals(table=t1, by=arbiter, reason="valgono le smazzate").sum_error is False
    assert last_correction().new["kind"] == "sum_error"


def test_sum_error_refused_once_the_next_round_is_published(round1_closed, round2_published, arbiter):
    with pytest.raises(ArbiterError, match=r"art\. 31 ¶1") as exc:
        services.save_score_sheet(table=table1(round1_closed), hands=hands(0, 0), by=arbiter,
                                  kind="sum_error", reason="somma sbagliata")
    assert "il turno 2 è già pubblicato" in exc.value.message
    sheet = ScoreSheet.objects.get(table=table1(round1_closed))
    assert (sheet.mp_ns, sheet.mp_ew) == (1000, 0)  # nothing changed
    assert not AuditEntry.objects.filter(action="sheet_corrected").exists()


# ----------------------------------------------------------------------------- transcription

def test_transcription_is_allowed_any_time_on_a_closed_round(round1_closed, round2_published, arbiter):
    before = seating(round2_published)
    sheet = services.save_score_sheet(table=table1(round1_closed), hands=hands(0, 0), by=arbiter,
                                      kind="transcription", reason="lo score consegnato dice 0–0")
    assert (sheet.mp_ns, sheet.state) == (0, "validated")
    assert seating(Round.objects.get(pk=round2_published.pk)) == before
    # 0–0 → 10–10 (was 15–5): standings after round 1 change
    vp = vp_after(round1_closed.tournament, 1)
    assert (vp[1], vp[2]) == (10, 10)
    assert last_correction().new["kind"] == "transcription"


def _captains_entered_and_confirmed(table):
    services.save_score_sheet(table=table, hands=hands(200, 100), by=Actor("capitano N/S tavolo 1"))
    services.confirm_sheet(table=table, by=Actor("capitano E/O tavolo 1"))


def test_transcription_refused_on_a_sheet_the_captains_entered_and_confirmed(danish, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=danish, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    _captains_entered_and_confirmed(t1)
    with pytest.raises(ArbiterError, match="inserito e confermato dai capitani") as exc:
        services.save_score_sheet(table=t1, hands=hands(300, 100), by=arbiter, kind="transcription",
                                  reason="letto male")
    assert "art. 31" in exc.value.message
    assert ScoreSheet.objects.get(table=t1).mp_ns == 200
    # the other kinds can change it; afterwards the delivered sheet is still the captains'
    services.save_score_sheet(table=t1, hands=hands(300, 100), by=arbiter, kind="sum_error",
                              reason="smazzata 1 sommata male")
    assert delivered_by_captains(ScoreSheet.objects.get(table=t1))
    with pytest.raises(ArbiterError, match="inserito e confermato dai capitani"):
        services.save_score_sheet(table=t1, hands=hands(400, 100), by=arbiter, kind="transcription",
                                  reason="di nuovo")
    services.swap_sheet_lines(table=t1, by=arbiter, reason="linee invertite, il tavolo concorda")
    sheet = services.set_arbitral_score(table=t1, by=arbiter, vp_ns=Decimal(12), vp_ew=Decimal(8),
                                        reason="art. 15")
    assert sheet.arbitral


def test_transcription_refused_on_a_validated_sheet_the_captains_confirmed(danish, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=danish, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    _captains_entered_and_confirmed(t1)
    services.validate_sheet(table=t1, by=arbiter)
    with pytest.raises(ArbiterError, match="inserito e confermato dai capitani"):
        services.save_score_sheet(table=t1, hands=hands(300, 100), by=arbiter, kind="transcription",
                                  reason="letto male")


def test_transcription_allowed_on_a_captains_sheet_not_confirmed(danish, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=danish, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=hands(200, 100), by=Actor("capitano N/S tavolo 1"))
    sheet = services.save_score_sheet(table=t1, hands=hands(300, 100), by=arbiter, kind="transcription",
                                      reason="il foglio dice 300")
    assert sheet.mp_ns == 300


# ----------------------------------------------------------------------------- swapped lines, arbitral

def test_swapped_lines_on_a_closed_round_change_standings_not_the_published_pairing(round1_closed,
                                                                                    round2_published, arbiter):
    before = seating(round2_published)
    sheet = services.swap_sheet_lines(table=table1(round1_closed), by=arbiter, reason="N/S ed E/O invertiti")
    # 1000–0 becomes 0–1000: pair 1 gets 5, pair 2 gets 15
    assert (sheet.mp_ns, sheet.mp_ew, sheet.vp_ns, sheet.vp_ew, sheet.state) == (0, 1000, 5, 15, "validated")
    assert Round.objects.get(pk=round1_closed.pk).state == "closed"
    vp = vp_after(round1_closed.tournament, 1)
    assert (vp[1], vp[2], vp[3], vp[4]) == (5, 15, 10, 10)
    assert seating(Round.objects.get(pk=round2_published.pk)) == before
    assert last_correction().new["kind"] == "swapped_lines"


def test_arbitral_score_on_a_closed_danish_round_without_reopening(round1_closed, round2_published, arbiter):
    """Regression: a closed Danish round refused every correction ("riaprilo"), and
    reopening is refused once round 2 is published: the any-time kinds were impossible."""
    before = seating(round2_published)
    t2 = Table.objects.get(round=round1_closed, number=2)
    sheet = services.set_arbitral_score(table=t2, by=arbiter, vp_ns=Decimal(12), vp_ew=Decimal(6),
                                        reason="art. 15: E/O in ritardo")
    assert (sheet.vp_ns, sheet.vp_ew, sheet.arbitral, sheet.state) == (12, 6, True, "validated")
    assert Round.objects.get(pk=round1_closed.pk).state == "closed"
    vp = vp_after(round1_closed.tournament, 1)
    assert (vp[3], vp[4]) == (12, 6)
    assert seating(Round.objects.get(pk=round2_published.pk)) == before
    assert last_correction().new["kind"] == "arbitral"


def test_reopening_stays_refused_once_the_next_round_is_published_and_names_the_direct_way(
        round1_closed, round2_published, arbiter):
    with pytest.raises(ArbiterError, match="già pubblicato") as exc:
        services.reopen_round(round=round1_closed, by=arbiter, reason="errore")
    assert "direttamente" in exc.value.message and "art. 31" in exc.value.message


# ----------------------------------------------------------------------------- a kind is required

def test_correction_without_a_kind_is_refused_and_nothing_is_stored(danish, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=danish, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=hands(200, 100), by=arbiter, validate=True)
    entries = AuditEntry.objects.count()
    for kind in ("", "typo"):
        with pytest.raises(ArbiterError, match="(?i)tipo di correzione"):
            services.save_score_sheet(table=t1, hands=hands(300, 100), by=arbiter, kind=kind, reason="x")
    assert ScoreSheet.objects.get(table=t1).mp_ns == 200 and AuditEntry.objects.count() == entries


def test_first_entry_needs_no_kind_and_captains_never_give_one(danish, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=danish, by=arbiter), by=arbiter)
    services.save_score_sheet(table=r1.tables.get(number=1), hands=hands(200, 100), by=arbiter)
    t2 = r1.tables.get(number=2)
    services.save_score_sheet(table=t2, hands=hands(200, 100), by=Actor("capitano N/S tavolo 2"))
    services.save_score_sheet(table=t2, hands=hands(300, 100), by=Actor("capitano N/S tavolo 2"))
    assert "kind" not in AuditEntry.objects.filter(action="sheet_saved").latest("pk").new


def test_grid_kinds_only_transcription_and_sum_error_through_save(danish, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=danish, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=hands(200, 100), by=arbiter)
    with pytest.raises(ArbiterError, match="pagina Correzioni"):
        services.save_score_sheet(table=t1, hands=hands(100, 200), by=arbiter, kind="swapped_lines")


def test_a_validated_sheet_may_not_be_left_with_a_sum_error(round1_closed, arbiter):
    with pytest.raises(ArbiterError, match="errore di somma"):
        services.save_score_sheet(table=table1(round1_closed), hands=hands(1000, 0), declared=(1100, 0),
                                  by=arbiter, kind="transcription", reason="dichiarato sul foglio")
    assert ScoreSheet.objects.get(table=table1(round1_closed)).declared_ns is None


def test_allowed_correction_kinds_lists_every_kind_with_its_refusal(round1_closed, round2_published):
    sheet = ScoreSheet.objects.get(table=table1(round1_closed))
    kinds = {value: refusal for value, _label, refusal in
             services.allowed_correction_kinds(sheet, Round.objects.get(pk=round1_closed.pk))}
    assert list(kinds) == ["transcription", "sum_error", "swapped_lines", "arbitral"]
    assert kinds["transcription"] is None and kinds["swapped_lines"] is None and kinds["arbitral"] is None
    assert "art. 31 ¶1" in kinds["sum_error"]
