"""The ``make_pairs`` fixture writes a tournament's pairs at once (``add_pairs_at_once``) only
where that gives exactly the rows ``services.add_pair`` writes one pair at a time: the same
pairs, players, members and audit entries, in the same order (so the same relative ids),
timestamps aside; elsewhere it goes one by one."""
import datetime

import pytest
from django.db import transaction

from members.models import Member
from tests.conftest import add_pairs_at_once, add_pairs_one_by_one
from tournaments import services
from tournaments.models import AuditEntry, Pair, Player, Tournament

_WHEN = {"created_at", "updated_at", "at"}


_TABLES = {"pair": Pair, "player": Player, "member": Member, "audit": AuditEntry}


def _last_ids():
    return {name: model.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
            for name, model in _TABLES.items()}


def _rows(after):
    """The pairs, players, members and audit entries written since ``after`` (:func:`_last_ids`),
    ids made relative to each table's first new row (PostgreSQL's sequences do not roll
    back), timestamps left out."""
    rows = {name: list(model.objects.filter(pk__gt=after[name]).order_by("pk").values())
            for name, model in _TABLES.items()}
    first = {name: (r[0]["id"] if r else 0) for name, r in rows.items()}
    refs = {"id": None, "pair_id": "pair", "member_id": "member"}
    out = {}
    for name, table in rows.items():
        out[name] = [{key: (value - first[refs[key] or name] if key in refs and value is not None else value)
                      for key, value in row.items() if key not in _WHEN} for row in table]
    return out


class _Undo(Exception):
    pass


def _written_by(write, *args):
    """The rows after ``write(*args)``, then rolled back; and what ``write`` returned."""
    try:
        with transaction.atomic():
            before = _last_ids()
            result = write(*args)
            seen = _rows(before), [(p.number, p.pk - result[0].pk) for p in result] if result else result
            raise _Undo
    except _Undo:
        pass
    return seen


@pytest.mark.parametrize("n", [1, 5, 12])
def test_at_once_writes_the_rows_of_add_pair_one_by_one(tournament, arbiter, n):
    at_once, returned_at_once = _written_by(add_pairs_at_once, tournament, n, arbiter)
    one_by_one, returned_one_by_one = _written_by(add_pairs_one_by_one, tournament, n, arbiter)
    assert returned_at_once == returned_one_by_one == [(k, k - 1) for k in range(1, n + 1)]
    assert at_once == one_by_one
    # what the comparison stands on, by hand: n pairs, 2n players each with a new member, n entries
    assert (len(at_once["pair"]), len(at_once["player"]), len(at_once["member"]), len(at_once["audit"])) == (
        n, 2 * n, 2 * n, n)


def _other(arbiter, slug):
    return services.create_tournament(by=arbiter, name=slug, slug=slug, date=datetime.date(2026, 11, 30),
                                      venue="Circolo")


def test_one_by_one_where_the_rows_could_differ(tournament, arbiter, make_pairs):
    make_pairs(tournament, 3)
    assert add_pairs_at_once(tournament, 2, arbiter) is None  # pairs already there
    second = _other(arbiter, "secondo")
    assert add_pairs_at_once(second, 2, arbiter) is None  # A1, B1… already members
    refusing = _other(arbiter, "rifiuta")
    Tournament.objects.filter(pk=refusing.pk).update(missing_membership=Tournament.MembershipCheck.REFUSE)
    refusing.refresh_from_db()
    assert add_pairs_at_once(refusing, 5, arbiter) is None
    assert Pair.objects.filter(tournament__in=[second, refusing]).count() == 0
    # the fixture still gives them their pairs, one by one, linked to the members already there
    assert [p.number for p in make_pairs(second, 2)] == [1, 2]
    assert Member.objects.count() == 6
