"""The registry's pages, the proposals endpoint, and personal data kept from public pages."""
import datetime
import json

import pytest
from django.urls import reverse

from members.models import Member
from tournaments import services
from tournaments.models import Tournament

from .helpers import LIST_CSV, import_list, pair, upload

pytestmark = pytest.mark.django_db


def test_the_registry_needs_a_logged_in_arbiter(client):
    for name, args in (("members:registry", []), ("members:search", []), ("members:import", []),
                       ("members:add", [])):
        resp = client.get(reverse(name, args=args))
        assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]
    member = Member.objects.create(last_name="Serra", first_name="Anna", membership_number="402616")
    for name in ("members:detail", "members:export", "members:erase", "members:merge"):
        assert client.get(reverse(name, args=[member.pk])).status_code == 302


def test_search_by_name_or_number_and_the_json_proposals(arbiter_client):
    import_list()
    body = arbiter_client.get(reverse("members:registry"), {"q": "d'ang"}).content.decode()
    assert "Nicolò" in body and "Serra" not in body
    data = arbiter_client.get(reverse("members:search"), {"q": "40261"}).json()
    # a number's prefix finds the three, in number order
    assert [m["membership_number"] for m in data["members"]] == ["402616", "402617", "402618"]
    data = arbiter_client.get(reverse("members:search"), {"q": "D'ANG ni"}).json()
    assert [m["last_name"] for m in data["members"]] == ["D'Angelo"]
    data = arbiter_client.get(reverse("members:search"), {"q": "s"}).json()
    assert data == {"query": "s", "members": []}  # one character: nothing yet
    data = arbiter_client.get(reverse("members:search"), {"q": "sa"}).json()
    assert [m["last_name"] for m in data["members"]] == ["Santoro"]  # the surname's start, not "Serra"
    data = arbiter_client.get(reverse("members:search"), {"q": "402618"}).json()
    assert data["members"] == [{"id": Member.objects.get(membership_number="402618").pk,
                                "membership_number": "402618", "last_name": "Santoro", "first_name": "Marta",
                                "club": "Circolo Aurora"}]
    assert arbiter_client.get(reverse("members:search"), {"q": "s"}).json() == {"query": "s", "members": []}


def test_add_edit_and_see_the_evenings(arbiter_client, arbiter):
    resp = arbiter_client.post(reverse("members:add"), {"last_name": "Vitale", "first_name": "Elena",
                                                        "membership_number": "77", "expires_on": "2026-12-31"})
    member = Member.objects.get(membership_number="77")
    assert resp.status_code == 302 and member.source == "manual"
    resp = arbiter_client.post(reverse("members:add"), {"last_name": "Altro", "first_name": "X", "membership_number": "77"})
    assert "La tessera 77 è già di un altro socio." in resp.content.decode()
    arbiter_client.post(reverse("members:detail", args=[member.pk]),
                        {"last_name": "Vitale", "first_name": "Elena", "membership_number": "77", "category": "Dame"})
    member.refresh_from_db()
    assert member.category == "Dame"
    t = services.create_tournament(by=arbiter, name="Giovedì 3", slug="gio-3", date=datetime.date(2026, 12, 3))
    services.add_pair(tournament=t, by=arbiter, players=pair(("Vitale", "Elena", "77"), ("Neri", "Ada")))
    body = arbiter_client.get(reverse("members:detail", args=[member.pk])).content.decode()
    assert "Giovedì 3" in body and "03/12/2026" in body


def test_list_import_page_errors_and_success(arbiter_client):
    resp = arbiter_client.post(reverse("members:import"), {"file": upload("tessera,cognome,nome\n,Rossi,Mario\n")})
    assert "Riga 2: manca la tessera." in resp.content.decode() and Member.objects.count() == 0
    resp = arbiter_client.post(reverse("members:import"), {"file": upload(LIST_CSV)}, follow=True)
    assert "Soci importati: 3 nuovi, 0 aggiornati." in resp.content.decode()


def test_merge_and_erase_go_through_a_confirmation(arbiter_client, arbiter):
    a = Member.objects.create(last_name="Rossi", first_name="Mario", membership_number="1")
    b = Member.objects.create(last_name="Rosi", first_name="Mario")
    page = arbiter_client.get(reverse("members:merge", args=[a.pk]), {"other": f"#{b.pk}"}).content.decode()
    assert "Rosi Mario" in page and Member.objects.filter(pk=b.pk).exists()
    arbiter_client.post(reverse("members:merge", args=[a.pk]), {"other": f"#{b.pk}", "confirm": "1"})
    assert not Member.objects.filter(pk=b.pk).exists()
    assert "Cancellare Rossi Mario?" in arbiter_client.get(reverse("members:erase", args=[a.pk])).content.decode()
    arbiter_client.post(reverse("members:erase", args=[a.pk]))
    a.refresh_from_db()
    assert a.display_name == f"Socio cancellato #{a.pk}"
    data = json.loads(arbiter_client.get(reverse("members:export", args=[a.pk])).content)
    assert data["member"]["last_name"] == "Socio cancellato"


def test_flags_on_the_preview_and_the_pairs_page(arbiter_client, tournament):
    import_list()
    reg = ("cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2\n"
           "Serra,Anna,402616,Santoro,Marta,402618\n")
    body = arbiter_client.post(reverse("import", args=[tournament.slug]), {"file": upload(reg)}).content.decode()
    assert "Riga 2: tessera 402618 scaduta" in body
    arbiter_client.post(reverse("import", args=[tournament.slug]), {"confirm": "1"})
    body = arbiter_client.get(reverse("pairs", args=[tournament.slug])).content.decode()
    assert "Santoro Marta: tessera 402618 scaduta" in body
    Tournament.objects.filter(pk=tournament.pk).update(membership_check="ignore")
    assert "402618 scaduta" not in arbiter_client.get(reverse("pairs", args=[tournament.slug])).content.decode()


def test_public_pages_never_show_numbers_categories_or_expiry(arbiter_client, client, tournament, arbiter):
    import_list()
    services.add_pair(tournament=tournament, by=arbiter,
                      players=pair(("Serra", "Anna", "402616"), ("Santoro", "Marta", "402618")))
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Rossi", "Mario", "5"), ("Neri", "Ada", "6")))
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Bruno", "Elia", "7"), ("Verdi", "Ugo", "8")))
    Tournament.objects.filter(pk=tournament.pk).update(public_enabled=True, projector_enabled=True)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    for url in (f"/p/{tournament.slug}/", f"/p/{tournament.slug}/proiettore/"):
        resp = client.get(url)
        assert resp.status_code == 200, url
        body = resp.content.decode()
        assert "Serra" in body or url.endswith("proiettore/")
        for secret in ("402616", "402618", "Dame", "Seniores", "31/12/2026", "2026-12-31"):
            assert secret not in body, (url, secret)


def test_refuse_mode_preview_warns_and_the_confirmation_imports_nothing(arbiter_client, tournament):
    import_list()
    Tournament.objects.filter(pk=tournament.pk).update(membership_check="refuse")
    reg = "cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2\nRossi,Mario,999,Neri,Ada,\n"
    body = arbiter_client.post(reverse("import", args=[tournament.slug]), {"file": upload(reg)}).content.decode()
    assert "Riga 2: tessera 999 sconosciuta" in body and "le rifiuta" in body
    body = arbiter_client.post(reverse("import", args=[tournament.slug]), {"confirm": "1"}, follow=True).content.decode()
    assert "Iscrizione rifiutata: tessera 999 sconosciuta" in body
    assert not tournament.pairs.exists()


def test_the_registry_marks_expired_memberships_with_their_date(arbiter_client):
    """rules.md §16: a membership expired when its date is before today; expiring today is
    still valid, and no date never expires."""
    from django.utils import timezone

    today = timezone.localdate()
    yesterday = today - datetime.timedelta(days=1)
    Member.objects.create(last_name="Scaduti", first_name="Ieri", membership_number="900001", expires_on=yesterday)
    Member.objects.create(last_name="Scaduti", first_name="Oggi", membership_number="900002", expires_on=today)
    Member.objects.create(last_name="Scaduti", first_name="Mai", membership_number="900003")
    page = arbiter_client.get(reverse("members:registry"), {"q": "Scaduti"}).content.decode()
    rows = {row.split("</td>")[0].rsplit(">", 1)[-1]: row for row in page.split("<tr>")[2:]}
    assert f"scaduta il {yesterday:%d/%m/%Y}" in rows["900001"] and 'class="badge expired"' in rows["900001"]
    assert "scaduta" not in rows["900002"] and f"{today:%d/%m/%Y}" in rows["900002"]
    assert "scaduta" not in rows["900003"]


def test_a_members_header_says_where_he_came_from_once(arbiter_client):
    from django.utils import timezone

    listed = Member.objects.create(last_name="Serra", first_name="Anna", membership_number="900010",
                                   source=Member.Source.LIST, listed=True,
                                   expires_on=timezone.localdate() - datetime.timedelta(days=3))
    page = arbiter_client.get(reverse("members:detail", args=[listed.pk])).content.decode()
    header = page.split('id="member-origin">', 1)[1].split("</p>", 1)[0]
    assert header.count("elenco importato") == 1
    assert header.startswith(f"#{listed.pk} · elenco importato")
    assert f"scaduta il {listed.expires_on:%d/%m/%Y}" in header
    # registered at an evening, later found in an imported list: both facts, each once
    later = Member.objects.create(last_name="Rossi", first_name="Luca", membership_number="900011",
                                  source=Member.Source.REGISTRATION, listed=True)
    header = arbiter_client.get(reverse("members:detail", args=[later.pk])).content.decode()
    header = header.split('id="member-origin">', 1)[1].split("</p>", 1)[0]
    assert "iscrizione a un torneo" in header and header.count("elenco importato") == 1
    assert "scaduta" not in header


def test_the_registry_says_where_a_member_came_from_as_his_page_does(arbiter_client):
    """A member registered at an evening and later found in an imported list (the list the
    membership checks read, rules.md §16): the registry's «Origine» says both, as his header."""
    Member.objects.create(last_name="Origini", first_name="Sera", membership_number="900020",
                          source=Member.Source.REGISTRATION, listed=True)
    Member.objects.create(last_name="Origini", first_name="Solo", membership_number="900021",
                          source=Member.Source.REGISTRATION)
    Member.objects.create(last_name="Origini", first_name="Lista", membership_number="900022",
                          source=Member.Source.LIST, listed=True)
    page = arbiter_client.get(reverse("members:registry"), {"q": "Origini"}).content.decode()
    rows = {row.split("</td>")[0].rsplit(">", 1)[-1]: row.split("</tr>")[0] for row in page.split("<tr>")[2:]}
    assert rows["900020"].endswith(">iscrizione a un torneo · poi trovato in un elenco importato</td>")
    assert rows["900021"].endswith(">iscrizione a un torneo</td>")
    assert rows["900022"].endswith(">elenco importato</td>")
