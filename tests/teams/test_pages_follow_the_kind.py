"""Pages follow the tournament's kind: the team round page offers no pair-only actions and
pair-only pages send other kinds to their own page, the tournament list counts entrants by
kind, the create form's team scale label is translated and its fields are marked by kind,
the settings show only the kind's fields, an individual tournament's penalties page speaks
of players, and VP are written as Italian pages write numbers ("10", not "10,00"; "−1,5",
not "−1.5")."""
import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse

from tests.forms_data import tournament_settings
from tests.tournaments.individual_helpers import register
from tournaments import services
from tournaments.models import Team, Tournament
from tournaments.services import HandInput

TEAM_FIELDS = ("team_result", "team_scale", "team_min_players", "team_max_players")


@pytest.fixture
def teams5(make_teams_tournament):
    """Five teams, plan RRRRR: one team rests each round (so a pair tournament would offer
    a late pair at the incomplete table of round 1)."""
    return make_teams_tournament(5)


def _play_zero(arbiter, rnd):
    """Publish, enter every table as 0–0 in all four hands, validate and close."""
    rnd = services.publish_round(round=rnd, by=arbiter)
    for table in rnd.tables.filter(bye="").order_by("number"):
        services.save_score_sheet(table=table, by=arbiter, validate=True, hands=[HandInput(ns=0, ew=0)] * 4)
    return services.close_round(round=rnd, by=arbiter)


def _no_pair_actions(body):
    assert "Ritira una coppia" not in body and "Coppia tardiva" not in body
    assert "/ritiro/" not in body and "/coppia-tardiva/" not in body


# ------------------------------------------------------------------ team round page

def test_team_round_page_links_to_the_teams_page_in_every_state(arbiter_client, arbiter, teams5):
    rnd = services.generate_round(tournament=teams5, by=arbiter)
    url, teams_url = reverse("round", args=[teams5.slug, 1]), reverse("teams", args=[teams5.slug])
    for state in ("draft", "published", "closed"):
        if state == "published":
            services.publish_round(round=rnd, by=arbiter)
        if state == "closed":
            for table in rnd.tables.filter(bye="").order_by("number"):
                services.save_score_sheet(table=table, by=arbiter, validate=True, hands=[HandInput(ns=0, ew=0)] * 4)
            services.close_round(round=rnd, by=arbiter)
        body = arbiter_client.get(url).content.decode()
        assert 'id="round-state"' in body and rnd.__class__.objects.get(pk=rnd.pk).state == state
        _no_pair_actions(body)
        assert f'id="teams-actions" href="{teams_url}"' in body, state
        assert "Squadre: ritiri, squadra tardiva, formazioni" in body


def test_pair_round_page_keeps_its_pair_actions(arbiter_client, published):
    body = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    assert "Ritira una coppia" in body and "Coppia tardiva (tavolo zoppo)" in body
    assert 'id="teams-actions"' not in body


@pytest.mark.parametrize("name", ["pair_withdraw", "late_pair"])
def test_pair_only_pages_send_a_team_tournament_to_the_teams_page(arbiter_client, arbiter, teams5, name):
    services.generate_round(tournament=teams5, by=arbiter)
    for method in ("get", "post"):
        resp = getattr(arbiter_client, method)(reverse(name, args=[teams5.slug]) + "?turno=1", follow=True)
        assert resp.redirect_chain[-1][0] == reverse("teams", args=[teams5.slug])
        assert "ritiri e squadre tardive si gestiscono dalla pagina Squadre" in resp.content.decode()
    assert Team.objects.filter(tournament=teams5).count() == 5  # nothing written


@pytest.mark.parametrize("name", ["pair_withdraw", "late_pair"])
def test_pair_only_pages_send_an_individual_tournament_to_the_players_page(arbiter_client, indiv, name):
    resp = arbiter_client.get(reverse(name, args=[indiv.slug]))
    assert resp.status_code == 302 and resp["Location"] == reverse("players", args=[indiv.slug])


def test_pair_withdraw_page_still_offers_the_pairs(arbiter_client, published):
    body = arbiter_client.get(reverse("pair_withdraw", args=["prova"]) + "?turno=1").content.decode()
    assert '<option value="3"' in body  # pair 3 of the five


# ------------------------------------------------------------------ tournament list

def test_tournament_list_counts_entrants_by_kind(arbiter_client, arbiter, teams5, indiv, five):
    register(indiv, arbiter, 13)
    body = arbiter_client.get(reverse("home")).content.decode()
    cells = {m[0]: re.sub(r"<[^>]+>", "", m[1]).split() for m in re.findall(
        r'href="/tornei/([^/]+)/">.*?<td class="num entrants">(.*?)</td>', body)}
    assert cells == {teams5.slug: ["5", "squadre"], "indiv": ["13", "giocatori"], "prova": ["5", "coppie"]}
    assert '<th class="num">Iscritti</th>' in body and '<th class="num">Coppie</th>' not in body


# ------------------------------------------------------------------ English label

def test_create_page_in_english_translates_the_team_scale_label(client, arbiter):
    client.force_login(arbiter)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body = client.get(reverse("tournament_create")).content.decode()
    assert "Tabella VP a squadre" not in body
    assert "Team VP scale (summed margin only)" in body


# ------------------------------------------------------------------ fields by kind

def test_create_form_marks_fields_by_kind_and_loads_its_script(arbiter_client):
    body = arbiter_client.get(reverse("tournament_create")).content.decode()
    assert "js/tournament_form.js" in body
    assert re.search(r'<select name="kind"[^>]*data-kind-select', body)
    assert re.search(r'name="mitchell_step"[^>]*data-kinds="pairs"|data-kinds="pairs"[^>]*name="mitchell_step"', body)
    for name in TEAM_FIELDS:
        tag = re.search(rf'<(?:input|select)[^>]*name="{name}"[^>]*>', body).group(0)
        assert 'data-kinds="teams"' in tag, name
    assert "Per numero di squadra" in body  # the first round's label for teams (data-number-labels)


def test_create_form_script_has_no_inline_code(arbiter_client):
    body = arbiter_client.get(reverse("tournament_create")).content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body)


def test_pair_settings_page_has_no_team_fields_and_saving_keeps_them(arbiter_client, tournament):
    url = reverse("tournament_edit", args=["prova"])
    body = arbiter_client.get(url).content.decode()
    for name in TEAM_FIELDS:
        assert f'name="{name}"' not in body
    assert 'name="mitchell_step"' in body and "Per numero di coppia" in body
    resp = arbiter_client.post(url, tournament_settings(tournament, venue="Sala 2", mitchell_step=2,
                                                       team_result="margin", team_min_players=2))
    assert resp.status_code == 302
    t = Tournament.objects.get(pk=tournament.pk)
    assert (t.venue, t.mitchell_step) == ("Sala 2", 2)
    assert (t.team_result, t.team_min_players, t.team_max_players) == ("sum", 4, 6)  # untouched


def test_team_settings_page_has_no_mitchell_fields_and_saving_works(arbiter_client, teams5):
    url = reverse("tournament_edit", args=[teams5.slug])
    body = arbiter_client.get(url).content.decode()
    assert 'name="mitchell_step"' not in body and "Salto Mitchell" not in body
    assert "Per numero di coppia" not in body and "Per numero di squadra" in body
    for name in TEAM_FIELDS:
        assert f'name="{name}"' in body
    data = tournament_settings(teams5, venue="Sala 3", mitchell_step=4, team_result="sum",
                               team_scale="", team_min_players=4, team_max_players=5)
    resp = arbiter_client.post(url, data)
    assert resp.status_code == 302, resp.content.decode()[:2000]
    t = Tournament.objects.get(pk=teams5.pk)
    assert (t.venue, t.team_max_players, t.mitchell_step) == ("Sala 3", 5, 1)  # the step untouched


def test_individual_settings_page_has_neither_team_nor_mitchell_step(arbiter_client, indiv):
    body = arbiter_client.get(reverse("tournament_edit", args=["indiv"])).content.decode()
    assert 'name="mitchell_step"' not in body and 'name="team_result"' not in body
    assert "Per numero di giocatore" in body


# ------------------------------------------------------------------ wording, VP format

def test_individual_penalties_page_speaks_of_players(arbiter_client, indiv):
    body = arbiter_client.get(reverse("penalties", args=["indiv"])).content.decode()
    assert "VP tolti a un giocatore" in body and "a una coppia" not in body and "della coppia" not in body


def test_team_penalty_of_one_and_a_half_vp_has_a_decimal_comma(arbiter_client, arbiter, teams5):
    services.add_penalty(team=Team.objects.get(tournament=teams5, number=2), vp=Decimal("1.5"),
                         reason="Ritardo", round_number=1, by=arbiter)
    body = arbiter_client.get(reverse("penalties", args=[teams5.slug])).content.decode()
    assert "−1,5 VP" in body and "−1.5 VP" not in body


def test_teams_page_shows_player_vp_without_decimals(arbiter_client, arbiter, teams5):
    _play_zero(arbiter, services.generate_round(tournament=teams5, by=arbiter))
    body = arbiter_client.get(reverse("teams", args=[teams5.slug])).content.decode()
    # vp20-4h: a 0–0 table is a draw, 10–10; each player of the four playing teams played
    # one table: 10 VP, MP difference 0 (the resting team's players: 0 tables, 0 VP).
    rows = re.findall(r'<tr><td>[^<]*</td><td class="num">\d+</td><td class="num">(\d+)</td>'
                      r'<td class="num">([^<]*)</td><td class="num">([^<]*)</td></tr>', body)
    assert sorted(rows) == [("0", "0", "0")] * 4 + [("1", "10", "0")] * 16
    assert ",00" not in body
