"""Wording of a team tournament (polish – wording): the groups page, its refusals, the
draft's swap and rest messages and the standings headings say squadra/squadre, not coppia."""
from __future__ import annotations

import io
import re

import pytest
from django.conf import settings
from django.urls import reverse
from openpyxl import load_workbook

from tests.i18n.conftest import english_catalogue, italian_to_english  # noqa: F401 (fixtures)
from tests.i18n.helpers import leftovers
from tests.tournaments.helpers import headings
from tournaments import services
from tournaments.printing import documents


@pytest.fixture
def eight_teams(make_teams_tournament):
    return make_teams_tournament(8, plan="RRR")


def test_groups_page_of_a_team_tournament_speaks_of_squadre(arbiter_client, eight_teams):
    url = reverse("groups", args=[eight_teams.slug])
    html = arbiter_client.get(url).content.decode()
    assert "Dividi le squadre" in html and "il girone di ogni squadra" in html
    assert "tutte le squadre giocano" in html and "le squadre in ordine di numero" in html
    assert "1 = un solo girone con tutte le squadre." in html
    assert 'aria-label="Girone della squadra 1"' in html
    assert headings(html, "hand-groups") == ["N.", "Squadra", "Girone"]
    assert "coppi" not in html.lower()
    resp = arbiter_client.post(url, {"count": "2", "method": "snake"}, follow=True)
    assert "Squadre divise in 2 gironi." in resp.content.decode()
    # by hand, team 3 without a group: the refusal names the team
    posted = {"count": "2", "method": "hand", **{f"g{n}": str(1 + n % 2) for n in range(1, 9) if n != 3}}
    html = arbiter_client.post(url, posted).content.decode()
    assert "Squadra 3: scrivi il numero del girone." in html
    # 8 teams make at most 4 groups of 2 (rules.md §14)
    html = arbiter_client.post(url, {"count": "5", "method": "snake"}).content.decode()
    assert "Con 8 squadre si fanno al massimo 4 gironi (almeno 2 squadre per girone)." in html


def test_groups_refusals_of_the_service_name_squadre(eight_teams, arbiter):
    from tournaments.errors import ArbiterError

    with pytest.raises(ArbiterError, match="Manca il girone delle squadre 8"):
        services.split_groups(tournament=eight_teams, by=arbiter, count=2, method="hand",
                              assignment={n: 1 + n % 2 for n in range(1, 8)})
    with pytest.raises(ArbiterError, match="Il girone 2 ha meno di 2 squadre"):
        services.split_groups(tournament=eight_teams, by=arbiter, count=2, method="hand",
                              assignment={n: 1 for n in range(1, 8)} | {8: 2})
    services.split_groups(tournament=eight_teams, by=arbiter, count=2, method="snake")
    eight_teams.teams.filter(number=8).update(group=None)
    eight_teams.refresh_from_db()
    assert services.groups_refusal(eight_teams) == (
        "Le squadre 8 non hanno un girone: dividi di nuovo le squadre nei gironi.")


def test_swap_and_rest_messages_of_a_team_draft_name_squadre(arbiter_client, make_teams_tournament, arbiter):
    t = make_teams_tournament(5, plan="RRRRR")
    services.generate_round(tournament=t, by=arbiter)
    url = reverse("round_swap", args=[t.slug, 1])
    html = arbiter_client.post(url, {"pair_a": "2", "pair_b": "3"}, follow=True).content.decode()
    assert "Squadre 2 e 3 scambiate." in html and "Coppie" not in html
    html = arbiter_client.post(url, {"pair_a": "2", "pair_b": "2"}, follow=True).content.decode()
    assert "Indica due numeri di squadra diversi." in html
    html = arbiter_client.post(url, {"pair_a": "2", "pair_b": "9"}, follow=True).content.decode()
    assert "La squadra 9 non è in questo turno." in html
    html = arbiter_client.post(reverse("round_rest", args=[t.slug, 1]), {"pair": "4"}, follow=True).content.decode()
    assert "Ora riposa la squadra 4." in html


def test_team_standings_page_xlsx_and_pdf_headings(arbiter_client, make_teams_tournament, arbiter):
    from tests.teams.helpers import play

    t = make_teams_tournament(4, plan="RRR")
    play(arbiter, services.generate_round(tournament=t, by=arbiter))
    html = arbiter_client.get(reverse("standings", args=[t.slug])).content.decode()
    assert headings(html)[1:3] == ["N.", "Squadra"] and "Ritirata" in headings(html)
    ws = load_workbook(io.BytesIO(arbiter_client.get(reverse("standings_xlsx", args=[t.slug])).content)).active
    assert [c.value for c in ws[1]][2:4] == ["N.", "Squadra"]
    pdf_html = documents.standings_html(documents.standings_document(t))
    th = [re.sub(r"<[^>]+>", "", x).strip() for x in re.findall(r"<th[^>]*>(.*?)</th>", pdf_html, re.S)]
    assert th[1:3] == ["N.", "Squadra"]


def test_groups_page_of_a_team_tournament_in_english(client, arbiter, eight_teams, italian_to_english):  # noqa: F811
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(arbiter)
    html = client.get(reverse("groups", args=[eight_teams.slug])).content.decode()
    assert "Split the teams" in html and "every team plays the round robin together" in html
    assert "pair" not in html.lower()
    # the fixture's tournament is called "Squadre", the one Italian word left (data, not UI)
    assert [w for w in leftovers(html, italian_to_english) if w != eight_teams.name] == []
