"""The penalty form offers the entrants by number and name (rules.md §3, art. 23): the
arbiter picks "3 Rossi3 Anna3 – Verdi3 Bruno3", not a bare number he must look up."""
from __future__ import annotations

import re
from decimal import Decimal

from django.urls import reverse

from tests.tournaments.individual_helpers import register
from tournaments import services
from tournaments.models import Penalty


def _options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return [re.sub(r"\s+", " ", o).strip() for o in re.findall(r"<option[^>]*>(.*?)</option>", select, re.S)]


def test_pair_penalty_form_lists_the_pairs_by_number_and_names(arbiter_client, tournament, make_pairs):
    make_pairs(tournament, 3)
    html = arbiter_client.get(reverse("penalties", args=[tournament.slug])).content.decode()
    assert _options(html, "pair") == ["—", "1 Rossi1 Anna1 – Verdi1 Bruno1", "2 Rossi2 Anna2 – Verdi2 Bruno2",
                                      "3 Rossi3 Anna3 – Verdi3 Bruno3"]
    assert "Coppia (numero)" not in html


def test_choosing_a_pair_records_its_penalty(arbiter_client, tournament, make_pairs):
    make_pairs(tournament, 3)
    resp = arbiter_client.post(reverse("penalties", args=[tournament.slug]),
                               {"pair": "2", "vp": "1", "reason": "Ritardo"})
    assert resp.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.pair.number, penalty.vp) == (2, Decimal(1))


def test_a_pair_of_another_tournament_is_refused(arbiter_client, tournament, make_pairs):
    make_pairs(tournament, 2)
    resp = arbiter_client.post(reverse("penalties", args=[tournament.slug]),
                               {"pair": "7", "vp": "1", "reason": "Ritardo"})
    assert resp.status_code == 200 and "Scegli una coppia del torneo." in resp.content.decode()
    assert not Penalty.objects.exists()


def test_team_penalty_form_lists_the_teams_by_number_and_name(arbiter_client, make_teams_tournament):
    t = make_teams_tournament(3)
    html = arbiter_client.get(reverse("penalties", args=[t.slug])).content.decode()
    assert _options(html, "team") == ["—", "1 Squadra 1", "2 Squadra 2", "3 Squadra 3"]


def test_individual_penalties_go_to_the_named_player_rows(arbiter_client, indiv, arbiter):
    """An individual tournament penalises players (rules.md §9): its Penalità page offers no
    pair menu but leads to the Giocatori page, where each player's row (number and name) has
    its own penalty form."""
    register(indiv, arbiter, 8)
    services.publish_round(round=services.generate_round(tournament=indiv, by=arbiter), by=arbiter,
                           acknowledge_warnings=True)
    html = arbiter_client.get(reverse("penalties", args=[indiv.slug])).content.decode()
    assert '<select name="pair"' not in html and "Coppia (numero)" not in html
    assert f'href="{reverse("players", args=[indiv.slug])}"' in html
    players = arbiter_client.get(reverse("players", args=[indiv.slug])).content.decode()
    row = players.split('<tr id="player-3"')[1].split("</tr>")[0]
    assert "Cognome3" in row and f'action="{reverse("player_penalty", args=[indiv.slug, 3])}"' in row
    resp = arbiter_client.post(reverse("player_penalty", args=[indiv.slug, 3]),
                               {"amount": "1", "unit": "vp", "reason": "Ritardo"})
    assert resp.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.player.number, penalty.vp, penalty.pair) == (3, Decimal(1), None)
