"""The arbiter's export / import pages."""
import json
from html import unescape

import pytest
from django.urls import reverse

from tournaments import transfer
from tournaments.models import AuditEntry, Table, Tournament


@pytest.fixture
def stranger_client(client, django_user_model, db):
    """Another arbiter, who does not direct «prova»."""
    other = django_user_model.objects.create_user(username="estraneo", password="segreta-456")
    client.force_login(other)
    return client


def test_download_needs_login(client, published):
    for name in ("tournament_export", "tournament_export_file"):
        response = client.get(reverse(name, args=["prova"]))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_download_needs_ownership(stranger_client, published):
    assert stranger_client.get(reverse("tournament_export_file", args=["prova"])).status_code == 404
    assert stranger_client.get(reverse("tournament_export", args=["prova"])).status_code == 404


def test_the_arbiter_downloads_the_file_and_is_told_it_is_secret(arbiter_client, published):
    page = arbiter_client.get(reverse("tournament_export", args=["prova"]))
    html = page.content.decode()
    assert page.status_code == 200 and 'id="export-secret"' in html and "SEGRETO" in html
    assert reverse("tournament_export_file", args=["prova"]) in html

    response = arbiter_client.get(reverse("tournament_export_file", args=["prova"]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="prova.json"'
    assert response["Cache-Control"] == "no-store"
    assert response.content == transfer.export_tournament(published.tournament)


def test_links_on_the_tournament_page_and_the_tournaments_list(arbiter_client, tournament):
    assert reverse("tournament_export", args=["prova"]) in arbiter_client.get(
        reverse("tournament", args=["prova"])).content.decode()
    home = arbiter_client.get(reverse("home")).content.decode()
    assert reverse("tournament_import") in home
    page = arbiter_client.get(reverse("tournament_import")).content.decode()
    assert reverse("tournament_export", args=["prova"]) in page   # each tournament's export page


def test_upload_needs_login(client, db):
    response = client.get(reverse("tournament_import"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def upload(client, data: bytes, slug=""):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(reverse("tournament_import"),
                       {"file": SimpleUploadedFile("torneo.json", data, "application/json"), "slug": slug})


def test_upload_refusals_are_shown_and_nothing_is_created(arbiter_client, published):
    data = transfer.export_tournament(published.tournament)
    before = (Tournament.objects.count(), Table.objects.count(), AuditEntry.objects.count())

    taken = upload(arbiter_client, data, slug="prova")      # a typed address already used
    assert taken.status_code == 400 and 'value="prova"' in taken.content.decode()
    # the page names its own field, not the command line's --slug (polish – wording)
    assert ("Esiste già un torneo con l'indirizzo breve «prova»: scrivine un altro nel campo «Nuovo indirizzo "
            "breve»") in unescape(taken.content.decode()) and "--slug" not in taken.content.decode()

    doc = json.loads(data)
    doc["version"] = 7
    doc["pairs"][0]["number"] = "uno"
    unknown = upload(arbiter_client, json.dumps(doc).encode(), slug="nuova")
    assert unknown.status_code == 400 and "Versione del file sconosciuta (7)" in unknown.content.decode()
    assert 'value="nuova"' in unknown.content.decode()                       # the typed slug is kept

    doc["version"] = transfer.VERSION
    invalid = upload(arbiter_client, json.dumps(doc).encode(), slug="nuova")
    html = invalid.content.decode()
    assert invalid.status_code == 400 and 'id="import-errors"' in html and "pairs[0].number" in html

    garbage = upload(arbiter_client, b"\x89PNG...", slug="nuova")
    assert garbage.status_code == 400 and "non è un JSON leggibile" in garbage.content.decode()
    assert (Tournament.objects.count(), Table.objects.count(), AuditEntry.objects.count()) == before


def test_upload_with_a_new_slug_creates_the_tournament_owned_by_the_uploader(client, published, django_user_model):
    data = transfer.export_tournament(published.tournament)
    other = django_user_model.objects.create_user(username="server", password="segreta-789")
    client.force_login(other)

    response = upload(client, data, slug="prova-server")

    assert response.status_code == 302 and response["Location"] == reverse("tournament", args=["prova-server"])
    copy = Tournament.objects.get(slug="prova-server")
    # the uploader is the owner (may delete it) and the only arbiter; the file's "arbitro"
    # is neither, and no account came from the file
    assert list(copy.arbiters.all()) == [other] and copy.created_by == other
    assert sorted(django_user_model.objects.values_list("username", flat=True)) == ["arbitro", "server"]
    page = client.get(response["Location"])
    html = page.content.decode()
    # the same name is already a tournament's here: the copy is told apart (polish – wording)
    assert "Torneo «Torneo di prova (copia)» importato." in html and "link nuovi" in html
    entry = AuditEntry.objects.get(tournament=copy, action="tournament_imported")
    assert entry.user == other and entry.reason == "importato da file (versione 2)"
