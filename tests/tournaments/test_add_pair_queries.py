"""Adding a pair by hand (``services.add_pair``) with as few statements as its checks need: the
arbiter's desk adds pairs one at a time during registration, and most database tests build
their tournaments through it (``make_pairs``)."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from members.models import Member
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Pair, Player


def _two(k: int) -> list[services.PlayerData]:
    return [services.PlayerData(first_name=f"Nuova{k}", last_name="Bianchi", membership_number=f"N{k}"),
            services.PlayerData(first_name=f"Nuovo{k}", last_name="Neri", membership_number=f"M{k}")]


def test_a_pair_with_two_new_members_takes_17_statements(tournament, make_pairs, arbiter):
    make_pairs(tournament, 3)
    with CaptureQueriesContext(connection) as queries:
        services.add_pair(tournament=tournament, by=arbiter, players=_two(1))
    # Counted by hand: savepoint; the tournament's row lock; "no round yet"; the membership
    # numbers already in the tournament; the highest pair number (4 is then free by
    # construction, under the lock: no second look); savepoint, the pair, both players in one
    # INSERT, release; the members' links (unlinked players, members taken, members by number,
    # the registry's count for its cap, the new members, the players' links); the audit entry;
    # release. Before: 19 (the free number looked up again, one INSERT per player).
    assert len(queries.captured_queries) == 17, [q["sql"][:80] for q in queries.captured_queries]


def test_the_pair_its_players_and_their_members_are_as_before(tournament, make_pairs, arbiter):
    make_pairs(tournament, 3)
    pair = services.add_pair(tournament=tournament, by=arbiter, players=_two(1))
    assert pair.number == 4
    seat1, seat2 = Player.objects.filter(pair=pair).order_by("pk")
    assert (seat1.seat, seat1.last_name, seat1.membership_number) == (1, "Bianchi", "N1")
    assert (seat2.seat, seat2.last_name, seat2.membership_number) == (2, "Neri", "M1")
    assert seat1.member == Member.objects.get(membership_number="N1")
    assert seat2.member == Member.objects.get(membership_number="M1")
    entry = AuditEntry.objects.filter(action="pair_added").latest("pk")
    assert entry.new == {"number": 4, "players": ["Bianchi Nuova1", "Neri Nuovo1"]}


def test_a_number_in_use_is_still_refused_and_a_free_one_taken(tournament, make_pairs, arbiter):
    make_pairs(tournament, 3)
    with pytest.raises(ArbiterError, match="Il numero di coppia 2 è già usato"):
        services.add_pair(tournament=tournament, by=arbiter, players=_two(1), number=2)
    assert services.add_pair(tournament=tournament, by=arbiter, players=_two(1), number=9).number == 9
    assert services.add_pair(tournament=tournament, by=arbiter, players=_two(2)).number == 10
    assert Pair.objects.filter(tournament=tournament).count() == 5
