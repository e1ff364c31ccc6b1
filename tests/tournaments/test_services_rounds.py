"""The round cycle through the services: pairing, refusals, results, audit.

Expected tables come from the Mitchell formula of pairing-io.md, worked by hand:
N pairs, T = ceil(N/2); E/W pair at index i of the E/W line plays round r at table
((i + (r-1)·s) mod T) + 1.
"""
from decimal import Decimal

import pytest

from tests.tournaments.helpers import hands, play, seating
from tournaments import selectors, services
from tournaments.errors import ArbiterError, StaleSheetError
from tournaments.models import AuditEntry, Pair, Round, ScoreSheet
from tournaments.services import Actor, HandInput


@pytest.fixture
def nine(tournament, make_pairs):
    make_pairs(tournament, 9)
    return tournament


def test_mitchell_round_1_and_2_with_nine_pairs(nine, arbiter):
    r1 = services.generate_round(tournament=nine, by=arbiter)
    assert r1.system == "mitchell" and r1.state == "draft" and r1.check_report == []
    # T = 5; N/S 1..4 (phantom N/S at table 5); E/W line 5..9
    assert seating(r1) == ({1: (1, 5), 2: (2, 6), 3: (3, 7), 4: (4, 8)}, 9, [])
    play(r1, arbiter)
    r2 = services.generate_round(tournament=nine, by=arbiter)
    # round 2: E/W index i → table ((i+1) mod 5)+1: 5→2, 6→3, 7→4, 8→5 (phantom: rests), 9→1
    assert seating(r2) == ({1: (1, 9), 2: (2, 5), 3: (3, 6), 4: (4, 7)}, 8, [])


def test_generating_twice_is_refused_while_the_round_is_played(nine, arbiter):
    r1 = services.generate_round(tournament=nine, by=arbiter)
    services.publish_round(round=r1, by=arbiter)
    with pytest.raises(ArbiterError, match="ancora in gioco"):
        services.generate_round(tournament=nine, by=arbiter)
    assert Round.objects.filter(tournament=nine).count() == 1


def test_regenerating_a_draft_replaces_it(tournament, make_pairs, arbiter):
    tournament.first_round = "lot"
    tournament.save()
    make_pairs(tournament, 8)
    first = services.generate_round(tournament=tournament, by=arbiter, seed=1)
    again = services.generate_round(tournament=tournament, by=arbiter, seed=1)
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert not Round.objects.filter(pk=first.pk).exists() and again.number == 1
    assert again.seed == 1


def test_draw_by_lot_is_reproducible_from_the_seed(tournament, make_pairs, arbiter):
    tournament.first_round = "lot"
    tournament.save()
    make_pairs(tournament, 10)
    a = seating(services.generate_round(tournament=tournament, by=arbiter, seed=424242))
    tournament.mitchell_order = []
    tournament.save()
    b = seating(services.generate_round(tournament=tournament, by=arbiter, seed=424242))
    assert a == b
    assert a[0] != {1: (1, 6), 2: (2, 7), 3: (3, 8), 4: (4, 9), 5: (5, 10)}  # shuffled, not by number


def test_publish_with_a_pair_missing_is_refused(nine, arbiter):
    r1 = services.generate_round(tournament=nine, by=arbiter)
    r1.seats.filter(pair__number=3).delete()
    with pytest.raises(ArbiterError, match="3 senza tavolo"):
        services.publish_round(round=r1, by=arbiter, acknowledge_warnings=True)


def test_publish_with_checker_problems_needs_acknowledgement(nine, arbiter):
    r1 = services.generate_round(tournament=nine, by=arbiter)
    r1 = services.swap_pairs(round=r1, pair_a=5, pair_b=9, by=arbiter)  # 9 plays, 5 rests: not the movement
    assert r1.check_report
    with pytest.raises(ArbiterError, match="confermali"):
        services.publish_round(round=r1, by=arbiter)
    services.publish_round(round=r1, by=arbiter, acknowledge_warnings=True)
    assert Round.objects.get(pk=r1.pk).state == "published"


def test_move_to_rest_swaps_with_resting_pair(nine, arbiter):
    r1 = services.generate_round(tournament=nine, by=arbiter)
    services.move_to_rest(round=r1, pair=2, by=arbiter)
    tables, rest, _ = seating(r1)
    assert rest == 2 and tables[2] == (9, 6)


def test_close_with_a_sheet_missing_is_refused(nine, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=hands(100, 0), by=arbiter, validate=True)
    with pytest.raises(ArbiterError, match="ai tavoli 2, 3, 4"):
        services.close_round(round=r1, by=arbiter)


def test_reopen_only_while_next_round_is_a_draft(nine, arbiter):
    r1 = play(services.generate_round(tournament=nine, by=arbiter), arbiter)
    r2 = services.generate_round(tournament=nine, by=arbiter)
    services.reopen_round(round=r1, by=arbiter, reason="errore")
    assert not Round.objects.filter(pk=r2.pk).exists()  # the draft depended on round 1
    play(Round.objects.get(pk=r1.pk), arbiter)
    r2 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    with pytest.raises(ArbiterError, match="già pubblicato"):
        services.reopen_round(round=Round.objects.get(pk=r1.pk), by=arbiter)


def test_score_not_multiple_of_5_is_refused_and_nothing_saved(nine, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    with pytest.raises(ArbiterError, match="multiplo di 5"):
        services.save_score_sheet(table=t1, hands=hands(123, 0), by=arbiter)
    sheet = ScoreSheet.objects.get(table=t1)
    assert sheet.state == "empty" and sheet.hands.count() == 0


def test_totals_vp_and_sum_error(nine, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    four = [HandInput(620, 100), HandInput(400, 315), HandInput(300, 400), HandInput(300, 300)]
    # N/S 620+400+300+300 = 1620, E/W 100+315+400+300 = 1115: difference 505 → 13–7 (4 hands)
    sheet = services.save_score_sheet(table=t1, hands=four, by=arbiter, declared=(1620, 1115))
    assert (sheet.mp_ns, sheet.mp_ew, sheet.vp_ns, sheet.vp_ew, sheet.sum_error) == (1620, 1115, 13, 7, False)
    sheet = services.save_score_sheet(table=t1, hands=four, by=arbiter, declared=(1720, 1115),
                                      kind="transcription")
    assert sheet.sum_error
    with pytest.raises(ArbiterError, match="errore di somma"):
        services.validate_sheet(table=t1, by=arbiter)
    sheet = services.accept_declared_totals(table=t1, by=arbiter, reason="valgono le smazzate")
    assert not sheet.sum_error
    assert services.validate_sheet(table=t1, by=arbiter).state == "validated"


def test_stale_version_and_idempotent_resend(nine, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    ns_captain, ew_captain = Actor("capitano N/S tavolo 1"), Actor("capitano E/O tavolo 1")
    s = services.save_score_sheet(table=t1, hands=hands(200, 100), by=ns_captain, expected_version=0)
    assert s.version == 1
    again = services.save_score_sheet(table=t1, hands=hands(200, 100), by=ns_captain, expected_version=0)
    assert again.version == 1  # same content re-sent: nothing new stored
    assert AuditEntry.objects.filter(action__startswith="sheet_", table_number=1).count() == 1
    with pytest.raises(StaleSheetError) as exc:
        services.save_score_sheet(table=t1, hands=hands(300, 100), by=ew_captain, expected_version=0)
    assert exc.value.current.mp_ns == 200


def test_captain_cannot_change_a_confirmed_sheet_but_the_arbiter_can(nine, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=hands(200, 100), by=Actor("capitano N/S tavolo 1"))
    services.confirm_sheet(table=t1, by=Actor("capitano E/O tavolo 1"))
    with pytest.raises(ArbiterError, match="solo l'arbitro"):
        services.save_score_sheet(table=t1, hands=hands(300, 100), by=Actor("capitano N/S tavolo 1"))
    s = services.save_score_sheet(table=t1, hands=hands(300, 100), by=arbiter, reason="correzione",
                                  kind="sum_error")
    assert s.mp_ns == 300


def test_swapped_lines_are_audited(nine, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=hands(1100, 100), by=arbiter)  # diff 1000 → 15–5
    s = services.swap_sheet_lines(table=t1, by=arbiter, reason="linee invertite")
    assert (s.mp_ns, s.mp_ew, s.vp_ns, s.vp_ew) == (100, 1100, 5, 15)
    entry = AuditEntry.objects.get(action="sheet_lines_swapped")
    assert entry.old["mp"] == [1100, 100] and entry.new["mp"] == [100, 1100] and entry.reason == "linee invertite"
    assert entry.user == arbiter


def test_arbitral_score(nine, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    s = services.set_arbitral_score(table=t1, by=arbiter, vp_ns=Decimal(12), vp_ew=Decimal(6), reason="art. 15")
    assert s.arbitral and s.state == "validated" and (s.vp_ns, s.vp_ew) == (12, 6)
    with pytest.raises(ArbiterError):
        services.set_arbitral_score(table=t1, by=arbiter, vp_ns=Decimal(21), vp_ew=Decimal(0), reason="x")


def test_rest_scores_70_percent_and_nobody_rests_twice(nine, arbiter):
    """Four rounds MMMD on 9 pairs, all draws except where said: rests get 14 VP each."""
    rested = []
    for _ in range(4):
        rnd = services.generate_round(tournament=nine, by=arbiter)
        rested.append(seating(rnd)[1])
        play(rnd, arbiter)
    assert len(set(rested)) == 4
    rows = {r.pair: r for r in selectors.standings(nine)}
    for pair in rested:
        # 3 draws at 10 VP + one rest at 14 VP = 44
        assert rows[pair].vp == 44 and rows[pair].rests == 1
    others = [r for r in rows.values() if r.pair not in rested]
    assert all(r.vp == 40 for r in others)


def test_danish_round_follows_the_standings_after_mitchell(tournament, make_pairs, arbiter):
    """8 pairs, plan MD. Round 1 Mitchell: 1v5, 2v6, 3v7, 4v8.
    Scores (4 hands): t1 1000–0 → 1: 15, 5: 5; t2 505–0 → 2: 13, 6: 7;
    t3 105–0 → 3: 11, 7: 9; t4 0–0 → 4: 10, 8: 10.
    Standings: 1 (15), 2 (13), 3 (11), 4 and 8 (10 VP, difference 0, head-to-head 10–10,
    MP scored 0 and 0: shared, listed in pair order 4, 8), 7 (9), 6 (7), 5 (5).
    Danish top-down: 1v2, 3v4, 8v7, 6v5; none of these met in round 1 (1v5, 2v6, 3v7,
    4v8), so the natural pairing stands, the better-ranked pair N/S:
    tables 1: 1–2, 2: 3–4, 3: 8–7, 4: 6–5.
    """
    tournament.plan = "MD"
    tournament.save()
    make_pairs(tournament, 8)
    r1 = services.generate_round(tournament=tournament, by=arbiter)
    play(r1, arbiter, {1: (1000, 0), 2: (505, 0), 3: (105, 0), 4: (0, 0)})
    r2 = services.generate_round(tournament=tournament, by=arbiter)
    assert r2.system == "danish"
    assert seating(r2)[0] == {1: (1, 2), 2: (3, 4), 3: (8, 7), 4: (6, 5)}


def test_withdrawal_gives_the_opponent_a_forced_rest(nine, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    pair6 = Pair.objects.get(tournament=nine, number=6)
    services.withdraw_pair(pair=pair6, from_round=1, by=arbiter, reason="malore")
    tables, rest, forced = seating(r1)
    assert forced == [2] and rest == 9 and 2 not in tables
    play(Round.objects.get(pk=r1.pk), arbiter)
    rows = {r.pair: r for r in selectors.standings(nine)}
    assert rows[2].vp == 14 and rows[9].vp == 14 and rows[6].withdrawn and rows[6].played == 0
    # round 2: 6 keeps its E/W seat as an empty one; its opponent (3, at table 3) rests by force
    r2 = services.generate_round(tournament=nine, by=arbiter)
    tables, rest, forced = seating(r2)
    assert forced == [3] and rest == 8


def test_withdrawal_refused_for_a_closed_round(nine, arbiter):
    play(services.generate_round(tournament=nine, by=arbiter), arbiter)
    with pytest.raises(ArbiterError, match="già chiuso"):
        services.withdraw_pair(pair=Pair.objects.get(tournament=nine, number=1), from_round=1, by=arbiter)


def test_late_pair_fills_the_incomplete_table_in_round_1_only(nine, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    late = services.add_late_pair(
        tournament=nine, by=arbiter,
        players=[services.PlayerData("Zeno", "Tardi"), services.PlayerData("Ugo", "Ritardo")],
    )
    tables, rest, _ = seating(r1)
    assert rest is None and tables[5] == (late.number, 9)
    assert ScoreSheet.objects.filter(table__round=r1, table__number=5).exists()
    with pytest.raises(ArbiterError, match="art. 33"):
        services.add_late_pair(tournament=nine, by=arbiter,
                               players=[services.PlayerData("A", "B"), services.PlayerData("C", "D")])
    play(Round.objects.get(pk=r1.pk), arbiter)
    # the late pair keeps the phantom's N/S seat of table 5 in the movement
    r2 = services.generate_round(tournament=nine, by=arbiter)
    tables, rest, _ = seating(r2)
    assert rest is None and tables[5] == (late.number, 8)


def test_late_pair_refused_after_round_2_is_paired(nine, arbiter):
    play(services.generate_round(tournament=nine, by=arbiter), arbiter)
    services.generate_round(tournament=nine, by=arbiter)
    with pytest.raises(ArbiterError, match="art. 33"):
        services.add_late_pair(tournament=nine, by=arbiter,
                               players=[services.PlayerData("A", "B"), services.PlayerData("C", "D")])


def test_correction_after_next_danish_round_changes_standings_not_pairing(tournament, make_pairs, arbiter):
    tournament.plan = "MD"
    tournament.save()
    make_pairs(tournament, 4)
    r1 = services.generate_round(tournament=tournament, by=arbiter)  # 1v3, 2v4
    play(r1, arbiter, {1: (1000, 0), 2: (0, 0)})
    r2 = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter)
    before = seating(r2)
    t1 = Round.objects.get(pk=r1.pk).tables.get(number=1)
    # A transcription is allowed any time, on the closed round directly (rules §3; a sum
    # error is not any more once round 2 is published: art. 31 ¶1; this test used one).
    services.save_score_sheet(table=t1, hands=hands(0, 1000), by=arbiter, reason="letto male", validate=True,
                              kind="transcription")
    assert seating(Round.objects.get(pk=r2.pk)) == before
    rows = {r.pair: r for r in selectors.standings(tournament)}
    assert rows[3].vp == 15 and rows[1].vp == 5


def test_penalty_reduces_vp_and_gives_opponents_nothing(nine, arbiter):
    play(services.generate_round(tournament=nine, by=arbiter), arbiter)
    services.add_penalty(pair=Pair.objects.get(tournament=nine, number=1), vp=Decimal(1), reason="art. 23", by=arbiter)
    rows = {r.pair: r for r in selectors.standings(nine)}
    assert rows[1].vp == 9 and rows[1].penalty == 1 and rows[5].vp == 10


def test_settings_that_change_results_freeze_once_played(nine, arbiter):
    services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    with pytest.raises(ArbiterError, match="già turni pubblicati"):
        services.update_tournament(tournament=nine, by=arbiter, hands_per_round=3)
    with pytest.raises(ArbiterError, match="solo dopo l.ultimo turno generato"):
        services.update_tournament(tournament=nine, by=arbiter, plan="DMMD")
    services.update_tournament(tournament=nine, by=arbiter, plan="MMDD")


def test_penalty_round_must_exist_in_the_plan(nine, arbiter):
    with pytest.raises(ArbiterError, match="Turno 9 inesistente"):
        services.add_penalty(pair=Pair.objects.get(tournament=nine, number=1), vp=Decimal(1), reason="x",
                             round_number=9, by=arbiter)


def test_resend_after_confirmation_is_accepted_and_changes_nothing(nine, arbiter):
    """Regression: a captain's retry of the stored sheet after the other line confirmed
    was refused, though it changes nothing (idempotent re-send)."""
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    ns = Actor("capitano N/S tavolo 1")
    services.save_score_sheet(table=t1, hands=hands(200, 100), by=ns, expected_version=0)
    services.confirm_sheet(table=t1, by=Actor("capitano E/O tavolo 1"))
    sheet = services.save_score_sheet(table=t1, hands=hands(200, 100), by=ns, expected_version=0)
    assert sheet.state == "confirmed" and sheet.version == 2


def test_bulk_validation_waits_for_the_other_captain(nine, arbiter):
    """Regression: 'validate all' validated a sheet a captain entered before the other line
    could confirm or dispute it. Confirmed sheets and the arbiter's own entries are validated."""
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1, t2, t3 = (r1.tables.get(number=n) for n in (1, 2, 3))
    services.save_score_sheet(table=t1, hands=hands(200, 100), by=Actor("capitano N/S tavolo 1"))
    services.save_score_sheet(table=t2, hands=hands(200, 100), by=Actor("capitano N/S tavolo 2"))
    services.confirm_sheet(table=t2, by=Actor("capitano E/O tavolo 2"))
    services.save_score_sheet(table=t3, hands=hands(200, 100), by=arbiter)
    assert services.validate_entered_sheets(round=r1, by=arbiter) == [2, 3]
    assert ScoreSheet.objects.get(table=t1).state == "entered"


def test_save_and_validate_records_who_entered(nine, arbiter):
    """Regression: a sheet saved with 'save and validate' showed nobody as its author."""
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    sheet = services.save_score_sheet(table=r1.tables.get(number=1), hands=hands(200, 100), by=arbiter,
                                      validate=True)
    assert sheet.state == "validated" and sheet.entered_by == "arbitro (arbitro)"


def test_unvalidating_needs_a_reason(nine, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=hands(200, 100), by=arbiter, validate=True)
    with pytest.raises(ArbiterError, match="motivo"):
        services.unvalidate_sheet(table=t1, by=arbiter, reason="  ")
    assert services.unvalidate_sheet(table=t1, by=arbiter, reason="ricontrollo").state == "entered"


@pytest.mark.parametrize("situation", ["captain_entry", "disputed", "validated"])
def test_arbiter_correction_needs_a_reason(nine, arbiter, situation):
    """Regression: the arbiter overwrote a captain's entry and a disputed sheet with no reason."""
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    if situation == "validated":
        services.save_score_sheet(table=t1, hands=hands(200, 100), by=arbiter, validate=True)
    else:
        services.save_score_sheet(table=t1, hands=hands(200, 100), by=Actor("capitano N/S tavolo 1"))
        if situation == "disputed":
            services.dispute_sheet(table=t1, by=Actor("capitano E/O tavolo 1"), note="mano 2")
    with pytest.raises(ArbiterError, match="motivo"):
        services.save_score_sheet(table=t1, hands=hands(300, 100), by=arbiter, kind="transcription")
    assert ScoreSheet.objects.get(table=t1).mp_ns == 200
    assert services.save_score_sheet(table=t1, hands=hands(300, 100), by=arbiter, reason="verificato",
                                     kind="transcription").mp_ns == 300


def test_arbiter_may_retype_own_unvalidated_entry_without_reason(nine, arbiter):
    r1 = services.publish_round(round=services.generate_round(tournament=nine, by=arbiter), by=arbiter)
    t1 = r1.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=hands(200, 100), by=arbiter)
    assert services.save_score_sheet(table=t1, hands=hands(300, 100), by=arbiter,
                                     kind="transcription").mp_ns == 300
