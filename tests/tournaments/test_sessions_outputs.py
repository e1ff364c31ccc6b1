"""Sessions on every output: each names its own session, as the PDFs print it.

Plan ``MD|MD`` (five pairs): rounds 1–2 are session 1, rounds 3–4 session 2 (the ``|`` is
not a round). The tests play rounds 1–2 and publish round 3, so the table list shown is
round 3 (session 2) while the standings count rounds 1–2 (after round 2: session 1): each
output must name its own session. A one-session plan (``MD``) shows nothing new: the XLSX
headings are exactly those of before and the pages never say "Sessione".
"""
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.i18n.conftest import english_catalogue  # noqa: F401 (the compiled English catalogue)
from tests.tournaments.helpers import crush, play_round, with_plan
from tournaments import services
from tournaments.models import Tournament

#: The standings XLSX headings of a pair tournament before this change (spreadsheets.py).
STANDINGS_HEADINGS = ["Posizione", "Pari merito", "Coppia", "Giocatori", "VP", "Penalità", "Scarto MP",
                      "MP fatti", "Turni", "Riposi", "Ritirata", "Penalità MP"]
HANDS_HEADINGS = ["Tavolo", "Smazzata", "Coppia N/S", "Base N/S", "Carte N/S", "Totale N/S", "Coppia E/O",
                  "Base E/O", "Carte E/O", "Totale E/O"]
TABLES_HEADINGS = ["Tavolo", "Coppia N/S", "Giocatori N/S", "Coppia E/O", "Giocatori E/O", "MP N/S", "MP E/O",
                   "Differenza", "VP N/S", "VP E/O", "Stato"]


def two_rounds_played_and_round_3_published(tournament, arbiter):
    """Rounds 1 and 2 played and closed, round 3 published; public page and projector on."""
    play_round(services.generate_round(tournament=tournament, by=arbiter), arbiter, crush(4))
    play_round(services.generate_round(tournament=tournament, by=arbiter), arbiter, crush(5))
    r3 = services.generate_round(tournament=tournament, by=arbiter)
    services.publish_round(round=r3, by=arbiter, acknowledge_warnings=True)
    Tournament.objects.filter(pk=tournament.pk).update(public_enabled=True, projector_enabled=True)
    return r3


@pytest.fixture
def session_2_in_play(md_md, arbiter):  # noqa: F811
    two_rounds_played_and_round_3_published(md_md, arbiter)
    return md_md


@pytest.fixture
def one_session_in_play(five, arbiter):
    """The same games with plan ``MDM`` (one session: no ``|``)."""
    two_rounds_played_and_round_3_published(with_plan(five, arbiter, "MDM"), arbiter)
    return five


def sheet_rows(content, title=None):
    wb = load_workbook(io.BytesIO(content))
    ws = wb[title] if title else wb.active
    return [[c.value for c in row] for row in ws.iter_rows()], ws


# -- XLSX -----------------------------------------------------------------------------------------
def test_standings_xlsx_ends_with_the_session_of_the_last_round_counted(arbiter_client, session_2_in_play):
    """Standings after round 2 (round 3 is not closed): round 2 is in session 1."""
    rows, ws = sheet_rows(arbiter_client.get(reverse("standings_xlsx", args=["prova"])).content)
    assert rows[0] == STANDINGS_HEADINGS + ["Sessione"]
    assert len(rows) == 1 + 5 and all(r[-1] == 1 for r in rows[1:])
    assert all(ws.cell(row=i, column=13).data_type == "n" for i in range(2, 7))   # a number, sortable
    assert [r[0] for r in rows[1:]] == sorted(r[0] for r in rows[1:])             # positions still numbers


def test_standings_xlsx_after_round_3_says_session_2(arbiter_client, arbiter, session_2_in_play):
    play_round(session_2_in_play.rounds.get(number=3), arbiter)
    rows, _ws = sheet_rows(arbiter_client.get(reverse("standings_xlsx", args=["prova"])).content)
    assert rows[0][-1] == "Sessione" and {r[-1] for r in rows[1:]} == {2}


def test_score_sheets_xlsx_of_each_round_name_its_session(arbiter_client, session_2_in_play):
    """Round 1: session 1; round 3: session 2, on both sheets, every row (a rest row too)."""
    for number, session in ((1, 1), (3, 2)):
        content = arbiter_client.get(reverse("scoresheets_xlsx", args=["prova", number])).content
        hands, ws = sheet_rows(content, "Smazzate")
        tables, ws2 = sheet_rows(content, "Tavoli")
        assert hands[0] == HANDS_HEADINGS + ["Sessione"] and tables[0] == TABLES_HEADINGS + ["Sessione"]
        assert len(tables) == 1 + 3                       # 5 pairs: two tables and a rest
        assert {r[-1] for r in hands[1:] + tables[1:]} == {session}, number
        assert ws2.cell(row=2, column=12).data_type == "n"
    # round 1 was played: 2 tables × 4 hands
    assert len(sheet_rows(arbiter_client.get(reverse("scoresheets_xlsx", args=["prova", 1])).content,
                          "Smazzate")[0]) == 1 + 8


def test_one_session_xlsx_are_unchanged(arbiter_client, one_session_in_play):
    rows, _ws = sheet_rows(arbiter_client.get(reverse("standings_xlsx", args=["prova"])).content)
    assert rows[0] == STANDINGS_HEADINGS and all(len(r) == 12 for r in rows)
    content = arbiter_client.get(reverse("scoresheets_xlsx", args=["prova", 1])).content
    assert sheet_rows(content, "Smazzate")[0][0] == HANDS_HEADINGS
    assert sheet_rows(content, "Tavoli")[0][0] == TABLES_HEADINGS


# -- the public page, the projector --------------------------------------------------------------
def test_public_page_names_the_session_of_the_table_list_and_of_the_standings(client, session_2_in_play):
    page = client.get(reverse("public", args=["prova"])).content.decode()
    assert "Tabellone del turno 3 · Sessione 2</h2>" in page
    assert "Classifica dopo il turno 2 · Sessione 1</h2>" in page


def test_public_page_in_english(client, session_2_in_play, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("public", args=["prova"])).content.decode()
    assert "· Session 2</h2>" in page and "· Session 1</h2>" in page


def test_projector_screens_and_clock_name_the_session(client, session_2_in_play):
    """Five pairs: one screen of tables (3 rows) and one of standings (5 rows)."""
    tables = client.get(reverse("projector", args=["prova"]), {"s": 0}).content.decode()
    assert "Tabellone turno 3 · Sessione 2" in tables and "Sessione 1" not in tables
    standings = client.get(reverse("projector", args=["prova"]), {"s": 1}).content.decode()
    assert "Classifica dopo il turno 2 · Sessione 1" in standings and "Sessione 2" not in standings
    clock = client.get(reverse("projector_clock", args=["prova"])).content.decode()
    assert "turno 3 · Sessione 2" in clock


def test_one_session_pages_say_no_session(client, one_session_in_play):
    for url, query in ((reverse("public", args=["prova"]), {}), (reverse("projector", args=["prova"]), {"s": 0}),
                       (reverse("projector", args=["prova"]), {"s": 1}),
                       (reverse("projector_clock", args=["prova"]), {})):
        page = client.get(url, query).content.decode()
        assert "Sessione" not in page, url
    page = client.get(reverse("public", args=["prova"])).content.decode()
    assert "Tabellone del turno 3</h2>" in page and "Classifica dopo il turno 2</h2>" in page
