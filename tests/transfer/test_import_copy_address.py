"""A tournament's own export imported back on the same server
takes a free short address ("<slug>-copia", "<slug>-copia-2", …) when none was typed,
instead of being refused; a typed address that is taken is still refused, the typed values
kept; the command line alike unless ``--slug`` is given."""
from html import unescape

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from tournaments import transfer
from tournaments.models import AuditEntry, Tournament


def upload(client, data: bytes, **fields):
    return client.post(reverse("tournament_import"),
                       {"file": SimpleUploadedFile("torneo.json", data, "application/json"), **fields})


def test_own_export_imported_back_takes_prova_copia_then_prova_copia_2(arbiter_client, published):
    data = transfer.export_tournament(published.tournament)
    first = upload(arbiter_client, data)
    # the file's "prova" is taken: the first free of prova-copia, prova-copia-2, … (hand order)
    assert first.status_code == 302 and first["Location"] == reverse("tournament", args=["prova-copia"])
    said = [str(m) for m in get_messages(first.wsgi_request)]
    assert ("Torneo «Torneo di prova (copia)» importato con l'indirizzo breve «prova-copia»: «prova», quello "
            "del file, è già usato su questo server.") in said
    second = upload(arbiter_client, data)
    assert second["Location"] == reverse("tournament", args=["prova-copia-2"])
    assert set(Tournament.objects.values_list("slug", flat=True)) == {"prova", "prova-copia", "prova-copia-2"}
    entry = AuditEntry.objects.get(tournament__slug="prova-copia", action="tournament_imported")
    assert (entry.new["file_slug"], entry.new["slug"]) == ("prova", "prova-copia")


def test_a_typed_taken_address_is_still_refused_with_the_typed_values_kept(arbiter_client, published):
    data = transfer.export_tournament(published.tournament)
    before = Tournament.objects.count()
    resp = upload(arbiter_client, data, slug="prova", name="Coppa d'inverno")
    html = unescape(resp.content.decode())
    assert resp.status_code == 400 and Tournament.objects.count() == before
    assert 'value="prova"' in html and "value=\"Coppa d'inverno\"" in html
    assert "Esiste già un torneo con l'indirizzo breve «prova»: scrivine un altro" in html


def test_copy_slug_fits_the_80_characters_of_the_field(db, tournament):
    assert transfer.copy_slug("libero") == "libero"
    long = "x" * 80
    Tournament.objects.filter(pk=tournament.pk).update(slug=long)
    # "-copia" is 6 characters: 74 of the 80 are kept
    assert transfer.copy_slug(long) == "x" * 74 + "-copia"


def test_the_service_still_refuses_a_taken_slug_by_default(published):
    with pytest.raises(transfer.SlugTakenError):
        transfer.import_tournament(data=transfer.export_tournament(published.tournament))


def test_command_without_slug_takes_a_free_address_and_says_so(published, tmp_path, capsys):
    path = tmp_path / "prova.json"
    call_command("export_tournament", "prova", str(path))
    call_command("import_tournament", str(path))
    out = capsys.readouterr().out
    assert "L'indirizzo breve del file «prova» è già usato: il torneo ha l'indirizzo breve «prova-copia»." in out
    assert Tournament.objects.get(slug="prova-copia").name == "Torneo di prova (copia)"
    with pytest.raises(CommandError, match="«prova-copia»: scegline un altro con --slug"):
        call_command("import_tournament", str(path), "--slug", "prova-copia")
