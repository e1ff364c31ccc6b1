"""Import wording (polish – wording): one term for the slug, "Indirizzo breve", with the
real address in its help; a taken address on the page asks for the page's field, not the
command line's ``--slug``; an imported copy whose name is already used here is told apart
("… (copia)") unless a name is given; a copy into a fresh database keeps its name (and its
bytes)."""
import json
from html import unescape

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from tests.i18n.conftest import english_catalogue, italian_to_english  # noqa: F401 (fixtures)
from tests.i18n.helpers import leftovers
from tests.transfer.conftest import empty_database, without_accounts
from tournaments import transfer
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Tournament


def upload(client, data: bytes, **fields):
    return client.post(reverse("tournament_import"),
                       {"file": SimpleUploadedFile("torneo.json", data, "application/json"), **fields})


def test_import_page_calls_the_slug_indirizzo_breve_with_the_real_address(arbiter_client):
    page = unescape(arbiter_client.get(reverse("tournament_import")).content.decode())
    assert "Nuovo indirizzo breve" in page and "sigla" not in page.lower()
    assert "…/tornei/indirizzo-breve/" in page and "/t/" not in page
    assert 'name="name"' in page and "«(copia)»" in page


def test_create_form_help_shows_the_arbiter_address(arbiter_client):
    page = unescape(arbiter_client.get(reverse("tournament_create")).content.decode())
    # the arbiter's pages live under /tornei/<slug>/ (tournaments/urls.py), reversed
    assert reverse("tournament", args=["indirizzo-breve"]) == "/tornei/indirizzo-breve/"
    assert "Compare negli indirizzi del torneo (…/tornei/indirizzo-breve/)." in page
    assert "…/t/indirizzo-breve/" not in page


def test_create_form_refuses_a_taken_address_by_its_name(arbiter_client, tournament):
    resp = arbiter_client.post(reverse("tournament_create"), {
        "name": "Altra", "slug": "prova", "date": "2026-12-01", "kind": "pairs", "plan": "MMMD",
        "hands_per_round": "4", "vp_scale": "vp20-4h", "mitchell_step": "1", "first_round": "number",
        "rematch_window": "all", "bye_percent": "70", "bye_mp": "zero", "tiebreaks": "vp,mp_difference",
        "rule_set": "fibur"})
    page = unescape(resp.content.decode())
    assert resp.status_code == 200 and not Tournament.objects.filter(name="Altra").exists()
    assert "Torneo con questo Indirizzo breve esiste già." in page and "sigla" not in page.lower()


def test_the_service_names_the_field_neutrally_and_the_page_its_field(arbiter_client, published):
    data = transfer.export_tournament(published.tournament)
    with pytest.raises(transfer.SlugTakenError) as caught:
        transfer.import_tournament(data=data)
    assert caught.value.slug == "prova" and "--slug" not in caught.value.message
    with pytest.raises(ArbiterError, match="Indirizzo breve «Non valido!» non valido"):
        transfer.import_tournament(data=data, slug="Non valido!")
    resp = upload(arbiter_client, data, slug="prova")    # typed and taken (without one: "prova-copia")
    page = unescape(resp.content.decode())
    assert resp.status_code == 400
    assert ("Esiste già un torneo con l'indirizzo breve «prova»: scrivine un altro nel campo «Nuovo indirizzo "
            "breve» e importa di nuovo il file. Nulla è stato importato.") in page
    assert "--slug" not in page and "Scrivi un indirizzo breve non ancora usato." in page


def test_a_copy_with_a_name_already_used_gets_copia_and_then_copia_2(arbiter_client, published):
    data = transfer.export_tournament(published.tournament)
    assert upload(arbiter_client, data, slug="copia-1").status_code == 302
    assert upload(arbiter_client, data, slug="copia-2").status_code == 302
    names = dict(Tournament.objects.values_list("slug", "name"))
    assert names == {"prova": "Torneo di prova", "copia-1": "Torneo di prova (copia)",
                     "copia-2": "Torneo di prova (copia 2)"}
    entry = AuditEntry.objects.get(tournament__slug="copia-1", action="tournament_imported")
    assert (entry.new["file_name"], entry.new["name"]) == ("Torneo di prova", "Torneo di prova (copia)")
    # the tournaments list shows no two identical rows
    home = arbiter_client.get(reverse("home")).content.decode()
    assert home.count("Torneo di prova (copia)<") == 1


def test_a_typed_name_is_used_as_is(arbiter_client, published):
    data = transfer.export_tournament(published.tournament)
    resp = upload(arbiter_client, data, slug="server", name="  Coppa d'inverno  ")
    assert resp.status_code == 302
    assert Tournament.objects.get(slug="server").name == "Coppa d'inverno"
    html = upload(arbiter_client, data, slug="altro", name="x" * 201).content.decode()
    assert "altro" not in list(Tournament.objects.values_list("slug", flat=True))
    assert "200" in html   # the form's limit of the field


def test_copy_name_is_cut_to_the_field(db, tournament):
    long = "T" * 200
    Tournament.objects.filter(pk=tournament.pk).update(name=long)
    assert transfer.copy_name("Nuovo") == "Nuovo"
    copy = transfer.copy_name(long)
    # " (copia)" is 8 characters: 192 of the name's 200 are kept
    assert len(copy) == 200 and copy == "T" * 192 + " (copia)"


def test_into_a_fresh_database_the_name_and_the_bytes_stay(arbiter_client, published, django_user_model):
    data = transfer.export_tournament(published.tournament)
    empty_database()
    # the file's arbiter's username, on the new server: the uploader owns the copy, and no
    # other account of the file is applied (audit entries and penalties keep no user)
    other = django_user_model.objects.create_user(username="arbitro", password="segreta-789")
    arbiter_client.force_login(other)
    assert upload(arbiter_client, data).status_code == 302
    copy = Tournament.objects.get(slug="prova")
    assert copy.name == "Torneo di prova"
    expected = without_accounts(json.loads(data))
    expected["tournament"]["created_by"], expected["tournament"]["arbiters"] = "arbitro", ["arbitro"]
    assert transfer.export_tournament(copy) == transfer.dumps(expected)


def test_command_line_name_option_and_copy_name(published, tmp_path):
    path = tmp_path / "prova.json"
    call_command("export_tournament", "prova", str(path))
    call_command("import_tournament", str(path), "--slug", "a")
    call_command("import_tournament", str(path), "--slug", "b", "--name", "Finale di Natale")
    names = dict(Tournament.objects.values_list("slug", "name"))
    assert names["a"] == "Torneo di prova (copia)" and names["b"] == "Finale di Natale"


def test_import_page_and_refusal_in_english(client, arbiter, published, italian_to_english):  # noqa: F811
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(arbiter)
    html = unescape(client.get(reverse("tournament_import")).content.decode())
    assert "New short address" in html and "…/tornei/short-address/" in html
    assert leftovers(html, italian_to_english) == []
    html = unescape(upload(client, transfer.export_tournament(published.tournament), slug="prova").content.decode())
    assert "A tournament with the short address «prova» already exists: type another one in the «New short " \
           "address» field" in html


def test_captains_pin_help_shows_the_real_pin_address(client, db, italian_to_english):  # noqa: F811
    html = unescape(client.get(reverse("captain_pin_help")).content.decode())
    assert "(…/t/indirizzo-breve/pin/)" in html and "sigla" not in html
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = unescape(client.get(reverse("captain_pin_help")).content.decode())
    assert "(…/t/short-address/pin/)" in html and leftovers(html, italian_to_english) == []
