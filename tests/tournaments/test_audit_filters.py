"""The Registro's filters: round, table, entrant, kind of action, who (GET parameters).

4 pairs, round 1 by Mitchell (rules.md §6): N/S 1, 2 at tables 1, 2, E/W 3, 4 → table 1 is
1 v 3, table 2 is 2 v 4. Table 1's sheet is entered by its N/S captain, table 2's by the
arbiter; pair 2 gets a 1-VP penalty.
"""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.services import Actor, HandInput

HANDS = [HandInput(600, 200), HandInput(400, 150), HandInput(250, 300), HandInput(300, 195)]


@pytest.fixture
def trail(tournament, make_pairs, arbiter):
    make_pairs(tournament, 4)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter)
    services.save_score_sheet(table=rnd.tables.get(number=1), hands=HANDS, by=Actor("capitano N/S tavolo 1"))
    services.save_score_sheet(table=rnd.tables.get(number=2), hands=HANDS, by=arbiter)
    services.add_penalty(pair=tournament.pairs.get(number=2), vp=1, reason="Ritardo", by=arbiter)
    return tournament


def _rows(client, **query) -> list[tuple[str, str, str, str]]:
    """(who, what, round, table) of every row of the Registro with ``query``."""
    body = client.get(reverse("audit", args=["prova"]), query).content.decode()
    tbody = body.split('<table class="grid compact" id="audit">')[1].split("</tbody>")[0]
    rows = []
    for tr in re.findall(r"<tr>(.*?)</tr>", tbody, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
        if len(cells) >= 5:
            rows.append((cells[1], cells[2], cells[3], cells[4]))
    return rows


def test_entrant_filter_keeps_the_entries_naming_the_pair_and_of_its_table(arbiter_client, trail):
    rows = _rows(arbiter_client, entrant="1")
    whats = [w for _who, w, _r, _t in rows]
    assert "Score inserito" in whats and "Coppia aggiunta" in whats
    assert all(t in ("", "1") for _who, _w, _r, t in rows)  # table 2 (pairs 2 and 4) left out
    assert "Penalità assegnata" not in whats
    assert "Penalità assegnata" in [w for _who, w, _r, _t in _rows(arbiter_client, entrant="2")]


def test_kind_of_action_filter(arbiter_client, trail):
    rows = _rows(arbiter_client, action="penalita")
    assert [w for _who, w, _r, _t in rows] == ["Penalità assegnata"]
    rows = _rows(arbiter_client, action="score")
    assert sorted(t for _who, _w, _r, t in rows) == ["1", "2"]


def test_who_filter_captains_or_one_arbiter(arbiter_client, arbiter, trail):
    rows = _rows(arbiter_client, who="captain")
    assert rows == [("capitano N/S tavolo 1", "Score inserito", "1", "1")]
    rows = _rows(arbiter_client, who=f"arbiter:{arbiter.username}")
    assert rows and all(who == f"{arbiter.username} (arbitro)" for who, *_rest in rows)
    assert ("Score inserito", "2") in [(w, t) for _who, w, _r, t in rows]


def test_round_and_table_together(arbiter_client, trail):
    assert [(w, r, t) for _who, w, r, t in _rows(arbiter_client, round="1", table="2")] == [
        ("Score inserito", "1", "2")]


def test_form_offers_the_trail_s_choices_without_codes(arbiter_client, arbiter, trail):
    body = arbiter_client.get(reverse("audit", args=["prova"])).content.decode()
    form = body.split('id="audit-filters"')[1].split("</form>")[0]
    assert '<option value="2">2 Rossi2 Anna2 – Verdi2 Bruno2</option>' in form
    assert '<option value="penalita">Penalità</option>' in form and '<option value="score">Score</option>' in form
    assert '<option value="captain">capitani dei tavoli</option>' in form
    assert f'<option value="arbiter:{arbiter.username}">{arbiter.username} (arbitro)</option>' in form
    assert "sheet_saved" not in body and "penalty_added" not in body


def test_round_menu_offers_each_round_once(arbiter_client, trail):
    """Round 1 has several entries (generated, published, two sheets, the penalty): one option."""
    body = arbiter_client.get(reverse("audit", args=["prova"])).content.decode()
    form = body.split('id="audit-filters"')[1].split("</form>")[0]
    menu = form.split('name="round"')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\d+)"', menu) == ["1"]


@pytest.mark.parametrize("query", [{"round": "abc"}, {"entrant": "1o"}, {"action": "sheet_saved"},
                                   {"who": "arbiter:nobody"}, {"table": "99999999999"}])
def test_bad_filter_values_are_ignored(arbiter_client, trail, query):
    response = arbiter_client.get(reverse("audit", args=["prova"]), query)
    assert response.status_code == 200
    assert len(_rows(arbiter_client, **query)) == len(_rows(arbiter_client))
