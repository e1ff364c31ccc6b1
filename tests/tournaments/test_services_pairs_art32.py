"""No substitution once a pair has played (art. 32, rules.md §13).

The 5-pair fixture (tests/conftest.py): pair k is Rossi{k} Anna{k} (tessera A{k}) and
Verdi{k} Bruno{k} (tessera B{k}). "Round 2 published": round 1 played and closed, round 2
published, so pair 1 has played.
"""
import pytest

from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Pair, Player
from tournaments.services import HandInput, PlayerData
from tournaments.services.entrants import is_spelling_fix


@pytest.fixture
def round2(published, arbiter):
    for t in published.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=[HandInput(0, 0)] * 4, by=arbiter, validate=True)
    services.close_round(round=published, by=arbiter)
    r2 = services.generate_round(tournament=published.tournament, by=arbiter)
    return services.publish_round(round=r2, by=arbiter, acknowledge_warnings=True)


def pair1(tournament):
    return Pair.objects.get(tournament=tournament, number=1)


def players(first=("Anna1", "Rossi1", "A1"), second=("Bruno1", "Verdi1", "B1")):
    return [PlayerData(first_name=f, last_name=last, membership_number=m) for f, last, m in (first, second)]


def stored(tournament):
    return [(p.last_name, p.first_name, p.membership_number) for p in pair1(tournament).players]


def test_changing_a_filled_membership_number_is_refused(round2, arbiter):
    tournament = round2.tournament
    with pytest.raises(ArbiterError, match="art. 32") as exc:
        services.update_pair(pair=pair1(tournament), by=arbiter, players=players(first=("Anna1", "Rossi1", "A99")))
    assert "tessera A1" in exc.value.message
    assert stored(tournament) == [("Rossi1", "Anna1", "A1"), ("Verdi1", "Bruno1", "B1")]
    with pytest.raises(ArbiterError, match="art. 32"):  # nor emptied
        services.update_pair(pair=pair1(tournament), by=arbiter, players=players(second=("Bruno1", "Verdi1", "")))


def test_filling_a_blank_membership_number_is_allowed_and_audited(five, arbiter):
    Player.objects.filter(tournament=five, membership_number="B1").update(membership_number="")
    r1 = services.publish_round(round=services.generate_round(tournament=five, by=arbiter), by=arbiter)
    for t in r1.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=[HandInput(0, 0)] * 4, by=arbiter, validate=True)
    services.close_round(round=r1, by=arbiter)
    services.publish_round(round=services.generate_round(tournament=five, by=arbiter), by=arbiter,
                           acknowledge_warnings=True)
    services.update_pair(pair=pair1(five), by=arbiter, players=players(second=("Bruno1", "Verdi1", "B777")))
    assert stored(five)[1] == ("Verdi1", "Bruno1", "B777")
    entry = AuditEntry.objects.filter(action="pair_updated").latest("pk")
    assert entry.old["membership_numbers"] == ["A1", ""] and entry.new["membership_numbers"] == ["A1", "B777"]
    assert "art. 32" in entry.reason and "B777" in entry.reason


def test_spelling_fix_of_a_name_is_allowed_and_audited(round2, arbiter):
    tournament = round2.tournament
    services.update_pair(pair=pair1(tournament), by=arbiter,
                         players=players(first=("Anna1", "Rosssi1", "A1")))  # a letter too many
    services.update_pair(pair=pair1(tournament), by=arbiter,
                         players=players(first=("Anna1", "Rossi1", "A1"), second=("Brunno1", "Verdi1", "B1")))
    assert stored(tournament) == [("Rossi1", "Anna1", "A1"), ("Verdi1", "Brunno1", "B1")]
    entry = AuditEntry.objects.filter(action="pair_updated").latest("pk")
    assert entry.old["players"] == ["Rosssi1 Anna1", "Verdi1 Bruno1"]
    assert entry.new["players"] == ["Rossi1 Anna1", "Verdi1 Brunno1"]
    assert "grafia" in entry.reason


def test_a_new_player_replacing_one_is_refused(round2, arbiter):
    tournament = round2.tournament
    before = AuditEntry.objects.count()
    with pytest.raises(ArbiterError, match="art. 32") as exc:
        services.update_pair(pair=pair1(tournament), by=arbiter,
                             players=players(second=("Luca", "Bianchi", "B1")))  # same tessera, another name
    assert "Bianchi Luca" in exc.value.message
    with pytest.raises(ArbiterError, match="art. 32"):
        services.update_pair(pair=pair1(tournament), by=arbiter, players=players(second=("Luca", "Bianchi", "")))
    assert stored(tournament)[1] == ("Verdi1", "Bruno1", "B1") and AuditEntry.objects.count() == before


def test_before_play_a_pair_may_still_change_its_players(five, arbiter):
    services.update_pair(pair=pair1(five), by=arbiter, players=players(second=("Luca", "Bianchi", "C5")))
    assert stored(five)[1] == ("Bianchi", "Luca", "C5")


@pytest.mark.parametrize("old, new, fix", [
    (("Rosi", "Anna"), ("Rossi", "Anna"), True),            # one letter missing
    (("Rossi", "Mraio"), ("Rossi", "Mario"), True),         # two letters swapped
    (("Rossi", "Nicolo"), ("Rossi", "Nicolò"), True),       # accent
    (("DANGELO", "Pia"), ("D'Angelo", "Pia"), True),        # capitals and apostrophe
    (("Anna", "Rossi"), ("Rossi", "Anna"), True),           # first and last name the wrong way round
    (("Rossi", "Anna"), ("Rossi", "Anna Maria"), True),     # a second name added
    (("Bartolomei", "Giovanni"), ("Bortolomei", "Giovani"), True),  # 1 letter each
    (("Rossi", "Anna"), ("Bianchi", "Luca"), False),        # another person
    (("Rossi", "Mario"), ("Rossi", "Luca"), False),         # another first name
    (("Rossi", "Ugo"), ("Rossi", "Ivo"), False),            # 2 of 3 letters: another name
])
def test_is_spelling_fix(old, new, fix):
    assert is_spelling_fix(old, new) is fix


def test_a_club_changed_alone_shows_in_the_registro(round2, arbiter, arbiter_client):
    """Clubs may change once the pair has played (art. 32): the entry says which, so its
    «Prima» and «Dopo» differ; an entry that changes no club does not list them."""
    from django.urls import reverse

    tournament = round2.tournament
    services.update_pair(pair=pair1(tournament), by=arbiter, players=[
        PlayerData(first_name="Anna1", last_name="Rossi1", membership_number="A1"),
        PlayerData(first_name="Bruno1", last_name="Verdi1", membership_number="B1", club="Ospiti")])
    entry = AuditEntry.objects.filter(action="pair_updated").latest("pk")
    assert entry.old["clubs"] == ["", ""] and entry.new["clubs"] == ["", "Ospiti"]
    body = arbiter_client.get(reverse("audit", args=[tournament.slug])).content.decode()
    assert "circoli: —, —" in body and "circoli: —, Ospiti" in body
    services.update_pair(pair=pair1(tournament), by=arbiter, players=[
        PlayerData(first_name="Anna1", last_name="Rossi1", membership_number="A1"),
        PlayerData(first_name="Bruno1", last_name="Verdi1", membership_number="B1", club="Ospiti")])
    entry = AuditEntry.objects.filter(action="pair_updated").latest("pk")
    assert "clubs" not in entry.old and "clubs" not in entry.new
