"""The combined standings of a pair simultaneous evening read every club's tournament at once
(``tournaments.selectors.pair_fields_of``, rules.md §20): a club more costs the lateness
forfeits' read (§22), not the ten queries of a tournament read alone."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from simultaneous import selectors

from .helpers import RESULTS, club_tournament, play

pytestmark = pytest.mark.django_db


def test_a_second_club_adds_at_most_two_queries(arbiter, clubs, event):
    ta = club_tournament(arbiter, event, clubs["a"])
    play(arbiter, ta, RESULTS["a"])
    with CaptureQueriesContext(connection) as one:
        alone = selectors.combined_standings(event)
    tb = club_tournament(arbiter, event, clubs["b"])
    play(arbiter, tb, RESULTS["b"])
    with CaptureQueriesContext(connection) as two:
        both = selectors.combined_standings(event)
    assert [(r.entrant, r.position, r.names) for r in alone.rows] == [
        (1, 1, "A1a Anna – A1b Bruno"), (2, 2, "A2a Anna – A2b Bruno"), (4, 3, "A4a Anna – A4b Bruno"),
        (3, 4, "A3a Anna – A3b Bruno")]
    assert len(both.rows) == 8 and both.final
    assert len(two.captured_queries) - len(one.captured_queries) <= 2, [q["sql"][:80] for q in two.captured_queries]
