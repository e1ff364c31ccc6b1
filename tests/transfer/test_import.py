"""Import refusals and mappings, on a small tournament: 5 pairs, round 1
published (tests/conftest.py ``published``: 1 v 3, 2 v 4, pair 5 rests)."""
import json
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.transfer.conftest import empty_database, without_accounts
from tournaments import services, transfer
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, CustomScale, Penalty, Table, Tournament


@pytest.fixture
def played(published, arbiter):
    """``published`` with table 1's sheet entered (4 hands of 300–100) and a 1 VP penalty."""
    table = published.tables.get(number=1)
    services.save_score_sheet(table=table, hands=[services.HandInput(ns=300, ew=100)] * 4, by=arbiter)
    pair = published.tournament.pairs.get(number=2)
    services.add_penalty(pair=pair, vp=Decimal("1"), reason="ritardo", by=arbiter)
    return published.tournament


def doc_of(tournament) -> dict:
    return json.loads(transfer.export_tournament(tournament))


def counts():
    return Tournament.objects.count(), Table.objects.count(), AuditEntry.objects.count()


def test_unknown_version_is_refused_and_nothing_is_created(played):
    doc = doc_of(played)
    doc["version"] = 3
    before = counts()
    with pytest.raises(ArbiterError, match=r"Versione del file sconosciuta \(3\).*versioni 1, 2"):
        transfer.import_tournament(data=json.dumps(doc).encode(), slug="nuova")
    assert counts() == before


def test_a_file_that_is_not_a_tournament_is_refused(db):
    with pytest.raises(ArbiterError, match="non è un JSON leggibile"):
        transfer.import_tournament(data=b"coppia,cognome_1\n1,Rossi")
    with pytest.raises(ArbiterError, match="non è un torneo di Arbitro"):
        transfer.import_tournament(data=b'{"format": "altro", "version": 1}')


def test_existing_slug_is_refused_and_a_new_slug_is_accepted(played):
    data = transfer.export_tournament(played)
    before = counts()
    with pytest.raises(transfer.SlugTakenError, match="Esiste già un torneo con l'indirizzo breve «prova»"):
        transfer.import_tournament(data=data)
    assert counts() == before
    result = transfer.import_tournament(data=data, slug="prova-2")
    assert result.tournament.slug == "prova-2" and result.tournament.name == played.name
    assert Tournament.objects.count() == 2


def test_invalid_values_are_listed_with_their_place_and_nothing_is_created(played):
    doc = doc_of(played)
    doc["rounds"][0]["tables"][0]["sheet"]["vp_ns"] = "molti"
    doc["pairs"][1]["status"] = "sparita"
    doc["rounds"][0]["tables"][1]["ns"] = 99
    before = counts()
    with pytest.raises(ArbiterError, match="contiene errori: nulla è stato importato") as info:
        transfer.import_tournament(data=json.dumps(doc).encode(), slug="nuova")
    details = "\n".join(info.value.details)
    assert "rounds[0].tables[0].sheet.vp_ns" in details
    assert "pairs[1].status" in details
    assert "rounds[0].tables[1].ns: la coppia 99 non è nel file" in details
    assert counts() == before


def test_the_owner_is_the_only_arbiter_and_no_account_of_the_file_is_applied_or_created(
        played, arbiter, django_user_model):
    """The file names arbiters and users; the copy belongs to the importer alone: the file's
    usernames (an existing one included) are never attached, none is created, and they stay
    text in the audit (each entry's actor; the import's entry lists the file's arbiters)."""
    doc = doc_of(played)
    doc["tournament"]["arbiters"] = ["arbitro", "giudice", "<script>x</script> "]
    empty_database()
    existing = django_user_model.objects.create_user(username="arbitro", password="altra-123")
    owner = django_user_model.objects.create_user(username="capo", password="altra-456")

    result = transfer.import_tournament(data=json.dumps(doc).encode(), owner=owner, by=owner)

    t = result.tournament
    assert list(t.arbiters.all()) == [owner] and t.created_by == owner
    assert sorted(django_user_model.objects.values_list("username", flat=True)) == ["arbitro", "capo"]
    assert Penalty.objects.get(tournament=t).created_by is None
    assert not AuditEntry.objects.filter(tournament=t, user=existing).exists()
    assert AuditEntry.objects.filter(tournament=t).exclude(action="tournament_imported").filter(
        actor__contains="arbitro").exists()
    imported = AuditEntry.objects.get(tournament=t, action="tournament_imported")
    assert imported.new["file_arbiters"] == ["arbitro", "giudice", "<script>x</script> "]
    assert imported.new["file_created_by"] == "arbitro"
    assert result.messages == []


def _custom_scale(scale_id="vp-club", winner=12):
    """A one-band-per-side 2-hand scale: 0–100 MP 10–10, 105+ ``winner``–(20−winner)."""
    from scoring import vp as vp_rules

    return vp_rules.scale_from_dict({
        "id": scale_id, "name": "Club", "hands": 2, "total": 20,
        "bands": [{"min": 0, "max": 100, "winner": 10, "loser": 10},
                  {"min": 105, "max": None, "winner": winner, "loser": 20 - winner}],
    })


def test_custom_scale_id_clash_imports_under_a_new_id_with_a_message(tournament, arbiter):
    services.create_custom_scale(scale=_custom_scale(), by=None)
    services.update_tournament(tournament=tournament, by=arbiter, vp_scale="vp-club")
    doc = doc_of(tournament)
    assert doc["custom_scale"]["scale_id"] == "vp-club"
    CustomScale.objects.filter(scale_id="vp-club").update(data={**doc["custom_scale"]["data"], "bands": [
        {"min": 0, "max": 100, "winner": 10, "loser": 10}, {"min": 105, "max": None, "winner": 15, "loser": 5}]})

    result = transfer.import_tournament(data=json.dumps(doc).encode(), slug="copia")

    assert result.tournament.vp_scale == "vp-club-2"
    assert result.messages == ["Esiste già una tabella VP con codice «vp-club»: quella del file è importata come "
                               "«vp-club-2»."]
    new = CustomScale.objects.get(scale_id="vp-club-2")
    assert new.data["bands"][1]["winner"] == 12 and new.data["id"] == "vp-club-2"
    assert CustomScale.objects.get(scale_id="vp-club").data["bands"][1]["winner"] == 15  # untouched


def test_the_same_custom_scale_already_here_is_reused(tournament, arbiter):
    services.create_custom_scale(scale=_custom_scale(), by=None)
    services.update_tournament(tournament=tournament, by=arbiter, vp_scale="vp-club")
    result = transfer.import_tournament(data=transfer.export_tournament(tournament), slug="copia")
    assert result.tournament.vp_scale == "vp-club" and CustomScale.objects.count() == 1
    assert result.messages == []


def test_custom_scale_travels_to_an_empty_database(tournament, arbiter):
    services.create_custom_scale(scale=_custom_scale(), by=None)
    services.update_tournament(tournament=tournament, by=arbiter, vp_scale="vp-club")
    data = transfer.export_tournament(tournament)
    empty_database()
    result = transfer.import_tournament(data=data)
    assert CustomScale.objects.get().scale_id == result.tournament.vp_scale == "vp-club"
    assert transfer.export_tournament(result.tournament) == without_accounts(data)


def test_captain_links_and_pins_keep_working_after_import_into_an_empty_database(played, client):
    tables = {t.number: (t.token, t.pin) for t in Table.objects.filter(round__tournament=played)}
    old_page = client.get(reverse("captain", args=[tables[2][0]]))
    assert old_page.status_code == 200
    data = transfer.export_tournament(played)
    empty_database()
    assert client.get(reverse("captain", args=[tables[2][0]])).status_code == 404

    transfer.import_tournament(data=data)

    page = client.get(reverse("captain", args=[tables[2][0]]))
    assert page.status_code == 200
    table = Table.objects.get(token=tables[2][0])
    assert (table.round.tournament.slug, table.round.number, table.number, table.pin) == ("prova", 1, 2, tables[2][1])
    response = client.post(reverse("captain_pin", args=["prova"]), {"table": "2", "pin": tables[2][1]})
    assert response.status_code == 302 and response["Location"] == reverse("captain", args=[tables[2][0]])


def test_commands_export_and_import_with_slug_and_owner(played, tmp_path, django_user_model):
    path = tmp_path / "prova.json"
    call_command("export_tournament", "prova", str(path))
    assert path.read_bytes() == transfer.export_tournament(played)
    assert path.stat().st_mode & 0o077 == 0                      # secret: owner only

    # a taken --slug is refused; without --slug a taken file slug becomes "prova-copia"
    with pytest.raises(CommandError, match="Esiste già un torneo con l'indirizzo breve «prova»: scegline un altro "
                                           "con --slug"):
        call_command("import_tournament", str(path), "--slug", "prova")
    with pytest.raises(CommandError, match="Utente «nessuno» inesistente"):
        call_command("import_tournament", str(path), "--slug", "server", "--owner", "nessuno")
    capo = django_user_model.objects.create_user(username="capo", password="x-123456")
    call_command("import_tournament", str(path), "--slug", "server", "--owner", "capo")
    copy = Tournament.objects.get(slug="server")
    assert capo in copy.arbiters.all()
    entry = AuditEntry.objects.get(tournament=copy, action="tournament_imported")
    assert entry.user == capo and entry.new["file_slug"] == "prova"

    doc = json.loads(path.read_text())
    doc["version"] = 99
    path.write_text(json.dumps(doc))
    with pytest.raises(CommandError, match="Versione del file sconosciuta"):
        call_command("import_tournament", str(path), "--slug", "altro")


def test_refusals_speak_english_too(played):
    from django.utils import translation

    doc = doc_of(played)
    doc["version"] = 3
    with translation.override("en"), pytest.raises(ArbiterError) as info:
        transfer.import_tournament(data=json.dumps(doc).encode(), slug="nuova")
    assert info.value.message == "Unknown file version (3): this Arbitro reads versions 1, 2. Nothing was imported."


# Only staff create custom VP scales, through an import too.

def _club_file(tournament, arbiter) -> bytes:
    services.create_custom_scale(scale=_custom_scale(), by=None)
    services.update_tournament(tournament=tournament, by=arbiter, vp_scale="vp-club")
    data = transfer.export_tournament(tournament)
    CustomScale.objects.filter(scale_id="vp-club").delete()   # the target server has no such scale
    return data


def test_a_non_staff_arbiter_cannot_create_the_file_s_custom_scale(tournament, arbiter):
    data = _club_file(tournament, arbiter)
    before = counts()
    with pytest.raises(ArbiterError, match="«vp-club» del file non c'è su questo server e solo lo staff può "
                                           "crearla"):
        transfer.import_tournament(data=data, slug="copia", by=arbiter, owner=arbiter)
    assert counts() == before and not CustomScale.objects.exists()


def test_a_non_staff_arbiter_gets_a_scale_with_the_same_bands_instead(tournament, arbiter):
    data = _club_file(tournament, arbiter)
    services.create_custom_scale(scale=_custom_scale("vp-circolo"), by=None)   # same bands, another code

    result = transfer.import_tournament(data=data, slug="copia", by=arbiter, owner=arbiter)

    assert result.tournament.vp_scale == "vp-circolo"
    assert list(CustomScale.objects.values_list("scale_id", flat=True)) == ["vp-circolo"]
    assert result.messages == ["La tabella VP personalizzata «vp-club» del file non c'è su questo server e solo lo "
                               "staff può crearla: il torneo usa «vp-circolo», che ha le stesse fasce."]


def test_a_scale_with_other_bands_is_not_a_match(tournament, arbiter):
    data = _club_file(tournament, arbiter)
    services.create_custom_scale(scale=_custom_scale("vp-altra", winner=13), by=None)   # 13–7, not 12–8
    with pytest.raises(ArbiterError, match="solo lo staff può crearla"):
        transfer.import_tournament(data=data, slug="copia", by=arbiter)


def test_staff_create_the_file_s_custom_scale(tournament, arbiter, django_user_model):
    data = _club_file(tournament, arbiter)
    staff = django_user_model.objects.create_user(username="staff", password="x-123456", is_staff=True)
    result = transfer.import_tournament(data=data, slug="copia", by=staff, owner=staff)
    assert result.tournament.vp_scale == "vp-club" and CustomScale.objects.get().name == "Club"


def test_the_upload_page_refuses_a_new_custom_scale_for_a_non_staff_arbiter(arbiter_client, tournament, arbiter):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = _club_file(tournament, arbiter)
    before = counts()
    response = arbiter_client.post(reverse("tournament_import"), {
        "file": SimpleUploadedFile("torneo.json", data, "application/json"), "slug": "copia"})
    assert response.status_code == 400
    assert "solo lo staff può crearla" in response.content.decode()
    assert counts() == before and not CustomScale.objects.exists()


def test_the_command_line_creates_the_custom_scale_whoever_the_owner(tournament, arbiter, tmp_path):
    """The command line is the server administrator's: ``--owner`` a non-staff arbiter."""
    path = tmp_path / "club.json"
    path.write_bytes(_club_file(tournament, arbiter))
    call_command("import_tournament", str(path), "--slug", "copia", "--owner", "arbitro")
    assert Tournament.objects.get(slug="copia").vp_scale == "vp-club" and CustomScale.objects.count() == 1
