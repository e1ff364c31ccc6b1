"""Round trip of a tournament whose Danish and Mitchell rounds are played in groups (rules.md
§19): the groups and each group's Mitchell order (the tournament's order restricted to the
group) survive export → import into an empty database → export, byte for byte, and the
imported tournament asks the pairing engine exactly what the original asked."""
import json

import pytest

from tests.conftest import DATA
from tests.transfer.conftest import empty_database, without_accounts
from tests.transfer.helpers import groups_snapshot, snapshot
from tournaments import transfer
from tournaments.models import Pair
from tournaments.services.pairing_requests import build_pairing_request


@pytest.fixture
def grouped(db):
    """29 pairs in 3 groups by lot (seed 4), plan MMD|D: rounds 1–3 played, round 4 a draft."""
    from tournaments.demo.simulation import simulate

    return simulate(registrations=DATA / "registrations-29.csv", plan="MMD|D", hands=4, seed=4, groups=3,
                    group_split="lot", name="Danesi a gironi", slug="danesi-gironi", stop_after=3)


@pytest.mark.slow
def test_danish_and_mitchell_in_groups_round_trip_into_an_empty_database(grouped):
    first = transfer.export_tournament(grouped)
    before = snapshot(grouped), groups_snapshot(grouped)
    requests = {r.number: r.pairing_request for r in grouped.rounds.order_by("number")}
    orders = [g for g in requests[1]["groups"]]
    empty_database()

    t = transfer.import_tournament(data=first).tournament

    assert transfer.export_tournament(t) == without_accounts(first)  # the file's accounts are never applied
    assert (snapshot(t), groups_snapshot(t)) == before
    assert (t.groups, t.group_split, t.group_seed) == (3, "lot", 4)
    group_of = dict(Pair.objects.filter(tournament=t, round__isnull=True).values_list("number", "group"))
    # each group's Mitchell order: the stored order restricted to the group
    assert [[n for n in t.mitchell_order if group_of[n] == g] for g in (1, 2, 3)] == orders
    for number in (2, 3, 4):  # the engine is asked the same: groups, orders, rankings, rests
        assert build_pairing_request(t, number) == requests[number]
    doc = json.loads(first)
    assert sorted({p["group"] for p in doc["pairs"] if p.get("round") is None}) == [1, 2, 3]
