"""Writes racing each other must never break a rule (docs/security.md, "Concurrent writes").

- A withdrawal racing the draw: the draft records the entrants it was drawn from, so one
  withdrawn after the draw makes it outdated, and publishing never seats a withdrawn pair
  (rules.md §5, §12, art. 32).
- Closing a round racing an arbiter's "unvalidate": a closed round never holds an unvalidated
  sheet (rules.md §3).
- Closing a round racing a correction of one of its sheets: both take their locks in the one
  order (tournament, round, table, sheet), so PostgreSQL never has a deadlock to break.

The first tests force the interleaving by hand (both engines, no threads); the races run the
two writes in threads released together by a ``threading.Barrier``, each with its own
connection as two server processes would have, on the engine of the run (``make test`` runs
them on SQLite and on PostgreSQL). On PostgreSQL every deadlock the database breaks is
counted (``services.guard.conflict_to_retry``): there must be none.
"""
from __future__ import annotations

import pytest

from tests.threads import together
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import Pair, Round, ScoreSheet, Table, Tournament
from tournaments.services import guard
from tournaments.services.drafts import draft_inputs

TRIES = 10  # per race; each try is a few tens of milliseconds


def _hands(ns: int, ew: int) -> list:
    """A 4-hand sheet (the tournaments' default) whose first hand carries the whole score."""
    return [services.HandInput(ns, ew)] + [services.HandInput(0, 0)] * 3


def _seated(rnd: Round) -> set[int]:
    return set(rnd.seats.values_list("pair__number", flat=True))


# ----------------------------------------------------------------- the interleavings by hand

def test_a_pair_withdrawn_during_the_draw_makes_the_draft_outdated(five, arbiter, monkeypatch):
    """Pair 4 withdraws while the engine pairs round 1 (what a concurrent commit looks like to
    the draw's later statements): the draft seats pair 4, so it must record pair 4 as drawn
    from, read as outdated (rules.md §12) and not publish."""
    import pairing
    from tournaments.services import rounds

    engine = pairing.run

    def run_then_withdraw(request):
        response = engine(request)
        Pair.objects.filter(tournament=five, number=4).update(status=Pair.Status.WITHDRAWN,
                                                               withdrawn_from_round=1)
        return response

    monkeypatch.setattr(rounds.pairing, "run", run_then_withdraw)
    draft = services.generate_round(tournament=five, by=arbiter)
    monkeypatch.undo()
    assert 4 in _seated(draft)
    assert draft.drawn_from["active"] == [1, 2, 3, 4, 5]
    assert services.draft_staleness(draft) != []
    with pytest.raises(ArbiterError, match="superata"):
        services.publish_round(round=draft, by=arbiter, acknowledge_warnings=True)
    assert Round.objects.get(pk=draft.pk).state == Round.State.DRAFT


def test_publish_refuses_a_draft_that_seats_a_pair_no_longer_in_play(five, arbiter):
    """Whatever the draft recorded, a pair seated that is no longer in play (withdrawn from
    this round, art. 32) stops the publication, as a missing one does."""
    draft = services.generate_round(tournament=five, by=arbiter)
    services.withdraw_pair(pair=five.pairs.get(number=4), from_round=1, by=arbiter)
    # the inputs as the racing draw recorded them: read after the withdrawal
    seed = draft.drawn_from.get("seed")
    Round.objects.filter(pk=draft.pk).update(drawn_from={**draft_inputs(five, 1, seed), "seed": seed})
    draft = Round.objects.get(pk=draft.pk)
    assert services.draft_staleness(draft) == []
    with pytest.raises(ArbiterError, match=r"Impossibile pubblicare: 4 non sono più in gara"):
        services.publish_round(round=draft, by=arbiter, acknowledge_warnings=True)
    assert Round.objects.get(pk=draft.pk).state == Round.State.DRAFT


def _validated(published, arbiter) -> Round:
    for table in published.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=_hands(300, 100), by=arbiter, validate=True)
    return published


def test_unvalidate_from_a_page_loaded_before_the_close_is_refused(published, arbiter):
    """The arbiter's page loaded table 1 while round 1 was in play; the round is closed before
    his "unvalidate" arrives: refused with a sentence, the closed round keeps every sheet
    validated (rules.md §3)."""
    rnd = _validated(published, arbiter)
    table = Table.objects.select_related("round__tournament").get(round=rnd, number=1)
    services.close_round(round=rnd, by=arbiter)
    with pytest.raises(ArbiterError, match="chiuso"):
        services.unvalidate_sheet(table=table, by=arbiter, reason="errore")
    assert ScoreSheet.objects.get(table=table).state == ScoreSheet.State.VALIDATED


# ----------------------------------------------------------------------------- the races

@pytest.fixture
def deadlocks(monkeypatch):
    """The conflicts PostgreSQL broke by rolling a write back (deadlocks, serialisation
    failures), as ``retry_when_busy`` saw them; SQLite never has one."""
    seen = []
    decide = guard.conflict_to_retry

    def counted(exc):
        conflict = decide(exc)
        if conflict:
            seen.append(repr(exc)[:200])
        return conflict

    monkeypatch.setattr(guard, "conflict_to_retry", counted)
    return seen


def _failures(results, allowed=()):
    return [r for r in results if isinstance(r, Exception) and not isinstance(r, allowed)]


race = pytest.mark.django_db(transaction=True)


@pytest.mark.slow
@race
def test_withdrawal_racing_the_draw_never_publishes_the_withdrawn_pair(five, arbiter, deadlocks):
    """Pair 4 withdraws from round 1 while round 1 is drawn: whichever comes first, a draft
    seating pair 4 never publishes once pair 4 is withdrawn."""
    pair = five.pairs.get(number=4)
    for attempt in range(TRIES):
        Round.objects.filter(tournament=five).delete()
        Tournament.objects.filter(pk=five.pk).update(mitchell_order=[])
        Pair.objects.filter(pk=pair.pk).update(status=Pair.Status.ACTIVE, withdrawn_from_round=None)
        results = together(lambda: services.generate_round(tournament=five, by=arbiter),
                            lambda: services.withdraw_pair(pair=pair, from_round=1, by=arbiter))
        assert _failures(results) == [], (attempt, results)
        draft = Round.objects.get(tournament=five, number=1)
        try:
            services.publish_round(round=draft, by=arbiter, acknowledge_warnings=True)
        except ArbiterError:
            continue  # outdated: the arbiter draws it again
        assert 4 not in _seated(draft), attempt
    assert deadlocks == []


@pytest.mark.slow
@race
def test_close_racing_an_unvalidation_never_leaves_an_unvalidated_sheet(published, arbiter, deadlocks):
    """The arbiter closes round 1 in one window and unvalidates table 1 in another: the round
    ends closed with every sheet validated, or open with table 1 unvalidated (the close then
    refused); never closed with an unvalidated sheet."""
    rnd = _validated(published, arbiter)
    for attempt in range(TRIES):
        table = Table.objects.select_related("round__tournament").get(round=rnd, number=1)  # the page's copy
        results = together(lambda: services.close_round(round=rnd, by=arbiter),
                            lambda table=table: services.unvalidate_sheet(table=table, by=arbiter, reason="ricontrollo"))
        assert _failures(results, ArbiterError) == [], (attempt, results)
        state = Round.objects.get(pk=rnd.pk).state
        sheets = set(ScoreSheet.objects.filter(table__round=rnd).values_list("state", flat=True))
        if state == Round.State.CLOSED:
            assert sheets == {ScoreSheet.State.VALIDATED}, attempt
            services.reopen_round(round=rnd, by=arbiter)
        else:
            assert isinstance(results[0], ArbiterError), attempt
            services.validate_sheet(table=table, by=arbiter)
    assert deadlocks == []


@pytest.mark.slow
@race
def test_close_racing_a_correction_takes_the_locks_in_one_order(published, arbiter, deadlocks):
    """The arbiter corrects table 1 (transcription) while round 1 is closed from another
    window: both succeed, in either order, and PostgreSQL breaks no deadlock (before the one
    lock order most of these tries deadlocked, each retried after a second)."""
    rnd = _validated(published, arbiter)
    for attempt in range(TRIES):
        table = Table.objects.select_related("round__tournament").get(round=rnd, number=1)
        results = together(
            lambda: services.close_round(round=rnd, by=arbiter),
            lambda table=table, attempt=attempt: services.save_score_sheet(table=table, hands=_hands(300 + 5 * (attempt + 1), 100), by=arbiter,
                                              kind="transcription", reason="trascrizione"))
        assert _failures(results) == [], (attempt, results)
        assert Round.objects.get(pk=rnd.pk).state == Round.State.CLOSED
        assert ScoreSheet.objects.get(table=table).mp_ns == 300 + 5 * (attempt + 1)
        services.reopen_round(round=rnd, by=arbiter)
    assert deadlocks == []
