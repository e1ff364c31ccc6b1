"""The championship's pages, PDF, XLSX, public page and projector (rules.md §17)."""
import datetime
import io

import pytest

from championships import services

from .helpers import correct_table_of_pair_one, pairs_evening

D = datetime.date
SERRA, SANTORO = ("Serra", "Anna", "402616"), ("Santoro", "Marta", "402617")
BIANCHI, VERDI = ("Bianchi", "Carla", "402618"), ("Verdi", "Dario", "402619")


@pytest.fixture
def champ(arbiter):
    pairs_evening(arbiter, "gio-1", D(2026, 11, 5), [(SERRA, SANTORO), (BIANCHI, VERDI)], {1: 20, 2: 0})
    pairs_evening(arbiter, "gio-2", D(2026, 11, 12), [(SERRA, BIANCHI), (SANTORO, VERDI)], {1: 0, 2: 20})
    return services.create_championship(by=arbiter, slug="sociale", name="Sociale", best=1,
                                        tournaments=["gio-1", "gio-2"])


def test_page_shows_totals_evenings_and_counted(arbiter_client, champ):
    body = arbiter_client.get("/campionati/sociale/").content.decode()
    # Serra: 2 (gio-1) and 1 (gio-2), best 1 → 2, the first counted, the second in brackets
    assert "Serra Anna" in body and "<b title=\"gio-1\">1: 2</b>" in body and "(2: 1)" in body
    assert "402616" in body  # the arbiter sees membership numbers


def test_another_arbiter_gets_404_and_the_public_page_is_off_until_switched_on(client, champ, django_user_model):
    other = django_user_model.objects.create_user(username="altro", password="x")
    client.force_login(other)
    assert client.get("/campionati/sociale/").status_code == 404
    assert client.get("/campionato/sociale/").status_code == 404
    assert client.get("/campionato/sociale/proiettore/").status_code == 404
    champ.public_enabled = champ.projector_enabled = True
    champ.save()
    body = client.get("/campionato/sociale/").content.decode()
    assert "Serra Anna" in body and "402616" not in body  # names and points only
    assert "Serra Anna" in client.get("/campionato/sociale/proiettore/").content.decode()


def test_pdf_and_xlsx(arbiter_client, champ):
    pdf = arbiter_client.get("/campionati/sociale/classifica.pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    from openpyxl import load_workbook

    xlsx = arbiter_client.get("/campionati/sociale/classifica.xlsx")
    ws = load_workbook(io.BytesIO(xlsx.content)).active
    rows = list(ws.values)
    assert rows[0][:7] == ("Posizione", "Pari merito", "Socio", "Tessera", "Punti", "Serate", "Contate")
    assert rows[0][7:] == ("gio-1", "gio-2")
    serra = next(r for r in rows if r[2] == "Serra Anna")
    # two pairs: 2 and 1 points. Serra 2, 1 → best 1: 2 (gio-1); Santoro 2, 2 and Verdi 1, 2 also
    # total 2, best 2, two evenings: all three share 1st
    assert serra[3:] == ("402616", 2, 2, "gio-1", 2, 1)
    assert serra[0] == 1 and serra[1] == "="


def test_create_add_remove_from_the_pages(arbiter_client, arbiter):
    pairs_evening(arbiter, "v1", D(2026, 11, 5), [(SERRA, SANTORO), (BIANCHI, VERDI)], {1: 20, 2: 0})
    pairs_evening(arbiter, "v2", D(2026, 11, 12), [(SERRA, BIANCHI), (SANTORO, VERDI)], {1: 0, 2: 20})
    r = arbiter_client.post("/campionati/", {"slug": "nuovo", "name": "Nuovo", "points": "table:5,3",
                                             "min_evenings": 1, "tournaments": ["v1"]})
    assert r.status_code == 302 and r["Location"] == "/campionati/nuovo/"
    bad = arbiter_client.post("/campionati/", {"slug": "x", "name": "X", "points": "podio", "min_evenings": 1})
    assert bad.status_code == 200 and "sconosciuta" in bad.content.decode()
    arbiter_client.post("/campionati/nuovo/aggiungi/", {"tournaments": ["v2"]})
    assert "v2" in arbiter_client.get("/campionati/nuovo/").content.decode()
    assert arbiter_client.get("/campionati/nuovo/togli/v2/").status_code == 200  # confirmation first
    arbiter_client.post("/campionati/nuovo/togli/v2/")
    from championships.models import Championship

    assert list(Championship.objects.get(slug="nuovo").tournaments.values_list("slug", flat=True)) == ["v1"]


def test_players_page_shows_the_season_with_names_places_and_points_only(client, champ):
    """A player's phone page shows the season: pair 1 of gio-2 (Serra–Bianchi) on its phone
    page. best 1: Serra 2 points (shared 1st with Santoro and Verdi), Bianchi 1 + 1 → 1 point,
    4th. Only names, places and points: never membership numbers, categories or expiry
    dates; nothing while the championship's public page is off. In English too."""
    from members.models import Member
    from tournaments.models import Tournament

    Member.objects.filter(membership_number__in=["402616", "402618"]).update(
        category="Dame", expires_on=D(2026, 12, 31))
    Tournament.objects.filter(slug="gio-2").update(public_enabled=True)
    assert "Sociale:" not in client.get("/p/gio-2/coppia/1/").content.decode()
    champ.public_enabled = True
    champ.save()
    for response in (client.get("/p/gio-2/coppia/1/"),
                     client.get("/p/gio-2/coppia/1/", HTTP_ACCEPT="application/json")):
        body = response.content.decode()
        assert response.status_code == 200
        assert "Sociale: Serra Anna, 1° posto ex aequo, 2 punti (2 serate)" in body
        assert "Sociale: Bianchi Carla, 4° posto, 1 punto (2 serate)" in body
        for secret in ("402616", "402618", "Dame", "31/12/2026", "2026-12-31"):
            assert secret not in body, secret
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body = client.get("/p/gio-2/coppia/1/").content.decode()
    assert "Sociale: Serra Anna, place 1 (shared), 2 points (2 evenings)" in body
    assert "Sociale: Bianchi Carla, place 4, 1 point (2 evenings)" in body


def test_players_page_etag_follows_the_season_sentence(client, champ, arbiter, settings):
    """A phone polls its page with the ETag it has: switching the championship's public page
    on gives a new tag and the sentence, a correction of another evening (gio-1: Serra's pair
    from 1st to 2nd, so Serra 1 + 1 → 1 point, 4th behind Santoro, Bianchi and Verdi with 2)
    a new tag and the new place, switching it off a new tag without the
    sentence; in between, polls get 304. The tag is read afresh at each request here."""
    from tournaments.models import Tournament

    settings.ARBITRO_PLAYER_TAG_SECONDS = 0
    Tournament.objects.filter(slug="gio-2").update(public_enabled=True)
    url = "/p/gio-2/coppia/1/"

    def poll(etag):
        return client.get(url, HTTP_IF_NONE_MATCH=etag)

    def switch(on: bool):
        services.update_championship(championship=champ, by=arbiter, name="Sociale", points="field", best=1,
                                     min_evenings=1, public_enabled=on, projector_enabled=False)

    off = client.get(url)["ETag"]
    assert poll(off).status_code == 304
    switch(True)
    answer = poll(off)
    assert answer.status_code == 200 and answer["ETag"] != off
    assert "Sociale: Serra Anna, 1° posto ex aequo, 2 punti (2 serate)" in answer.content.decode()
    on = answer["ETag"]
    assert poll(on).status_code == 304
    correct_table_of_pair_one(arbiter, Tournament.objects.get(slug="gio-1"), {1: 0, 2: 20})
    answer = poll(on)
    assert answer.status_code == 200 and answer["ETag"] not in (on, off)
    assert "Sociale: Serra Anna, 4° posto, 1 punto (2 serate)" in answer.content.decode()
    corrected = answer["ETag"]
    switch(False)
    answer = poll(corrected)
    assert answer.status_code == 200 and answer["ETag"] not in (on, corrected)
    assert "Sociale:" not in answer.content.decode()


def test_switches_ticked_on_the_new_championship_form_are_saved(arbiter_client, arbiter, client):
    """«Pagina pubblica attiva» and «Vista proiettore attiva» ticked when creating: the public
    page and the projector answer at once (rules.md §17), without saving the settings again."""
    pairs_evening(arbiter, "v1", D(2026, 11, 5), [(SERRA, SANTORO), (BIANCHI, VERDI)], {1: 20, 2: 0})
    r = arbiter_client.post("/campionati/", {"slug": "aperto", "name": "Aperto", "points": "field",
                                             "min_evenings": 1, "public_enabled": "on",
                                             "projector_enabled": "on", "tournaments": ["v1"]})
    assert r.status_code == 302
    from championships.models import Championship

    c = Championship.objects.get(slug="aperto")
    assert c.public_enabled and c.projector_enabled
    assert "Serra Anna" in client.get("/campionato/aperto/").content.decode()
    assert client.get("/campionato/aperto/proiettore/").status_code == 200
    r = arbiter_client.post("/campionati/", {"slug": "chiuso", "name": "Chiuso", "points": "field",
                                             "min_evenings": 1, "tournaments": ["v1"]})
    c = Championship.objects.get(slug="chiuso")
    assert not c.public_enabled and not c.projector_enabled  # unticked: off
    assert client.get("/campionato/chiuso/").status_code == 404


def test_adding_a_tournament_does_not_tell_whether_its_address_exists(arbiter_client, arbiter, django_user_model):
    """A slug that exists but is another arbiter's and a slug that exists nowhere get the same
    sentence: the page must not reveal which addresses are taken on the server."""
    from championships.models import Championship
    from tournaments import services as t_services

    other = django_user_model.objects.create_user(username="altro", password="x")
    t_services.create_tournament(by=other, name="Altrui", slug="altrui", date=D(2026, 11, 5), plan="M",
                                 hands_per_round=4, vp_scale="vp20-4h")
    pairs_evening(arbiter, "v1", D(2026, 11, 5), [(SERRA, SANTORO), (BIANCHI, VERDI)], {1: 20, 2: 0})
    services.create_championship(by=arbiter, slug="mio", name="Mio", tournaments=["v1"])

    def refusal(slug):
        r = arbiter_client.post("/campionati/mio/aggiungi/", {"tournaments": [slug]}, follow=True)
        return [str(m) for m in r.context["messages"]]

    taken, missing = refusal("altrui"), refusal("nessuno-ha-questo")
    assert len(taken) == 1 and taken == [missing[0].replace("nessuno-ha-questo", "altrui")]
    assert list(Championship.objects.get(slug="mio").tournaments.values_list("slug", flat=True)) == ["v1"]
    # the same at creation
    r = arbiter_client.post("/campionati/", {"slug": "altro", "name": "Altro", "points": "field",
                                             "min_evenings": 1, "tournaments": ["altrui"]})
    r2 = arbiter_client.post("/campionati/", {"slug": "altro", "name": "Altro", "points": "field",
                                              "min_evenings": 1, "tournaments": ["nessuno-ha-questo"]})
    a = [str(m) for m in r.context["messages"]]
    b = [str(m) for m in r2.context["messages"]]
    assert a == [m.replace("nessuno-ha-questo", "altrui") for m in b]
