"""Refusals of the services and errors of the registration import follow the UI language:
with the language cookie set to ``en`` the arbiter reads them in English;
without it they stay exactly the Italian text of the rules' vocabulary.

Expected texts are the catalogue's translations written by hand (locale/en), and the
Italian ones the messages of tournaments/services/ and tournaments/registrations/.
"""
import io

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments import services
from tournaments.registrations import reading

HEADER = "coppia,cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2,circolo\n"
# Row 3 repeats pair number 1 (row 2) and membership number 1.
REPEATED = HEADER + "1,Rossi,Anna,1,Verdi,Bruno,2,C\n1,Neri,Carla,1,Bianchi,Dario,4,C\n"


@pytest.fixture
def published(tournament, make_pairs, arbiter):
    """Round 1 of 5 pairs, published, no sheet entered: tables 1 and 2 play, pair 5 rests."""
    make_pairs(tournament, 5)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    return services.publish_round(round=rnd, by=arbiter)


def close_round(client):
    resp = client.post(reverse("round_close", args=["prova", 1]), follow=True)
    assert resp.status_code == 200
    return resp.content.decode()


def preview(client, content: str) -> str:
    upload = io.BytesIO(content.encode())
    upload.name = "iscritti.csv"
    resp = client.post(reverse("import", args=["prova"]), {"file": upload})
    assert resp.status_code == 200
    return resp.content.decode()


def test_close_round_with_sheets_missing_refused_in_english(english, arbiter, published):
    english.force_login(arbiter)
    html = close_round(english)
    assert "Cannot close the round: score sheets not validated at tables 1, 2." in html
    assert "Impossibile chiudere" not in html
    published.refresh_from_db()
    assert published.state == "published"  # refused: nothing changed


def test_close_round_with_sheets_missing_refused_in_italian_without_cookie(arbiter_client, published):
    html = close_round(arbiter_client)
    assert "Impossibile chiudere il turno: score non validati ai tavoli 1, 2." in html
    assert "Cannot close" not in html


def test_generate_while_round_in_play_refused_in_english(english, arbiter, published):
    """A refusal turned into a message by ``arbiter_view`` (redirect back)."""
    english.force_login(arbiter)
    resp = english.post(reverse("round_generate", args=["prova"]), follow=True)
    html = resp.content.decode()
    assert "Round 1 is still in play: close it before generating round 2." in html
    assert "ancora in gioco" not in html


def test_import_preview_errors_in_english(english, arbiter, tournament):
    english.force_login(arbiter)
    html = preview(english, REPEATED)
    assert "Row 3: pair number 1 is already used in row 2." in html
    assert "Row 3: the player with card number 1 already appears in row 2." in html
    assert "Riga 3" not in html


def test_import_preview_errors_in_italian_without_cookie(arbiter_client, tournament):
    html = preview(arbiter_client, REPEATED)
    assert "Riga 3: il numero di coppia 1 è già usato alla riga 2." in html
    assert "Riga 3: il giocatore con tessera 1 compare già alla riga 2." in html
    assert "Row 3" not in html


def test_parse_outside_a_request_speaks_italian_unless_told_otherwise(db):
    """registrations.parse is also called by a management command, with no request:
    the default language (LANGUAGE_CODE "it") applies; an active language wins."""
    data = (HEADER + "1,Rossi,Anna,,Verdi,Bruno,,C\n1,Neri,,,Bianchi,Dario,,C\n").encode()
    assert reading.parse("x.csv", data).errors == [
        "Riga 3: il numero di coppia 1 è già usato alla riga 2.",
        "Riga 3: manca il nome del giocatore 1.",
    ]
    with translation.override("en"):
        assert reading.parse("x.csv", data).errors == [
            "Row 3: pair number 1 is already used in row 2.",
            "Row 3: player 1 has no first name.",
        ]
