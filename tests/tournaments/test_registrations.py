"""Registration import: files, errors with row numbers, all-or-nothing."""
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tournaments.kinds import kind_of
from tournaments.models import Pair, Player
from tournaments.registrations import reading

HEADER = "coppia,cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2,circolo\n"


def parse(text: str, **kw):
    return reading.parse("f.csv", text.encode("utf-8"), **kw)


def test_sample_files_parse_cleanly(data_dir):
    for name, n in (("registrations-9.csv", 9), ("registrations-29.csv", 29), ("registrations-120.xlsx", 120)):
        parsed = reading.parse(name, (data_dir / name).read_bytes())
        assert parsed.errors == []
        assert len(parsed.rows) == n


def test_same_player_twice_is_refused_with_row_numbers():
    text = HEADER + "1,Rossi,Anna,111,Verdi,Bruno,222,C\n2,Neri,Carla,111,Bianchi,Dario,333,C\n"
    parsed = parse(text)
    assert parsed.errors == ["Riga 3: il giocatore con tessera 111 compare già alla riga 2."]


def test_same_player_twice_without_card_by_name():
    text = HEADER + "1,Rossi,Anna,,Verdi,Bruno,,C\n2,Rossi,Anna,,Bianchi,Dario,,C\n"
    assert parse(text).errors == ["Riga 3: Rossi Anna compare già alla riga 2."]


def test_empty_name_is_refused():
    text = HEADER + "1,Rossi,,111,Verdi,Bruno,222,C\n2,Neri,Carla,444,,Dario,333,C\n"
    assert parse(text).errors == [
        "Riga 2: manca il nome del giocatore 1.",
        "Riga 3: manca il cognome del giocatore 2.",
    ]


def test_repeated_pair_number_is_refused():
    text = HEADER + "5,Rossi,Anna,1,Verdi,Bruno,2,C\n5,Neri,Carla,3,Bianchi,Dario,4,C\n"
    assert parse(text).errors == ["Riga 3: il numero di coppia 5 è già usato alla riga 2."]


def test_pair_number_optional_file_order():
    text = "cognome_1,nome_1,cognome_2,nome_2\nRossi,Anna,Verdi,Bruno\nNeri,Carla,Bianchi,Dario\n"
    parsed = parse(text)
    assert [r.number for r in parsed.rows] == [1, 2]


def test_semicolon_windows_1252_accented_names_import(tournament):
    text = (
        "coppia;cognome_1;nome_1;tessera_1;cognome_2;nome_2;tessera_2;circolo\r\n"
        "1;  Niccolò ;Lucia;10;D'Alò;Mattìa;11;Società Burraco Forlì\r\n"
        "2;Pérez;José;12;Cantù;Nicolò;13;Circolo Città\r\n"
    )
    data = text.encode("cp1252")
    parsed = kind_of(tournament).parse_registrations(tournament, "iscritti.csv", data)
    assert parsed.errors == []
    first = parsed.rows[0].players
    assert (first[0].last_name, first[1].last_name, first[1].first_name) == ("Niccolò", "D'Alò", "Mattìa")
    assert first[0].club == "Società Burraco Forlì"
    assert parsed.rows[1].players[0].first_name == "José"


def test_utf8_bom_is_accepted():
    text = "\ufeff" + HEADER + "1,Rossi,Anna,1,Verdi,Bruno,2,C\n"
    parsed = reading.parse("f.csv", text.encode("utf-8"))
    assert parsed.errors == [] and len(parsed.rows) == 1


def test_player_already_in_tournament_is_refused(tournament, make_pairs):
    make_pairs(tournament, 1)  # memberships A1, B1
    text = HEADER + "2,Rossi,Anna,A1,Verdi,Bruno,Z9,C\n"
    parsed = kind_of(tournament).parse_registrations(tournament, "f.csv", text.encode())
    assert parsed.errors == ["Riga 2: il giocatore con tessera A1 è già iscritto al torneo."]


def test_command_imports_120_xlsx(tournament, data_dir):
    out = io.StringIO()
    call_command("import_registrations", "prova", str(data_dir / "registrations-120.xlsx"), stdout=out)
    assert "120 coppie importate" in out.getvalue()
    assert Pair.objects.filter(tournament=tournament).count() == 120
    assert Player.objects.filter(tournament=tournament).count() == 240


def test_command_refuses_bad_file_and_saves_nothing(tournament, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(HEADER + "1,Rossi,Anna,1,Verdi,Bruno,2,C\n1,Neri,,3,Bianchi,Dario,4,C\n", encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_registrations", "prova", str(bad), stderr=err)
    assert "Riga 3: il numero di coppia 1 è già usato alla riga 2." in err.getvalue()
    assert "Riga 3: manca il nome del giocatore 1." in err.getvalue()
    assert Pair.objects.count() == 0 and Player.objects.count() == 0


def test_page_preview_then_import_120_xlsx(arbiter_client, tournament, data_dir):
    url = reverse("import", args=["prova"])
    with open(data_dir / "registrations-120.xlsx", "rb") as f:
        resp = arbiter_client.post(url, {"file": f})
    assert resp.status_code == 200
    assert "120 coppie pronte" in resp.content.decode()
    assert Pair.objects.count() == 0  # preview saves nothing
    resp = arbiter_client.post(url, {"confirm": "1"})
    assert resp.status_code == 302
    assert Pair.objects.filter(tournament=tournament).count() == 120


def test_page_shows_every_error_and_saves_nothing(arbiter_client, tournament):
    url = reverse("import", args=["prova"])
    content = HEADER + "1,Rossi,Anna,1,Verdi,Bruno,2,C\n1,Neri,Carla,1,Bianchi,Dario,4,C\n"
    upload = io.BytesIO(content.encode())
    upload.name = "iscritti.csv"
    resp = arbiter_client.post(url, {"file": upload})
    body = resp.content.decode()
    assert "Riga 3: il numero di coppia 1 è già usato alla riga 2." in body
    assert "Riga 3: il giocatore con tessera 1 compare già alla riga 2." in body
    resp = arbiter_client.post(url, {"confirm": "1"})  # confirming an invalid file does nothing
    assert Pair.objects.count() == 0
