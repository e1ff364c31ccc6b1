"""A late pair is one write (art. 33): the pair, its seat at the rest table and the round's
request change together or not at all, and the tournament row it locks first is locked
inside that transaction (PostgreSQL refuses ``SELECT … FOR UPDATE`` outside one)."""
import pytest
from django.db import connection

from tournaments import services
from tournaments.models import Pair, Table
from tournaments.services import late_entries


def test_a_late_pair_that_fails_halfway_leaves_nothing(five, arbiter, monkeypatch):
    rnd = services.publish_round(round=services.generate_round(tournament=five, by=arbiter), by=arbiter)

    def broken(_rnd):
        raise RuntimeError("the checker failed")

    monkeypatch.setattr(late_entries, "recheck_draft", broken)
    with pytest.raises(RuntimeError):
        services.add_late_pair(tournament=five, by=arbiter,
                               players=[services.PlayerData("Zeno", "Tardi"), services.PlayerData("Ugo", "Ritardo")])
    # five pairs, one resting: the sixth pair and its seat went with the failed write
    assert Pair.objects.filter(tournament=five).count() == 5
    assert rnd.tables.filter(bye=Table.Bye.REST).count() == 1


def test_the_late_pair_locks_inside_its_transaction(transactional_db, five, arbiter, monkeypatch):
    services.publish_round(round=services.generate_round(tournament=five, by=arbiter), by=arbiter)
    seen = []
    real = late_entries.lock_tournament

    def watching(tournament):
        seen.append(connection.in_atomic_block)
        return real(tournament)

    monkeypatch.setattr(late_entries, "lock_tournament", watching)
    services.add_late_pair(tournament=five, by=arbiter,
                           players=[services.PlayerData("Zeno", "Tardi"), services.PlayerData("Ugo", "Ritardo")])
    assert seen == [True]
