"""A circuit's pages (rules.md §20): the owner invites, the invited club's manager accepts,
adds his club's evening and leaves; the standings page, PDF, XLSX, public page and projector
show each member's club."""
import datetime
import io

import pytest
from django.template.loader import render_to_string
from openpyxl import load_workbook

from championships import documents, selectors, services
from championships.models import Championship
from clubs.models import Club, ClubRole

from .helpers import club_evening

D = datetime.date


@pytest.fixture
def two_clubs(db, django_user_model):
    """Clubs A and B, each with an arbiter and a manager; a-1 (A, 5 Nov): Serra–Santoro VP 20,
    Bianchi–Verdi 15 → field points 2, 1; b-1 (B, 12 Nov): Serra (same tessera, B's member)–
    Conti 20, Nuovo (no tessera)–Bruni 15 → 2, 1."""
    people = {}
    for slug in ("a", "b"):
        club = Club.objects.create(slug=slug, name=f"Circolo {slug.upper()}")
        for name, role in ((f"arb-{slug}", ClubRole.Role.ARBITER), (f"boss-{slug}", ClubRole.Role.MANAGER)):
            people[name] = django_user_model.objects.create_user(username=name, password="segreta-123")
            ClubRole.objects.create(user=people[name], club=club, role=role)
    serra = ("Serra", "Anna", "402616")
    club_evening(people["arb-a"], Club.objects.get(slug="a"), "a-1", D(2026, 11, 5), [
        (serra, ("Santoro", "Marta", "402617")), (("Bianchi", "Carla", "402618"), ("Verdi", "Dario", "402619"))])
    club_evening(people["arb-b"], Club.objects.get(slug="b"), "b-1", D(2026, 11, 12), [
        (serra, ("Conti", "Ugo", "502001")), (("Nuovo", "Luca", ""), ("Bruni", "Sara", "502002"))])
    return people


def test_invite_accept_add_show_the_club_and_leave(client, two_clubs):
    """Serra: 2 (a-1) + 2 (b-1) = 4, 1st, shown with B (latest counted evening b-1);
    Santoro 2 (A), Conti 2 (B): 2=; Bianchi, Verdi, Nuovo, Bruni 1: 4=."""
    boss_a, boss_b = two_clubs["boss-a"], two_clubs["boss-b"]
    services.create_championship(by=boss_a, slug="giro", name="Giro", club=Club.objects.get(slug="a"))
    client.force_login(boss_b)
    assert client.get("/campionati/giro/").status_code == 404  # not invited yet
    client.force_login(boss_a)
    client.post("/campionati/giro/circoli/invita/", {"club": "b"})
    client.post("/campionati/giro/aggiungi/", {"tournaments": ["a-1"]})

    client.force_login(boss_b)
    listing = client.get("/campionati/").content.decode()
    assert "Giro" in listing and "circuito" in listing and 'class="pending-invitation"' in listing
    body = client.get("/campionati/giro/").content.decode()
    assert "Accetta l'invito" in body and 'id="championship-settings"' not in body
    client.post("/campionati/giro/circoli/b/accetta/", {})
    client.post("/campionati/giro/aggiungi/", {"tournaments": ["b-1"]})
    assert 'class="pending-invitation"' not in client.get("/campionati/").content.decode()
    client.post("/campionati/giro/", {"name": "Rinominato", "points": "vp", "min_evenings": 1})
    c = Championship.objects.get(slug="giro")
    assert (c.name, c.points_rule) == ("Giro", "field")  # only the owner changes the settings
    assert [e.slug for e in selectors.evenings(c)] == ["a-1", "b-1"]

    body = client.get("/campionati/giro/").content.decode()
    assert 'id="circuit-note"' in body and "<th>Circolo</th>" in body
    serra_row = body[body.index("Serra Anna"):][:200]
    assert '<td class="club">Circolo B</td>' in serra_row
    rows = selectors.standings(c).rows
    assert [(r.position_label, r.name, r.club_slug, r.total_text) for r in rows[:3]] == [
        ("1", "Serra Anna", "b", "4"), ("2=", "Conti Ugo", "b", "2"), ("2=", "Santoro Marta", "a", "2")]

    ws = load_workbook(io.BytesIO(client.get("/campionati/giro/classifica.xlsx").content)).active
    values = list(ws.values)
    assert values[0][:8] == ("Posizione", "Pari merito", "Socio", "Tessera", "Circolo", "Punti", "Serate", "Contate")
    assert values[1][:8] == (1, None, "Serra Anna", "402616", "b", 4, 2, "a-1, b-1")
    pdf = client.get("/campionati/giro/classifica.pdf")
    assert pdf.content.startswith(b"%PDF")
    printed = render_to_string("championships/print_standings.html", documents.context(selectors.standings(c)))
    assert "<td>Serra Anna</td><td>Circolo B</td>" in printed

    c.public_enabled = c.projector_enabled = True
    c.save()
    public = client.get("/campionato/giro/").content.decode()
    assert '<td class="club">Circolo B</td>' in public and "402616" not in public
    assert "<td>Serra Anna</td><td>Circolo B</td>" in client.get("/campionato/giro/proiettore/").content.decode()

    assert client.get("/campionati/giro/circoli/b/lascia/").status_code == 200
    response = client.post("/campionati/giro/circoli/b/lascia/", {})
    assert response.status_code == 302 and response["Location"] == "/campionati/"
    assert [e.slug for e in selectors.evenings(c)] == ["a-1"]
    assert client.get("/campionati/giro/").status_code == 404


def test_one_club_shows_no_circuit_box(arbiter_client, arbiter):
    """With one club on the server there is nobody to invite: no circuit box, no club column."""
    services.create_championship(by=arbiter, slug="sociale", name="Sociale")
    body = arbiter_client.get("/campionati/sociale/").content.decode()
    assert 'id="circuit"' not in body and "<th>Circolo</th>" not in body


def test_who_may_do_what_in_a_circuit(client, two_clubs, django_user_model):
    """B's manager may not take out A's evening nor invite; B's plain arbiter and a stranger do
    not see the circuit at all (404); a forged accept by A's manager for B is refused with a
    sentence, nothing changed."""
    boss_a, boss_b = two_clubs["boss-a"], two_clubs["boss-b"]
    c = services.create_circuit(slug="giro", name="Giro", clubs=["a", "b"], owner=boss_a, tournaments=["a-1", "b-1"])
    client.force_login(boss_b)
    assert client.get("/campionati/giro/togli/a-1/").status_code == 404
    assert client.post("/campionati/giro/togli/a-1/").status_code == 404
    response = client.post("/campionati/giro/circoli/invita/", {"club": "a"}, follow=True)
    assert "Solo il proprietario del campionato invita altri circoli." in response.content.decode()
    assert [e.slug for e in selectors.evenings(c)] == ["a-1", "b-1"]
    for outsider in (two_clubs["arb-b"], django_user_model.objects.create_user(username="x", password="y")):
        client.force_login(outsider)
        assert client.get("/campionati/giro/").status_code == 404
        assert client.post("/campionati/giro/circoli/b/lascia/").status_code == 404
    client.force_login(boss_a)
    response = client.post("/campionati/giro/circoli/b/accetta/", {}, follow=True)
    assert "Solo il responsabile del circolo accetta l&#x27;invito." in response.content.decode()
    # the owner takes B's evening out: he manages the circuit
    assert client.post("/campionati/giro/togli/b-1/").status_code == 302
    assert [e.slug for e in selectors.evenings(c)] == ["a-1"]
