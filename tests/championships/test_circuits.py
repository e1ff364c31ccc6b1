"""Circuits (rules.md §20): a championship whose evenings come from several clubs, members
matched across clubs by membership number. Every expected value is computed by hand in the
docstrings from the rules (§17: field points, best N, order; §20: matching, displayed club)."""
import datetime
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from championships import selectors, services
from championships.models import Championship, CircuitClub
from clubs.models import Club, ClubRole
from tournaments.errors import ArbiterError
from tournaments.models import Tournament

from .helpers import BIANCHI, GIALLI, NERI, NUOVO, ROSA, SANTORO, SERRA, VERDI, VIOLA, club_evening

D = datetime.date


def user(django_user_model, name, club, role=ClubRole.Role.ARBITER):
    u = django_user_model.objects.create_user(username=name, password="segreta-123")
    ClubRole.objects.create(user=u, club=club, role=role)
    return u


@pytest.fixture
def clubs(db):
    return {s: Club.objects.create(slug=s, name=f"Circolo {s.upper()}") for s in ("a", "b", "c")}


@pytest.fixture
def circuit_evenings(clubs, django_user_model):
    """Four evenings of three clubs (VP 20, 15, 10, 5 → field points 4, 3, 2, 1):

    - a-1 (A, 5 Nov): Serra–Santoro 4, Bianchi–Verdi 3, Neri–Gialli 2, Rosa–Nuovo 1;
    - b-1 (B, 12 Nov): Conti–Bruni 4, Serra (tessera 402616 at B too)–Esposito 3,
      Galli–Ferri 2, Nuovo (B's, no tessera)–Marino 1;
    - a-2 (A, 12 Nov, created after b-1: a higher tournament id): Santoro–Bianchi 4,
      Verdi–Neri 3, Gialli–Rosa 2, Serra–Viola 1;
    - c-1 (C, 19 Nov): Greco–Lombardi 4, Moretti–Barbieri 3, Rinaldi–Caruso 2, Ferrara–Mancini 1.
    """
    arb = {s: user(django_user_model, f"arb-{s}", c) for s, c in clubs.items()}
    a, b, c = clubs["a"], clubs["b"], clubs["c"]
    club_evening(arb["a"], a, "a-1", D(2026, 11, 5), [(SERRA, SANTORO), (BIANCHI, VERDI), (NERI, GIALLI), (ROSA, NUOVO)])
    club_evening(arb["b"], b, "b-1", D(2026, 11, 12), [
        (("Conti", "Ugo", "502001"), ("Bruni", "Sara", "502002")), (SERRA, ("Esposito", "Rita", "502003")),
        (("Galli", "Pia", "502004"), ("Ferri", "Leo", "502005")), (NUOVO, ("Marino", "Ada", "502006"))])
    club_evening(arb["a"], a, "a-2", D(2026, 11, 12), [(SANTORO, BIANCHI), (VERDI, NERI), (GIALLI, ROSA), (SERRA, VIOLA)])
    club_evening(arb["c"], c, "c-1", D(2026, 11, 19), [
        (("Greco", "Ezio", "602001"), ("Lombardi", "Olga", "602002")),
        (("Moretti", "Tina", "602003"), ("Barbieri", "Nino", "602004")),
        (("Rinaldi", "Eva", "602005"), ("Caruso", "Remo", "602006")),
        (("Ferrara", "Lia", "602007"), ("Mancini", "Elio", "602008"))])
    return arb


def standings_json(slug):
    out = StringIO()
    call_command("championship", "standings", slug, "--json", stdout=out)
    return json.loads(out.getvalue())["rows"]


def test_one_tessera_at_two_clubs_is_one_person_best_two(circuit_evenings):
    """Best 2 of field points. Serra (402616, a member of A and of B): a-1 4, b-1 3, a-2 1 →
    4 + 3 = 7 (a-1, b-1), 3 evenings, shown with B (his latest counted evening, b-1; a-2 is
    later by id but not counted). Santoro 4 + 4 = 8 → 1st; Serra 7 and Bianchi 3 + 4 = 7:
    same total, same best evening (4), Serra played more → 2nd, Bianchi 3rd; Verdi 3 + 3 = 6
    4th; Neri 2 + 3 = 5 5th; Conti, Bruni, Greco, Lombardi 4 (best 4) before Gialli 2 + 2 = 4
    (best 2): 6= and Gialli 10th; Barbieri, Esposito, Moretti 3 (best 3) 11=, Rosa 1 + 2 = 3
    14th; four with 2 points 15=; six with 1 point 19=, among them A's Nuovo and B's Nuovo,
    two people (no tessera: each counts only in his club)."""
    call_command("championship", "create", "giro", "--name", "Giro dei circoli", "--points", "field",
                 "--best", "2", "--clubs", "a,b,c", "a-1", "b-1", "a-2", "c-1", stdout=StringIO())
    rows = standings_json("giro")
    assert len(rows) == 24
    top = [(r["name"], r["club"], r["points"], r["evenings"], r["position"], r["counted"]) for r in rows[:5]]
    assert top == [
        ("Santoro Marta", "a", 8.0, 2, 1, ["a-1", "a-2"]),
        ("Serra Anna", "b", 7.0, 3, 2, ["a-1", "b-1"]),
        ("Bianchi Carla", "a", 7.0, 2, 3, ["a-1", "a-2"]),
        ("Verdi Dario", "a", 6.0, 2, 4, ["a-1", "a-2"]),
        ("Neri Elena", "a", 5.0, 2, 5, ["a-1", "a-2"]),
    ]
    by_name = {}
    for r in rows:
        by_name.setdefault(r["name"], []).append(r)
    assert [(r["club"], r["position"]) for r in by_name["Nuovo Luca"]] == [("a", 19), ("b", 19)]
    assert all(r["membership_number"] is None and r["points"] == 1.0 for r in by_name["Nuovo Luca"])
    assert {r["name"] for r in rows if r["position"] == 6} == {"Conti Ugo", "Bruni Sara", "Greco Ezio", "Lombardi Olga"}
    assert (by_name["Gialli Fabio"][0]["position"], by_name["Rosa Gino"][0]["position"]) == (10, 14)
    assert {r["name"] for r in rows if r["position"] == 11} == {"Barbieri Nino", "Esposito Rita", "Moretti Tina"}
    assert sum(1 for r in rows if r["position"] == 15) == 4
    assert [r["club"] for r in rows if r["name"] in ("Greco Ezio", "Conti Ugo")] == ["b", "c"]


def test_the_club_shown_is_the_latest_counted_evening_by_date_then_tournament_id(circuit_evenings):
    """Every evening counted: Serra 4 + 3 + 1 = 8; his latest counted evenings are b-1 and a-2,
    both on 12 Nov: the higher tournament id, a-2 (created after), gives club A."""
    services.create_circuit(slug="tutte", name="Tutte", clubs=["a", "b", "c"], tournaments=["a-1", "b-1", "a-2", "c-1"])
    assert Tournament.objects.get(slug="b-1").pk < Tournament.objects.get(slug="a-2").pk
    serra = next(r for r in standings_json("tutte") if r["name"] == "Serra Anna")
    assert (serra["points"], serra["club"], serra["evenings"]) == (8.0, "a", 3)
    # without a-2 the latest counted evening is b-1: club B
    services.remove_tournament(championship=Championship.objects.get(slug="tutte"), by=None,
                               tournament=Tournament.objects.get(slug="a-2"))
    serra = next(r for r in standings_json("tutte") if r["name"] == "Serra Anna")
    assert (serra["points"], serra["club"]) == (7.0, "b")


def test_a_championship_of_one_club_keeps_members_apart_and_has_no_club_key(circuit_evenings):
    """Not a circuit (no club invited): members are not matched by number and rows carry no
    «club»; only A's evenings can be put in by A's arbiter."""
    c = services.create_championship(by=circuit_evenings["a"], slug="sociale-a", name="Sociale A",
                                     tournaments=["a-1", "a-2"], club=Club.objects.get(slug="a"))
    rows = standings_json(c.slug)
    assert "club" not in rows[0]
    assert selectors.standings(c).circuit is False


def test_invite_accept_choose_evenings_and_leave(circuit_evenings, clubs, django_user_model):
    """A's manager owns the championship and invites B; B's manager sees it, cannot add an
    evening before accepting, accepts, adds b-1 (not A's a-2: each manager adds his own
    club's); B leaves and b-1 leaves with it; the owning club cannot leave."""
    boss_a = user(django_user_model, "boss-a", clubs["a"], ClubRole.Role.MANAGER)
    boss_b = user(django_user_model, "boss-b", clubs["b"], ClubRole.Role.MANAGER)
    c = services.create_championship(by=boss_a, slug="giro", name="Giro", club=clubs["a"])
    assert not selectors.championships_of(boss_b).filter(pk=c.pk).exists()
    with pytest.raises(ArbiterError):
        services.invite_club(championship=c, by=boss_b, club="b")  # not his championship
    services.invite_club(championship=c, by=boss_a, club="b")
    with pytest.raises(ArbiterError, match="già invitato"):
        services.invite_club(championship=c, by=boss_a, club="b")
    assert selectors.championships_of(boss_b).filter(pk=c.pk).exists()
    assert [(m.club.slug, m.owner, m.accepted) for m in selectors.circuit_clubs(c)] == [
        ("a", True, True), ("b", False, False)]
    with pytest.raises(ArbiterError):
        services.add_tournaments(championship=c, by=boss_b, tournaments=["b-1"])  # not accepted yet
    with pytest.raises(ArbiterError):
        services.accept_invitation(championship=c, by=boss_a, club="b")  # only B's manager
    services.accept_invitation(championship=c, by=boss_b, club="b")
    assert [t.slug for t in services.add_tournaments(championship=c, by=boss_b, tournaments=["b-1"])] == ["b-1"]
    with pytest.raises(ArbiterError):
        services.add_tournaments(championship=c, by=boss_b, tournaments=["a-2"])
    with pytest.raises(ArbiterError):
        services.add_tournaments(championship=c, by=boss_a, tournaments=["c-1"])  # C not invited
    services.add_tournaments(championship=c, by=boss_a, tournaments=["a-1"])
    assert {r.club_slug for r in selectors.standings(c).rows} == {"a", "b"}
    with pytest.raises(ArbiterError, match="proprietario"):
        services.leave_circuit(championship=c, by=boss_a, club="a")
    gone = services.leave_circuit(championship=c, by=boss_b, club="b")
    assert [t.slug for t in gone] == ["b-1"]
    assert [e.slug for e in selectors.evenings(c)] == ["a-1"]
    assert not CircuitClub.objects.filter(championship=c).exists()
    assert not selectors.championships_of(boss_b).filter(pk=c.pk).exists()


def test_the_commands_refuse_with_a_sentence(circuit_evenings, clubs):
    """Unknown club, one club only, --club beside --clubs, and an evening of a club not in
    the circuit (create and add): a sentence, exit status 1 (CommandError), nothing created."""
    out = StringIO()
    with pytest.raises(CommandError, match="Nessun circolo «z»"):
        call_command("championship", "create", "g1", "--name", "G", "--clubs", "a,z", stdout=out)
    with pytest.raises(CommandError, match="almeno due circoli"):
        call_command("championship", "create", "g1", "--name", "G", "--clubs", "a", stdout=out)
    with pytest.raises(CommandError, match="--club"):
        call_command("championship", "create", "g1", "--name", "G", "--clubs", "a,b", "--club", "a", stdout=out)
    with pytest.raises(CommandError, match="«c-1» è del circolo «c»"):
        call_command("championship", "create", "g1", "--name", "G", "--clubs", "a,b", "c-1", stdout=out)
    assert not Championship.objects.filter(slug="g1").exists()
    call_command("championship", "create", "g2", "--name", "G", "--clubs", "a,b", "a-1", stdout=out)
    g2 = Championship.objects.get(slug="g2")
    assert g2.owner is None and g2.club.slug == "a"
    with pytest.raises(CommandError, match="«c-1» è del circolo «c», che non è invitato nel circuito «g2»"):
        call_command("championship", "add", "g2", "c-1", stdout=out)
    call_command("championship", "add", "g2", "b-1", stdout=out)  # whoever directs it
    assert [e.slug for e in selectors.evenings(g2)] == ["a-1", "b-1"]
    # C invited from the page, not yet accepted: the operator adds its evening all the same
    CircuitClub.objects.create(championship=g2, club=clubs["c"])
    call_command("championship", "add", "g2", "c-1", stdout=out)
    assert [e.slug for e in selectors.evenings(g2)] == ["a-1", "b-1", "c-1"]


def test_refusals_read_in_english_to_an_english_reader(clubs):
    """The circuit's sentences are translated (locale/en)."""
    with translation.override("en"), pytest.raises(ArbiterError, match="A circuit has at least two clubs"):
        services.create_circuit(slug="g", name="G", clubs=["a"])
    with translation.override("en"), pytest.raises(ArbiterError, match="No club «z»"):
        services.create_circuit(slug="g", name="G", clubs=["a", "z"])
