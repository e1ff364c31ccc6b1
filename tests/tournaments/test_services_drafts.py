"""Frozen settings, outdated drafts and an idempotent generate, through the services.

Frozen settings (rules.md §12): once round 1 is published the settings that change
entered results are refused. Outdated drafts (rules.md §12): a draft records what it
was drawn from; a later correction, swap of lines, arbitral score, penalty,
withdrawal, or a change of tie-breaks, rematch rule or Mitchell step makes it
outdated; an outdated draft cannot be published and is drawn again in one call.

Expected values are worked by hand from the spec:

- VP scale vp20-4h (shared/data/vp_scales.json): 0–100 → 10–10, 305–500 → 12–8,
  2005+ → 20–0. A rest is 70% of 20 = 14 VP (rules.md §5); at 50% it would be 10.
- Mitchell with 4 pairs (pairing-io.md): T = 2 tables, N/S 1, 2 and E/W 3, 4, round 1
  = table 1: 1 v 3, table 2: 2 v 4. With 5 pairs: T = 3, the phantom sits N/S at
  table 3, round 1 = 1 v 3, 2 v 4, pair 5 rests.
- Danish (rules.md §7): 1st v 2nd at table 1, 3rd v 4th at table 2, higher-ranked
  pair N/S.
"""
from decimal import Decimal

import pytest

from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Pair, Round, Table
from tournaments.services import HandInput


def seating(rnd):
    """{table: (ns, ew)} and the resting pair (None when nobody rests), as pair numbers."""
    out, rest = {}, None
    for t in selectors.round_tables(rnd):
        if t.bye:
            rest = t.resting_pair.number
        else:
            out[t.number] = (t.ns.number, t.ew.number)
    return out, rest


def hands(ns, ew, n=4):
    """A sheet whose first hand carries the whole score (MP), the others 0–0."""
    return [HandInput(ns, ew)] + [HandInput(0, 0)] * (n - 1)


def play(rnd, arbiter, scores=None):
    """Publish, enter and validate every sheet (``scores``: {table: (MP N/S, MP E/W)},
    default 0–0), close."""
    scores = scores or {}
    if rnd.state == Round.State.DRAFT:
        rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    for t in rnd.tables.filter(bye=""):
        ns, ew = scores.get(t.number, (0, 0))
        services.save_score_sheet(table=t, hands=hands(ns, ew), by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


def vp_of(tournament, pair, after_round):
    return next(r.vp for r in selectors.standings(tournament, after_round=after_round) if r.pair == pair)


# ---------------------------------------------------------------- frozen settings


@pytest.fixture
def mmd_five(five, arbiter):
    """5 pairs, plan MMD, round 1 closed (0–0 at both tables, pair 5 rests)."""
    services.update_tournament(tournament=five, by=arbiter, plan="MMD")
    play(services.generate_round(tournament=five, by=arbiter), arbiter)
    return five


def test_rest_percent_change_after_round_one_is_refused_and_rest_keeps_14_vp(mmd_five, arbiter):
    """Pair 5 rested in round 1 with 70% of 20 = 14 VP. Changing the rest
    percent to 50 would show 10 VP: refused, 14 stays, and the round-2 draft built on 14
    stays current."""
    assert vp_of(mmd_five, 5, 1) == Decimal("14")
    draft = services.generate_round(tournament=mmd_five, by=arbiter)
    with pytest.raises(ArbiterError, match="riposo: % dei VP massimi"):
        services.update_tournament(tournament=mmd_five, by=arbiter, bye_percent=Decimal("50"))
    mmd_five.refresh_from_db()
    assert mmd_five.bye_percent == Decimal("70")
    assert vp_of(mmd_five, 5, 1) == Decimal("14")
    assert services.draft_staleness(draft) == []


def test_rest_mp_change_after_round_one_is_refused(mmd_five, arbiter):
    with pytest.raises(ArbiterError, match="riposo: MP accreditati"):
        services.update_tournament(tournament=mmd_five, by=arbiter, bye_mp="band_lower_edge")
    mmd_five.refresh_from_db()
    assert mmd_five.bye_mp == "zero"


def test_frozen_settings_are_listed_once_round_one_is_published(five, arbiter):
    assert services.frozen_settings(five) == ()
    rnd = services.generate_round(tournament=five, by=arbiter)
    assert services.frozen_settings(five) == ()  # a draft changes no result yet
    services.update_tournament(tournament=five, by=arbiter, bye_percent=Decimal("60"))  # still free
    services.publish_round(round=rnd, by=arbiter)
    assert set(services.frozen_settings(five)) == {
        "kind", "hands_per_round", "vp_scale", "bye_percent", "bye_mp", "rule_set",
        "team_result", "team_scale"}  # the team result mode and scale change results too


def test_pairing_settings_stay_editable_after_round_one(mmd_five, arbiter):
    """rules.md §12: tie-breaks, rematch rule and Mitchell step change only future pairings."""
    services.update_tournament(tournament=mmd_five, by=arbiter, tiebreaks="vp,mp_scored",
                               rematch_window="previous", mitchell_step=2, venue="Altrove",
                               bye_percent=Decimal("70"))  # unchanged value: not a change
    mmd_five.refresh_from_db()
    assert (mmd_five.tiebreaks, mmd_five.rematch_window, mmd_five.mitchell_step) == ("vp,mp_scored", "previous", 2)


# ---------------------------------------------------------------- outdated drafts


@pytest.fixture
def md_four(tournament, make_pairs, arbiter):
    """Plan MD, 4 pairs; round 1 (Mitchell) table 1 = 1 v 3 2100–0,
    table 2 = 2 v 4 400–0, closed; round 2 (Danish) drawn as a draft.

    Standings after round 1 (vp20-4h): 1 = 20 VP (2100 ≥ 2005), 2 = 12 (400 in
    305–500), 4 = 8, 3 = 0. Danish: 1 v 2 at table 1, 4 v 3 at table 2."""
    services.update_tournament(tournament=tournament, by=arbiter, plan="MD")
    make_pairs(tournament, 4)
    r1 = services.generate_round(tournament=tournament, by=arbiter)
    assert seating(r1) == ({1: (1, 3), 2: (2, 4)}, None)
    play(r1, arbiter, {1: (2100, 0), 2: (400, 0)})
    draft = services.generate_round(tournament=tournament, by=arbiter)
    assert seating(draft) == ({1: (1, 2), 2: (4, 3)}, None)
    assert services.draft_staleness(draft) == []
    return draft


def _table(tournament, round_number, table_number):
    return Table.objects.get(round__tournament=tournament, round__number=round_number, number=table_number)


def test_corrected_round_one_makes_danish_draft_outdated_and_redraw_gives_3v2_4v1(md_four, arbiter):
    """Table 1 of round 1 corrected to 0–2100. Standings now 3 = 20,
    2 = 12, 4 = 8, 1 = 0: the draft (1 v 2, 4 v 3) is outdated, publishing it is refused
    with a clear message, and drawing it again gives 3 v 2 at table 1, 4 v 1 at table 2."""
    t = md_four.tournament
    services.save_score_sheet(table=_table(t, 1, 1), hands=hands(0, 2100), by=arbiter, kind="transcription",
                              reason="righe scambiate sul foglio", validate=True)
    reasons = services.draft_staleness(md_four)
    assert len(reasons) == 1 and "classifica dopo il turno 1" in reasons[0] and "coppie 1, 3" in reasons[0]
    with pytest.raises(ArbiterError, match="La bozza del turno 2 è superata") as refusal:
        services.publish_round(round=md_four, by=arbiter, acknowledge_warnings=True)
    assert refusal.value.details == reasons
    assert Round.objects.get(pk=md_four.pk).state == Round.State.DRAFT
    redrawn = services.redraw_round(round=md_four, by=arbiter)
    assert seating(redrawn) == ({1: (3, 2), 2: (4, 1)}, None)
    assert services.draft_staleness(redrawn) == []
    services.publish_round(round=redrawn, by=arbiter)
    entry = AuditEntry.objects.get(tournament=t, action="round_redrawn")
    assert entry.round_number == 2 and entry.old["reasons"] == reasons


def test_redraw_twice_writes_once(md_four, arbiter):
    t = md_four.tournament
    services.save_score_sheet(table=_table(t, 1, 1), hands=hands(0, 2100), by=arbiter, kind="transcription", reason="errore", validate=True)
    first = services.redraw_round(round=md_four, by=arbiter)
    again = services.redraw_round(round=first, by=arbiter)
    assert again.pk == first.pk and again.already_generated
    assert AuditEntry.objects.filter(tournament=t, action="round_redrawn").count() == 1


def test_swapped_lines_make_the_draft_outdated(md_four, arbiter):
    t = md_four.tournament
    services.swap_sheet_lines(table=_table(t, 1, 2), by=arbiter, reason="inversione")
    reasons = services.draft_staleness(md_four)
    assert reasons and "coppie 2, 4" in reasons[0]


def test_arbitral_score_makes_the_draft_outdated(md_four, arbiter):
    t = md_four.tournament
    services.set_arbitral_score(table=_table(t, 1, 2), by=arbiter, vp_ns=Decimal("10"), vp_ew=Decimal("10"),
                                reason="gioco lento")
    assert any("coppie 2, 4" in r for r in services.draft_staleness(md_four))


def test_penalty_makes_the_draft_outdated(md_four, arbiter):
    t = md_four.tournament
    services.add_penalty(pair=Pair.objects.get(tournament=t, number=2), vp=Decimal("5"), reason="ritardo",
                         by=arbiter, round_number=1)
    assert any("coppie 2" in r for r in services.draft_staleness(md_four))
    with pytest.raises(ArbiterError, match="superata"):
        services.publish_round(round=md_four, by=arbiter)


def test_withdrawal_keeps_the_draft_but_makes_it_outdated(md_four, arbiter):
    """Regression: the withdrawal deleted the draft; now it stays, outdated, and the
    redraw pairs the three remaining pairs: 1 (20) v 2 (12) at table 1, pair 3 (0, the
    lowest, never rested) rests (rules.md §5)."""
    t = md_four.tournament
    services.withdraw_pair(pair=Pair.objects.get(tournament=t, number=4), from_round=2, by=arbiter, reason="malore")
    assert Round.objects.filter(pk=md_four.pk).exists()
    assert any("coppia 4" in r and "ritiro" in r for r in services.draft_staleness(md_four))  # one pair: singular
    redrawn = services.redraw_round(round=md_four, by=arbiter)
    assert seating(redrawn) == ({1: (1, 2)}, 3)


def test_tiebreak_change_makes_the_draft_outdated(md_four, arbiter):
    services.update_tournament(tournament=md_four.tournament, by=arbiter, tiebreaks="vp,mp_scored")
    reasons = services.draft_staleness(Round.objects.get(pk=md_four.pk))
    assert any("spareggi" in r and "vp,mp_scored" in r for r in reasons)


def test_rematch_rule_change_makes_the_draft_outdated(md_four, arbiter):
    services.update_tournament(tournament=md_four.tournament, by=arbiter, rematch_window="none")
    reasons = services.draft_staleness(Round.objects.get(pk=md_four.pk))
    assert any("rivincite" in r and "Rivincite ammesse" in r for r in reasons)


def test_venue_change_leaves_the_draft_current(md_four, arbiter):
    services.update_tournament(tournament=md_four.tournament, by=arbiter, venue="Circolo nuovo", name="Altro nome",
                               public_enabled=True)
    assert services.draft_staleness(Round.objects.get(pk=md_four.pk)) == []
    services.publish_round(round=md_four, by=arbiter)


def test_manual_swap_in_the_draft_does_not_make_it_outdated(md_four, arbiter):
    services.swap_pairs(round=md_four, pair_a=2, pair_b=3, by=arbiter)
    assert services.draft_staleness(md_four) == []


def test_mitchell_step_change_makes_the_mitchell_draft_outdated(mmd_five, arbiter):
    """Round 2 of MMD is Mitchell: the step moves the E/W line (rules.md §6)."""
    draft = services.generate_round(tournament=mmd_five, by=arbiter)
    services.update_tournament(tournament=mmd_five, by=arbiter, mitchell_step=2)
    reasons = services.draft_staleness(Round.objects.get(pk=draft.pk))
    assert any("salto Mitchell" in r and "era 1, ora 2" in r for r in reasons)
    with pytest.raises(ArbiterError, match="superata"):
        services.publish_round(round=draft, by=arbiter)


def test_step_change_does_not_outdate_a_danish_draft(md_four, arbiter):
    services.update_tournament(tournament=md_four.tournament, by=arbiter, mitchell_step=2)
    assert services.draft_staleness(Round.objects.get(pk=md_four.pk)) == []


def test_withdrawal_before_round_one_outdates_the_first_round_draft(five, arbiter):
    """First-round drafts too: pair 5 withdraws before round 1 is published. The
    movement order fixed by the first draw keeps pair 5 as an empty E/W seat (rules.md
    §6): T = 3, round 1 = 1 v 3, 2 v 4, and pair 5's seat faces the phantom at table 3,
    so nobody rests."""
    draft = services.generate_round(tournament=five, by=arbiter)
    assert seating(draft) == ({1: (1, 3), 2: (2, 4)}, 5)
    services.withdraw_pair(pair=Pair.objects.get(tournament=five, number=5), from_round=1, by=arbiter, reason="assente")
    reasons = services.draft_staleness(Round.objects.get(pk=draft.pk))
    assert any("coppia 5" in r for r in reasons)  # one pair: singular
    redrawn = services.redraw_round(round=draft, by=arbiter)
    assert seating(redrawn) == ({1: (1, 3), 2: (2, 4)}, None)


# ---------------------------------------------------------------- idempotent generate


def test_three_identical_generate_requests_make_one_round_and_one_audit_entry(five, arbiter):
    state = services.generation_state(five)
    rounds = [services.generate_round(tournament=five, by=arbiter, expected_round=1, expected_state=state)
              for _ in range(3)]
    assert len({r.pk for r in rounds}) == 1
    assert [r.already_generated for r in rounds] == [False, True, True]
    assert Round.objects.filter(tournament=five).count() == 1
    assert AuditEntry.objects.filter(tournament=five, action="round_generated").count() == 1


def test_three_identical_regenerate_requests_replace_the_draft_once(five, arbiter):
    services.generate_round(tournament=five, by=arbiter)
    state = services.generation_state(five)
    rounds = [services.generate_round(tournament=five, by=arbiter, expected_round=1, expected_state=state)
              for _ in range(3)]
    assert len({r.pk for r in rounds}) == 1
    assert AuditEntry.objects.filter(tournament=five, action="round_generated").count() == 2


def test_stale_generate_request_is_refused_and_changes_nothing(mmd_five, arbiter):
    """The form offered round 2 while round 1 was closed; meanwhile round 2 was drawn
    by another request (another state) and published: the old form changes nothing."""
    state = services.generation_state(mmd_five)
    r2 = services.generate_round(tournament=mmd_five, by=arbiter)
    services.publish_round(round=r2, by=arbiter)
    with pytest.raises(ArbiterError, match="stato superato"):
        services.generate_round(tournament=mmd_five, by=arbiter, expected_round=2, expected_state=state)
    assert Round.objects.get(tournament=mmd_five, number=2).pk == r2.pk
    assert AuditEntry.objects.filter(tournament=mmd_five, action="round_generated").count() == 2


def test_generate_request_for_another_round_number_is_refused(five, arbiter):
    state = services.generation_state(five)
    with pytest.raises(ArbiterError, match="offriva il turno 2"):
        services.generate_round(tournament=five, by=arbiter, expected_round=2, expected_state=state)
    assert not Round.objects.filter(tournament=five).exists()


@pytest.mark.django_db(transaction=True)
def test_three_generate_requests_at_once_in_threads_make_one_round(django_user_model):
    """Three threads post the same generate form at the same moment. The test database
    is SQLite in memory with a shared cache, which answers a concurrent writer with
    "database table is locked" instead of waiting as the file database does (busy
    timeout, IMMEDIATE transactions: config/settings.py); each thread therefore retries
    on that error, as the server's busy wait would. Whatever the order, exactly one
    request draws the round and writes the audit entry; the other two return it."""
    import datetime
    import threading
    import time

    from django.db import OperationalError, connection

    user = django_user_model.objects.create_user(username="arbitro-thread", password="x")
    tournament = services.create_tournament(by=user, name="Concorrenza", slug="concorrenza",
                                            date=datetime.date(2026, 11, 30))
    for k in range(1, 6):
        services.add_pair(tournament=tournament, by=user, players=[
            services.PlayerData(first_name="Anna", last_name=f"Rossi{k}", membership_number=f"A{k}"),
            services.PlayerData(first_name="Bruno", last_name=f"Verdi{k}", membership_number=f"B{k}")])
    state = services.generation_state(tournament)
    results, barrier = [], threading.Barrier(3)

    def post():
        try:
            barrier.wait()
            for _ in range(200):
                try:
                    rnd = services.generate_round(tournament=tournament, by=user, expected_round=1,
                                                  expected_state=state)
                except OperationalError as exc:
                    if "locked" not in str(exc):
                        raise
                    time.sleep(0.01)
                else:
                    results.append(rnd.already_generated)
                    return
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            results.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results, key=str) == [False, True, True]
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert AuditEntry.objects.filter(tournament=tournament, action="round_generated").count() == 1


def test_late_pair_completing_a_current_first_round_draft_leaves_it_publishable(five, arbiter):
    """Regression guard: the late pair (art. 33) takes the Mitchell phantom's N/S seat at
    table 3 against pair 5; the draft it completed is not outdated and publishes."""
    draft = services.generate_round(tournament=five, by=arbiter)
    services.add_late_pair(tournament=five, by=arbiter, players=[
        services.PlayerData(first_name="Ugo", last_name="Tardi", membership_number="T1"),
        services.PlayerData(first_name="Ida", last_name="Ritardo", membership_number="T2")])
    draft = Round.objects.get(pk=draft.pk)
    assert seating(draft) == ({1: (1, 3), 2: (2, 4), 3: (6, 5)}, None)
    assert services.draft_staleness(draft) == []
    services.publish_round(round=draft, by=arbiter)


def test_a_hand_swap_that_makes_rematches_names_each_with_its_table(md_four, arbiter):
    """Swapping pairs 2 and 3 in the Danish draft (1 v 2, 4 v 3) gives table 1 = 1 v 3 and
    table 2 = 4 v 2, both met in round 1 (1 v 3, 2 v 4). The checker names each repeat with
    its table, as for Mitchell, instead of the engine's contract wording; both repeats were
    avoidable (the engine's draft had none), and pair 2, ranked above pair 4, sits E/O."""
    services.swap_pairs(round=md_four, pair_a=2, pair_b=3, by=arbiter)
    messages = Round.objects.get(pk=md_four.pk).check_messages
    assert "incontro ripetuto non segnalato al tavolo 1: 1–3 (già incontrate)" in messages
    assert "incontro ripetuto non segnalato al tavolo 2: 4–2 (già incontrate)" in messages
    assert not any("'rematches'" in m or "senza avviso" in m for m in messages)
    assert any(m.startswith("incontro ripetuto evitabile: 1–3, 2–4") for m in messages)
    services.swap_pairs(round=md_four, pair_a=2, pair_b=3, by=arbiter)   # undone: a clean report
    assert Round.objects.get(pk=md_four.pk).check_report == []
