"""The nouns and headings
follow the tournament's kind (pairs: coppia/coppie, individual: giocatore/giocatori, teams:
squadra/squadre) on the standings page, its PDF and XLSX, the groups page and the draft's
swap message."""
from __future__ import annotations

import io
import re

import pytest
from django.conf import settings
from django.urls import reverse
from openpyxl import load_workbook

from tests.i18n.conftest import english_catalogue  # noqa: F401 (the compiled English catalogue)
from tests.tournaments.helpers import headings
from tournaments import services, wording
from tournaments.models import Player
from tournaments.printing import documents

from .individual_helpers import play, register

# ------------------------------------------------------------------ the helper

def test_by_kind_picks_the_sentence_of_the_kind():
    assert [wording.by_kind(k, pairs="c", individual="g", teams="s")
            for k in ("pairs", "individual", "teams")] == ["c", "g", "s"]
    assert wording.standings_headings("pairs") == ("Coppia", "Giocatori")
    assert wording.standings_headings("individual") == ("N.", "Giocatore")
    assert wording.standings_headings("teams") == ("N.", "Squadra")
    assert [wording.withdrawn_heading(k) for k in ("pairs", "individual", "teams")] == [
        "Ritirata", "Ritirato", "Ritirata"]


# ------------------------------------------------------------------ individual standings

@pytest.fixture
def indiv_played(indiv, arbiter):  # noqa: F811
    """8 players, round 1 played (table 1: N/S 600–0) and closed, player 8 withdrawn from round 2."""
    register(indiv, arbiter, 8)
    play(services.generate_round(tournament=indiv, by=arbiter), arbiter, {1: (600, 0)})
    services.withdraw_player(player=Player.objects.get(tournament=indiv, number=8), from_round=2, by=arbiter)
    return indiv


def test_individual_standings_page_says_n_giocatore_and_ritirato(arbiter_client, indiv_played):
    html = arbiter_client.get(reverse("standings", args=["indiv"])).content.decode()
    heads = headings(html)
    # number column "N.", name column "Giocatore", the withdrawn column masculine
    assert heads[1:3] == ["N.", "Giocatore"] and "Ritirato" in heads
    assert "Ritirata" not in heads and "Nome" not in heads
    row8 = re.search(r"<tr[^>]*>\s*<td[^>]*>[^<]*</td>\s*<td[^>]*>8</td>.*?</tr>", html, re.S).group(0)
    assert "ritirato" in row8 and "ritirata" not in html


def test_individual_standings_xlsx_and_pdf_use_the_same_headings(arbiter_client, indiv_played):
    xlsx = arbiter_client.get(reverse("standings_xlsx", args=["indiv"]) + "?dopo=1").content
    ws = load_workbook(io.BytesIO(xlsx)).active
    header = [c.value for c in ws[1]]
    assert header[2:4] == ["N.", "Giocatore"] and header[10] == "Ritirato"
    row8 = next(r for r in ws.iter_rows(min_row=2, values_only=True) if r[2] == 8)
    assert row8[10] == "sì"
    html = documents.standings_html(documents.standings_document(indiv_played))
    th = [re.sub(r"<[^>]+>", "", t).strip() for t in re.findall(r"<th[^>]*>(.*?)</th>", html, re.S)]
    assert th[1:3] == ["N.", "Giocatore"]
    assert "(ritirato)" in html and "ritirata" not in html


def test_pair_standings_keep_coppia_giocatori_ritirata(arbiter_client, tournament, make_pairs, arbiter):
    """A pair tournament is unchanged: "Coppia", "Giocatori", "Ritirata"."""
    make_pairs(tournament, 4)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    play(rnd, arbiter, {})
    html = arbiter_client.get(reverse("standings", args=["prova"])).content.decode()
    heads = headings(html)
    assert heads[1:3] == ["Coppia", "Giocatori"] and "Ritirata" in heads
    ws = load_workbook(io.BytesIO(arbiter_client.get(reverse("standings_xlsx", args=["prova"])).content)).active
    assert [c.value for c in ws[1]][2:4] == ["Coppia", "Giocatori"] and ws.cell(1, 11).value == "Ritirata"


# ------------------------------------------------------------------ the pair groups page unchanged

def test_groups_page_of_a_pair_tournament_keeps_coppie(arbiter_client, tournament, make_pairs):
    make_pairs(tournament, 8)
    tournament.plan = "RRR"
    tournament.save(update_fields=["plan"])
    html = arbiter_client.get(reverse("groups", args=["prova"])).content.decode()
    assert "Dividi le coppie" in html and 'aria-label="Girone della coppia 1"' in html
    assert headings(html, "hand-groups") == ["Coppia", "Giocatori", "Girone"]
    assert "squadr" not in html.lower()


# ------------------------------------------------------------------ in English

def test_individual_standings_in_english(client, arbiter, indiv_played, english_catalogue):  # noqa: F811
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(arbiter)
    html = client.get(reverse("standings", args=["indiv"])).content.decode()
    heads = headings(html)
    assert heads[1:3] == ["No.", "Player"] and "Withdrawn" in heads and ">withdrawn<" in html
