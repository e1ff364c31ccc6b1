"""``selectors.same_standings``: a draft's inputs read the standings once (the snapshot and the
pairing request's ranking are the same standings after the previous round); outside the
block every read is fresh. A 250-table round's draft page, publication form and publication
each compute a draft's inputs in the busiest minute (bench/busiest_minute.py)."""
import pytest

from tests.tournaments.helpers import play
from tournaments import selectors, services
from tournaments.models import Tournament
from tournaments.selectors import rankings


@pytest.fixture
def reads(monkeypatch):
    """How many times the pair standings were read, by after_round."""
    counted: list = []
    reader = rankings._READERS[Tournament.Kind.PAIRS]

    def counting(tournament, after_round, last):
        counted.append(after_round)
        return reader(tournament, after_round, last)

    monkeypatch.setitem(rankings._READERS, Tournament.Kind.PAIRS, counting)
    return counted


@pytest.fixture
def second_draft(tournament, make_pairs, arbiter):
    make_pairs(tournament, 8)
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter)  # published, played, closed
    return services.generate_round(tournament=tournament, by=arbiter)


def test_a_drafts_staleness_reads_the_standings_once(second_draft, reads):
    assert services.draft_staleness(second_draft) == []
    assert reads == [1]   # before: twice (the snapshot, then the request's ranking)


def test_generating_reads_the_standings_once(second_draft, arbiter, reads):
    services.generate_round(tournament=second_draft.tournament, by=arbiter)  # the draft drawn again
    assert reads == [1]


def test_outside_the_block_each_read_is_fresh(second_draft, reads):
    tournament = second_draft.tournament
    selectors.standings_after(tournament, 1)
    selectors.standings_after(tournament, 1)
    assert reads == [1, 1]
    with selectors.same_standings():
        first = selectors.standings_after(tournament, 1)
        with selectors.same_standings():   # nested: the outer memo
            assert selectors.standings_after(tournament, 1) is first
        assert selectors.standings_after(tournament, 0) is not first
    assert reads == [1, 1, 1, None]
