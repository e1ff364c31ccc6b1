"""Member-list import (rules.md §16): columns, dates, per-row errors, all or nothing,
update by membership number."""
import datetime

import pytest
from openpyxl import Workbook

from members import importer
from members.models import Member

from .helpers import LIST_CSV, import_list

pytestmark = pytest.mark.django_db


def test_a_list_creates_members_marked_listed_with_both_date_forms():
    assert import_list() == (3, 0)
    anna = Member.objects.get(membership_number="402616")
    assert (anna.last_name, anna.first_name, anna.registered_club, anna.category) == ("Serra", "Anna", "Circolo Aurora", "Dame")
    assert anna.expires_on == datetime.date(2026, 12, 31)
    assert Member.objects.get(membership_number="402617").expires_on == datetime.date(2026, 11, 30)  # DD/MM/YYYY
    assert anna.listed and anna.source == Member.Source.LIST
    assert anna.name_key == "serra anna"


def test_importing_again_updates_by_membership_number():
    import_list()
    again = ("tessera,cognome,nome,circolo,categoria,scadenza\n"
             "402616,Serra,Anna Maria,Circolo Sole,Seniores,2027-12-31\n"
             "500001,Vitale,Elena,,,\n")
    assert import_list(again) == (1, 1)
    anna = Member.objects.get(membership_number="402616")
    assert (anna.first_name, anna.registered_club, anna.category, anna.expires_on) == (
        "Anna Maria", "Circolo Sole", "Seniores", datetime.date(2027, 12, 31))
    assert Member.objects.count() == 4


def test_a_missing_optional_column_keeps_the_existing_value():
    import_list()
    import_list("tessera,cognome,nome\n402616,Serra,Anna\n")
    assert Member.objects.get(membership_number="402616").category == "Dame"


def test_every_bad_row_is_reported_with_its_row_number_and_nothing_is_saved():
    text = ("tessera,cognome,nome,circolo,categoria,scadenza\n"
            "1,Rossi,Mario,,,2026-02-31\n"      # row 2: impossible date
            ",Bianchi,Luca,,,\n"                  # row 3: no number
            "3,,Carla,,,\n"                       # row 4: no surname
            "1,Neri,Gino,,,12.05.2026\n"          # row 5: number of row 2 again, bad date form
            "6,Verdi,Ada,,,2026-05-01\n")         # row 6: fine
    parsed = importer.parse("x.csv", text.encode())
    assert parsed.errors == [
        "Riga 2: scadenza «2026-02-31» non valida (AAAA-MM-GG o GG/MM/AAAA).",
        "Riga 3: manca la tessera.",
        "Riga 4: manca il cognome.",
        "Riga 5: la tessera 1 compare già alla riga 2.",
        "Riga 5: scadenza «12.05.2026» non valida (AAAA-MM-GG o GG/MM/AAAA).",
    ]
    assert Member.objects.count() == 0


def test_missing_columns_and_empty_file():
    assert importer.parse("x.csv", b"tessera,nome\n1,Ada\n").errors == [
        "Riga 1: mancano le colonne cognome (servono tessera, cognome, nome, circolo, categoria, scadenza)."]
    assert importer.parse("x.csv", b"").errors == ["Il file è vuoto."]
    assert importer.parse("x.csv", b"tessera,cognome,nome\n").errors == ["Nessun socio nel file."]


def test_semicolons_and_an_xlsx_with_date_cells(tmp_path):
    parsed = importer.parse("x.csv", "tessera;cognome;nome;scadenza\n7;Sanna;Ugo;01/02/2027\n".encode("cp1252"))
    assert parsed.ok and parsed.rows[0].values["expires_on"] == datetime.date(2027, 2, 1)
    wb = Workbook()
    ws = wb.active
    ws.append(["tessera", "cognome", "nome", "circolo", "categoria", "scadenza"])
    ws.append([402700, "Fadda", "Rita", "Aurora", "Dame", datetime.datetime(2026, 12, 1)])
    path = tmp_path / "soci.xlsx"
    wb.save(path)
    parsed = importer.parse("soci.xlsx", path.read_bytes())
    assert parsed.ok, parsed.errors
    row = parsed.rows[0]
    assert (row.membership_number, row.values["expires_on"]) == ("402700", datetime.date(2026, 12, 1))


def test_the_registry_cap_refuses_a_list_that_would_pass_it(monkeypatch):
    monkeypatch.setattr(importer, "MAX_MEMBERS", 2)
    parsed = importer.parse("x.csv", LIST_CSV.encode())
    assert parsed.errors == ["Il file ha più di 2 soci: è il massimo dell'anagrafica. Nulla è stato importato."]


def test_import_members_command(tmp_path, capsys):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    good = tmp_path / "soci.csv"
    good.write_text(LIST_CSV)
    call_command("import_members", str(good))
    assert "Soci importati: 3 nuovi, 0 aggiornati." in capsys.readouterr().out
    bad = tmp_path / "bad.csv"
    bad.write_text("tessera,cognome,nome\n,Rossi,Mario\n")
    with pytest.raises(CommandError, match="1 errore: nessun socio importato."):
        call_command("import_members", str(bad))
    assert "Riga 2: manca la tessera." in capsys.readouterr().err
