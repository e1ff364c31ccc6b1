"""Generating and publishing a round write its tables, seats and sheets in a fixed number of
statements, whatever the number of tables: in the busiest minute (bench/busiest_minute.py) the
arbiter generates and publishes a 250-table round while 1000 phones poll the same server, and
one INSERT a row held the two cores for most of a second."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.helpers import seating
from tournaments import services
from tournaments.models import Round, ScoreSheet, Seat, Table


def _statements(tournament, make_pairs, arbiter, pairs: int) -> tuple[int, int]:
    """(statements of generate_round, of publish_round) for a first round of ``pairs`` pairs."""
    make_pairs(tournament, pairs)
    with CaptureQueriesContext(connection) as generated:
        rnd = services.generate_round(tournament=tournament, by=arbiter)
    with CaptureQueriesContext(connection) as published:
        services.publish_round(round=rnd, by=arbiter)
    return len(generated.captured_queries), len(published.captured_queries)


@pytest.mark.django_db
def test_generating_and_publishing_cost_the_same_statements_for_5_and_40_tables(arbiter, make_pairs):
    small = services.create_tournament(by=arbiter, name="Piccolo", slug="piccolo", date="2026-11-30", venue="C")
    large = services.create_tournament(by=arbiter, name="Grande", slug="grande", date="2026-11-30", venue="C")
    # 10 pairs: 5 tables; 80 pairs: 40 tables. Before: 3 statements more a table to generate
    # (the table, its two seats) and 2 more to publish (the sheet looked up, then created).
    assert _statements(small, make_pairs, arbiter, 10) == _statements(large, make_pairs, arbiter, 80)


@pytest.mark.django_db
def test_the_tables_seats_and_sheets_are_as_before(tournament, make_pairs, arbiter):
    make_pairs(tournament, 9)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    # Mitchell, 9 pairs (pairing-io.md): T = 5, N/S 1..4 against E/W 5..8 at tables 1..4,
    # pair 9 meets the phantom N/S of table 5: it rests, at a table of its own, on the E/W line
    assert seating(rnd) == ({1: (1, 5), 2: (2, 6), 3: (3, 7), 4: (4, 8)}, 9, [])
    rest = Table.objects.get(round=rnd, bye=Table.Bye.REST)
    assert (rest.number, rest.seats.get().line) == (5, Seat.Line.EW)
    assert len({t.token for t in rnd.tables.all()}) == 5  # every table its own captains' link
    assert all(len(t.pin) == 4 for t in rnd.tables.all())
    services.publish_round(round=rnd, by=arbiter)
    sheets = ScoreSheet.objects.filter(table__round=rnd).order_by("table__number")
    assert [s.table.number for s in sheets] == [1, 2, 3, 4]  # no sheet at the rest table
    assert all(s.state == ScoreSheet.State.EMPTY and s.version == 0 and s.updated_at for s in sheets)


@pytest.mark.django_db
def test_a_round_published_again_keeps_its_sheets(tournament, make_pairs, arbiter):
    """A sheet already there when the round is published is kept, not doubled or emptied."""
    make_pairs(tournament, 8)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    first = rnd.tables.filter(bye="").order_by("number").first()
    kept = ScoreSheet.objects.create(table=first, dispute_note="già qui")
    services.publish_round(round=rnd, by=arbiter)
    assert ScoreSheet.objects.filter(table__round=rnd).count() == 4
    kept.refresh_from_db()
    assert kept.dispute_note == "già qui"
    assert Round.objects.get(pk=rnd.pk).state == Round.State.PUBLISHED
