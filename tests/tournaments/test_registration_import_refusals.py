"""Registration import refusals.

Once a tournament has a round the import of registrations is closed
(``services.registration_import_refusal``): the page says so before any upload (no form),
an upload is refused at the preview step with the services' sentence, for pairs, players
and teams alike, and the tournament page offers no "Importa iscrizioni" button.
The two players of one pair's row with the same membership number are told so,
not "compare già alla riga <the same row>"."""
import io
from html import unescape

import pytest
from django.urls import reverse

from tests.tournaments.individual_helpers import register
from tournaments import services
from tournaments.models import Pair, Player, Team
from tournaments.registrations import reading

CLOSED = "Il torneo è già iniziato: l'importazione delle iscrizioni è chiusa."
PAIRS = ("coppia,cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2,circolo\n"
         "6,Gialli,Ada,901,Blu,Elio,902,C\n7,Rosa,Ida,903,Viola,Ugo,904,C\n8,Grigi,Eva,905,Neri,Leo,906,C\n")


def csv_upload(text: str, name="iscritti.csv"):
    upload = io.BytesIO(text.encode())
    upload.name = name
    return upload


def test_started_pairs_tournament_refuses_the_upload_at_the_preview(arbiter_client, published, data_dir):
    url = reverse("import", args=["prova"])
    page = unescape(arbiter_client.get(url).content.decode())
    # said up front, no upload form; the late pair's page is offered instead
    assert CLOSED in page and 'type="file"' not in page and "Anteprima" not in page
    assert reverse("late_pair", args=["prova"]) in page
    before = Pair.objects.count()
    resp = arbiter_client.post(url, {"file": csv_upload(PAIRS)})
    body = unescape(resp.content.decode())
    assert resp.status_code == 400 and CLOSED in body
    assert "coppie pronte" not in body and 'name="confirm"' not in body
    with open(data_dir / "registrations-9.xlsx", "rb") as f:   # an XLSX, as clubs send them
        assert arbiter_client.post(url, {"file": f}).status_code == 400
    assert arbiter_client.post(url, {"confirm": "1"}).status_code == 400
    assert Pair.objects.count() == before


def test_a_file_previewed_before_round_1_cannot_be_confirmed_after_it(arbiter_client, five, arbiter):
    url = reverse("import", args=["prova"])
    resp = arbiter_client.post(url, {"file": csv_upload(PAIRS)})
    assert "3 coppie pronte" in resp.content.decode()
    services.generate_round(tournament=five, by=arbiter)
    resp = arbiter_client.post(url, {"confirm": "1"})
    assert resp.status_code == 400 and CLOSED in unescape(resp.content.decode())
    assert Pair.objects.filter(tournament=five).count() == 5


def test_tournament_page_offers_the_import_only_before_round_1(arbiter_client, five, arbiter):
    page = arbiter_client.get(reverse("tournament", args=["prova"])).content.decode()
    assert reverse("import", args=["prova"]) in page
    services.generate_round(tournament=five, by=arbiter)     # a draft already closes it
    page = unescape(arbiter_client.get(reverse("tournament", args=["prova"])).content.decode())
    assert reverse("import", args=["prova"]) not in page and 'id="import-closed-note"' in page


def test_started_individual_tournament_refuses_players(arbiter_client, indiv, arbiter, data_dir):  # noqa: F811
    register(indiv, arbiter, 8)
    services.generate_round(tournament=indiv, by=arbiter)
    url = reverse("import", args=["indiv"])
    page = unescape(arbiter_client.get(url).content.decode())
    assert CLOSED in page and 'type="file"' not in page and reverse("players", args=["indiv"]) in page
    with open(data_dir / "players-13.csv", "rb") as f:
        resp = arbiter_client.post(url, {"file": f})
    assert resp.status_code == 400 and CLOSED in unescape(resp.content.decode())
    assert Player.objects.filter(tournament=indiv).count() == 8


def test_started_team_tournament_refuses_teams(arbiter_client, make_teams_tournament, arbiter, data_dir):  # noqa: F811
    t = make_teams_tournament(4)
    services.generate_round(tournament=t, by=arbiter)
    url = reverse("import", args=[t.slug])
    page = unescape(arbiter_client.get(url).content.decode())
    assert CLOSED in page and 'type="file"' not in page and reverse("teams", args=[t.slug]) in page
    with open(data_dir / "teams-5.csv", "rb") as f:
        resp = arbiter_client.post(url, {"file": f})
    assert resp.status_code == 400 and CLOSED in unescape(resp.content.decode())
    assert Team.objects.filter(tournament=t).count() == 4


def test_the_refusal_rule(five, arbiter):
    assert services.registration_import_refusal(five) is None
    services.generate_round(tournament=five, by=arbiter)
    assert services.registration_import_refusal(five) == CLOSED
    with pytest.raises(Exception, match="l'importazione delle iscrizioni è chiusa"):
        services.import_pairs(tournament=five, rows=[], by=arbiter)


def test_same_membership_number_in_one_row_is_named_as_such():
    header = "coppia,cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2,circolo\n"
    text = header + "1,Rossi,Anna,111,Verdi,Bruno,222,C\n2,Neri,Carla,333,Bianchi,Dario,444,C\n" \
                    "3,Gallo,Ezio,115,Conti,Fabio,115,C\n4,Russo,Gino,222,Ferri,Ivo,555,C\n"
    parsed = reading.parse("f.csv", text.encode())
    # row 4 (the 3rd pair: header is row 1) holds 115 twice; row 5 repeats row 2's 222
    assert parsed.errors == [
        "Riga 4: i due giocatori della coppia hanno la stessa tessera 115.",
        "Riga 5: il giocatore con tessera 222 compare già alla riga 2.",
    ]


