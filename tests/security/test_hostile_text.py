"""Hostile text at the doors: control characters, NUL and bidirectional overrides typed in a
form, put in a file or passed to a command are removed (NUL refused) where they enter, so
that no document naming them answers 500 later and the tournament's export imports again.

Expected values by hand from the rule (``members.text``): Cc characters (``\\x07``,
``\\x1b``), lone surrogates and U+202A–U+202E, U+2066–U+2069 are removed, runs of spaces
become one, the ends are trimmed; U+200E, U+200F and U+061C stay; a NUL is refused.
"""
import datetime
import io
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from openpyxl import load_workbook

from championships import services as championship_services
from members import importer
from members.models import Member
from tests.championships.helpers import pairs_evening, people
from tests.forms_data import tournament_settings
from tests.tournaments.helpers import create as create_by_form
from tournaments import transfer
from tournaments.errors import ArbiterError
from tournaments.models import Penalty, Tournament
from tournaments.services import add_penalty
from tournaments.text import clean_line, clean_note

BIDI_OVERRIDES = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
BIDI_MARKS = ["\u200e", "\u200f", "\u061c"]
#: «Rossi», a bell, an escape sequence's ESC, a right-to-left override: «Rossi[31m InoR»
HOSTILE = "Ro\x07ssi\x1b[31m \u202eInoR"
CLEANED = "Rossi[31m InoR"


# --------------------------------------------------------------------------- the rule


def test_every_bidi_override_and_isolate_is_removed_the_marks_stay():
    for ch in BIDI_OVERRIDES:
        assert clean_line(f"Serra{ch} Anna", label="Nome", max_length=80) == "Serra Anna", hex(ord(ch))
        assert clean_note(f"riga{ch}\nseconda", max_length=300) == "riga\nseconda", hex(ord(ch))
    for ch in BIDI_MARKS:
        assert clean_line(f"Serra{ch}", label="Nome", max_length=80) == f"Serra{ch}", hex(ord(ch))
    assert clean_line(HOSTILE, label="Nome", max_length=80) == CLEANED
    with pytest.raises(ArbiterError, match="NUL"):
        clean_line("Ros\x00si", label="Nome", max_length=80)


# --------------------------------------------------------------------------- the tournament's name


def test_the_new_tournament_form_stores_the_name_cleaned(arbiter_client):
    assert create_by_form(arbiter_client, name=f"Coppa {HOSTILE}", slug="coppa").status_code == 302
    assert Tournament.objects.get(slug="coppa").name == f"Coppa {CLEANED}"


def test_the_settings_form_cleans_the_name_and_the_federation_xlsx_opens(arbiter_client, arbiter):
    t = pairs_evening(arbiter, "fed", datetime.date(2026, 11, 5), people("P", 2), {1: 15, 2: 5})
    data = tournament_settings(t, name=f"Serata \x07\x1b{HOSTILE}", organising_club=f"Circolo\u2066 {HOSTILE}",
                               arbiter_name="\u202dRossi\x1b Mario", tiebreaks_0="vp",
                               tiebreaks_1="mp_difference", tiebreaks_2="head_to_head", tiebreaks_3="mp_scored")
    assert arbiter_client.post("/tornei/fed/impostazioni/", data).status_code == 302
    t.refresh_from_db()
    assert (t.name, t.organising_club, t.arbiter_name) == (f"Serata {CLEANED}", f"Circolo {CLEANED}",
                                                           "Rossi Mario")
    response = arbiter_client.get("/tornei/fed/documenti/federazione.xlsx")
    assert response.status_code == 200
    row = list(load_workbook(io.BytesIO(response.content)).active.values)[1]
    assert row[-4:-2] == (f"Serata {CLEANED}", "2026-11-05")


def test_a_name_of_control_characters_only_is_refused_with_a_sentence(arbiter_client, tournament):
    response = arbiter_client.post("/tornei/prova/impostazioni/",
                                   tournament_settings(tournament, name="\x07\x1b\u202e"), follow=True)
    assert response.status_code == 200
    assert "Nome: manca." in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).name == "Torneo di prova"


# --------------------------------------------------------------------------- prizes --set


@pytest.fixture
def evening(arbiter):
    return pairs_evening(arbiter, "premi", datetime.date(2026, 11, 5), people("P", 2), {1: 20, 2: 0})


def set_prizes(tmp_path, content: str):
    path = tmp_path / "premi.json"
    path.write_text(content, encoding="utf-8")
    call_command("prizes", "premi", "--set", str(path), stdout=StringIO())


def test_a_prize_name_with_nul_is_refused_and_the_export_still_imports(evening, tmp_path):
    with pytest.raises(CommandError, match="Premio 1: contiene un carattere non valido"):
        set_prizes(tmp_path, json.dumps([{"prize": "Primo\u0000", "scope": "overall"}]))
    set_prizes(tmp_path, json.dumps([{"prize": f"Primo {HOSTILE}", "scope": "category:\u202eDame\x07"},
                                     {"prize": "Secondo\ud800", "scope": "overall"}]))
    evening.refresh_from_db()
    assert evening.prize_list == [{"prize": f"Primo {CLEANED}", "scope": "category:Dame"},
                                  {"prize": "Secondo", "scope": "overall"}]
    copy = transfer.import_tournament(data=transfer.export_tournament(evening), slug="premi-copia",
                                      name="Copia").tournament
    assert copy.prize_list == evening.prize_list


def test_a_prize_file_nested_100000_deep_gets_one_line(evening, tmp_path):
    with pytest.raises(CommandError) as refused:
        set_prizes(tmp_path, "[" * 100_000 + "]" * 100_000)
    assert "annidato oltre 20 livelli" in str(refused.value) and "\n" not in str(refused.value)
    assert Tournament.objects.get(pk=evening.pk).prize_list == []


# --------------------------------------------------------------------------- the member registry


def test_the_member_list_import_cleans_names_and_the_championship_xlsx_opens(arbiter, arbiter_client):
    t = pairs_evening(arbiter, "sera", datetime.date(2026, 11, 5), people("P", 2), {1: 20, 2: 0})
    championship_services.create_championship(by=arbiter, slug="inverno", name="Inverno", tournaments=["sera"])
    csv_text = ("tessera,cognome,nome,circolo,categoria\n"
                f"P1A,{HOSTILE},Anna\x1b,\u202eAurora,Dame\u2069\n")
    parsed = importer.parse("soci.csv", csv_text.encode())
    assert parsed.ok, parsed.errors
    importer.save(parsed)
    member = Member.objects.get(membership_number="P1A")
    assert (member.last_name, member.first_name, member.registered_club, member.category) == (CLEANED, "Anna", "Aurora",
                                                                                 "Dame")
    response = arbiter_client.get("/campionati/inverno/classifica.xlsx")
    assert response.status_code == 200
    cells = {c for row in load_workbook(io.BytesIO(response.content)).active.values for c in row}
    assert any(isinstance(c, str) and CLEANED in c for c in cells)
    assert t.players.count() == 4


def test_a_member_list_cell_with_nul_is_refused_with_its_row(db):
    parsed = importer.parse("soci.csv", "tessera,cognome,nome\n1,Serra,Anna\n2,Ro\x00ssi,Bruno\n".encode())
    assert not parsed.ok
    assert parsed.errors == ["Riga 3, colonna cognome: contiene un carattere di controllo (U+0000)."]
    assert not Member.objects.exists()


def test_the_member_form_stores_the_names_cleaned(arbiter_client):
    # a membership number is not a text: a bidi override there is refused (members.numbers)
    refused = arbiter_client.post("/soci/nuovo/", {"membership_number": "\u202e880007", "last_name": "Serra",
                                                   "first_name": "Anna", "club": "", "category": ""})
    assert refused.status_code == 200 and "U+202E" in refused.content.decode() and not Member.objects.exists()
    response = arbiter_client.post("/soci/nuovo/", {"membership_number": "880007", "last_name": HOSTILE,
                                                    "first_name": "Anna\x07", "club": "", "category": "\x1bDame"})
    assert response.status_code == 302
    member = Member.objects.get()
    assert (member.membership_number, member.last_name, member.first_name, member.category) == (
        "880007", CLEANED, "Anna", "Dame")


def test_the_championship_name_is_cleaned(arbiter):
    pairs_evening(arbiter, "sera", datetime.date(2026, 11, 5), people("P", 2), {1: 20, 2: 0})
    c = championship_services.create_championship(by=arbiter, slug="inverno", name=f"Inverno {HOSTILE}",
                                                  tournaments=["sera"])
    assert c.name == f"Inverno {CLEANED}"
    with pytest.raises(ArbiterError, match="NUL"):
        championship_services.create_championship(by=arbiter, slug="estate", name="Estate\x00")


# --------------------------------------------------------------------------- reasons


def test_a_penalty_reason_is_cleaned_and_one_with_nul_refused(arbiter, tournament, make_pairs):
    pair = make_pairs(tournament, 2)[0]
    add_penalty(pair=pair, vp=1, reason=f"ritardo {HOSTILE}", by=arbiter)
    assert Penalty.objects.get().reason == f"ritardo {CLEANED}"
    assert tournament.audit.get(action="penalty_added").reason == f"ritardo {CLEANED}"
    with pytest.raises(ArbiterError, match="NUL"):
        add_penalty(pair=pair, vp=1, reason="ritardo\x00", by=arbiter)
    assert Penalty.objects.count() == 1


# --------------------------------------------------------------------------- the tournament file


def test_a_tournament_file_is_read_with_its_typed_texts_cleaned(evening, arbiter):
    """A file written before the rule (or edited by hand) with control characters and bidi
    overrides in its names, prize names and reasons imports with them removed."""
    add_penalty(pair=evening.pairs.get(number=1), vp=1, reason="ritardo", by=arbiter)
    doc = json.loads(transfer.export_tournament(evening))
    doc["tournament"]["organising_club"] = f"Circolo {HOSTILE}"
    doc["tournament"]["prize_list"] = [{"prize": f"Primo {HOSTILE}", "scope": "overall"}]
    doc["players"][0]["last_name"] = HOSTILE
    doc["penalties"][0]["reason"] = f"ritardo\u2067 {HOSTILE}"
    copy = transfer.import_tournament(data=json.dumps(doc).encode(), slug="copia", name="Copia").tournament
    assert copy.organising_club == f"Circolo {CLEANED}"
    assert copy.prize_list == [{"prize": f"Primo {CLEANED}", "scope": "overall"}]
    assert copy.players.filter(last_name=CLEANED).count() == 1
    assert copy.penalties.get().reason == f"ritardo {CLEANED}"


def test_a_bad_prize_list_in_a_tournament_file_is_refused_with_its_path(evening):
    doc = json.loads(transfer.export_tournament(evening))
    doc["tournament"]["prize_list"] = [{"prize": "Primo", "scope": "girone"}]
    with pytest.raises(ArbiterError) as refused:
        transfer.import_tournament(data=json.dumps(doc).encode(), slug="copia", name="Copia")
    assert refused.value.details[0].startswith("tournament.prize_list: Premio 1:")


# --------------------------------------------------------------------------- texts stored before the rule


def test_a_name_stored_before_the_rule_does_not_break_the_xlsx(arbiter_client, arbiter):
    """A control character already in the database (stored before the doors cleaned it) is
    left out of the spreadsheet's cell instead of making the download answer 500."""
    t = pairs_evening(arbiter, "vecchia", datetime.date(2026, 11, 5), people("P", 2), {1: 20, 2: 0})
    t.players.filter(last_name="P1a").update(last_name="P1a\x1b[31m\x07")
    Tournament.objects.filter(pk=t.pk).update(name="Vecchia\x07")
    for path in ("classifica.xlsx", "turno-1/score.xlsx", "federazione.xlsx"):
        response = arbiter_client.get(f"/tornei/vecchia/documenti/{path}")
        assert response.status_code == 200, path
    rows = list(load_workbook(io.BytesIO(arbiter_client.get("/tornei/vecchia/documenti/federazione.xlsx")
                                         .content)).active.values)
    assert "P1a[31m" in [row[1] for row in rows] and rows[1][-4] == "Vecchia"


def test_the_migration_cleans_texts_stored_before_the_rule_and_the_backup_restores(arbiter):
    """A prize name with a NUL (the issue's unrestorable backup), a tournament name with
    escapes, a player's name of control characters only and a penalty reason with a bidi
    override, stored before the rule: after the data migration the export imports again."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("tournaments.migrations.0020_clean_typed_texts")
    t = pairs_evening(arbiter, "vecchia", datetime.date(2026, 11, 5), people("P", 2), {1: 20, 2: 0})
    # PostgreSQL never stored a NUL (its text and jsonb refuse one): there the old rows hold
    # the other characters only, and their export already imported (the reader cleans them)
    nul = "\x00" if connection.vendor == "sqlite" else ""
    add_penalty(pair=t.pairs.get(number=1), vp=1, reason="ritardo", by=arbiter)
    Tournament.objects.filter(pk=t.pk).update(name=f"Vecchia {HOSTILE}", prize_list=[
        {"prize": f"Primo{nul}", "scope": "category:\u202eDame"}])
    t.players.filter(last_name="P1a").update(last_name="\x07\x1b")
    Penalty.objects.update(reason=f"ritardo\u2066 {nul}")
    if nul:
        with pytest.raises(ArbiterError):
            transfer.import_tournament(data=transfer.export_tournament(t), slug="copia", name="Copia")
    migration.clean_typed_texts(apps, None)
    t.refresh_from_db()
    assert (t.name, t.prize_list) == (f"Vecchia {CLEANED}", [{"prize": "Primo", "scope": "category:Dame"}])
    assert t.players.filter(last_name="?").count() == 1
    assert Penalty.objects.get().reason == "ritardo"
    copy = transfer.import_tournament(data=transfer.export_tournament(t), slug="copia", name="Copia").tournament
    assert copy.prize_list == t.prize_list
