"""«Valida tutti» (``services.validate_entered_sheets``): what it writes, and that it writes
it in a number of statements that does not grow with the sheets (the busiest minute's last
50 sheets were about 400 statements in the arbiter's request).

Versions by hand: a captain's save makes version 1, the other line's confirmation 2, the
validation 3; the arbiter's own entry is version 1 and its validation 2.
"""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.helpers import hands
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, ScoreSheet
from tournaments.services import Actor


@pytest.fixture
def sixteen(tournament, make_pairs, arbiter):
    """16 pairs, round 1 published: 8 playing tables."""
    make_pairs(tournament, 16)
    return services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter)


def _confirmed_by_captains(rnd, number):
    table = rnd.tables.get(number=number)
    services.save_score_sheet(table=table, hands=hands(200, 100), by=Actor(f"capitano N/S tavolo {number}"))
    services.confirm_sheet(table=table, by=Actor(f"capitano E/O tavolo {number}"))


def _statements(rnd, arbiter) -> tuple[list[int], int]:
    with CaptureQueriesContext(connection) as queries:
        done = services.validate_entered_sheets(round=rnd, by=arbiter)
    return done, len(queries.captured_queries)


def test_validate_all_writes_what_one_by_one_validation_writes(sixteen, arbiter):
    _confirmed_by_captains(sixteen, 2)
    services.save_score_sheet(table=sixteen.tables.get(number=5), hands=hands(150, 150), by=arbiter)
    services.save_score_sheet(table=sixteen.tables.get(number=7), hands=hands(200, 100),
                              by=Actor("capitano N/S tavolo 7"))  # not confirmed: left alone
    before = AuditEntry.objects.count()

    assert services.validate_entered_sheets(round=sixteen, by=arbiter) == [2, 5]

    states = {n: (state, version) for n, state, version in
              ScoreSheet.objects.filter(table__round=sixteen, table__number__in=[2, 5, 7])
              .values_list("table__number", "state", "version")}
    assert states == {2: ("validated", 3), 5: ("validated", 2), 7: ("entered", 1)}
    entries = list(AuditEntry.objects.order_by("id")[before:])
    assert [(e.action, e.round_number, e.table_number, e.old, e.new, e.reason, e.actor, e.user_id)
            for e in entries] == [
        ("sheet_validated", 1, 2, {"state": "confirmed"}, {"state": "validated"}, "", "arbitro (arbitro)", arbiter.pk),
        ("sheet_validated", 1, 5, {"state": "entered"}, {"state": "validated"}, "", "arbitro (arbitro)", arbiter.pk),
    ]


def test_validate_all_statements_do_not_grow_with_the_sheets(sixteen, arbiter):
    for number in (1, 2):
        _confirmed_by_captains(sixteen, number)
    two, few = _statements(sixteen, arbiter)
    for number in (3, 4, 5, 6, 7, 8):
        _confirmed_by_captains(sixteen, number)
    six, many = _statements(sixteen, arbiter)
    assert (two, six) == ([1, 2], [3, 4, 5, 6, 7, 8])
    assert many == few


def test_validate_all_is_the_arbiters(sixteen):
    _confirmed_by_captains(sixteen, 1)
    with pytest.raises(ArbiterError, match="Solo l'arbitro"):
        services.validate_entered_sheets(round=sixteen, by=Actor("capitano N/S tavolo 1"))
    assert ScoreSheet.objects.get(table__round=sixteen, table__number=1).state == "confirmed"


def test_validate_all_with_nothing_to_validate_writes_nothing(sixteen, arbiter):
    before = AuditEntry.objects.count()
    assert services.validate_entered_sheets(round=sixteen, by=arbiter) == []
    assert AuditEntry.objects.count() == before
