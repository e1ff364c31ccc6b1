"""The default line-up, worked through the pages (rules.md §15, art. 2: the
line-up "modificabili prima dell'inizio della partita", entered by the arbiter or the team
captain; by default it repeats the previous one).

Five teams, round robin. Team 3's round-1 line-up is entered by the arbiter on its line-up
page, team 1's by its captain on the private link page (a phone: no login). Team 1 rests in
round 1, team 4 forfeits against team 3 on the forfeit confirmation page. Round 2's draft
must seat the two line-ups entered for round 1 (not each team's first four players), and the
draft and both line-up pages say they come from round 1."""
import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Match, Round, Team
from tournaments.services import HandInput

ORIGIN_R1 = "Formazione inserita per il turno 1 (nessuna nuova formazione da allora)."
# the chosen line-ups: not the registration order (1+2, 3+4) the bug fell back to
TEAM_1 = [["T1p2", "T1p4"], ["T1p3", "T1p1"]]
TEAM_3 = [["T3p3", "T3p1"], ["T3p4", "T3p2"]]


def _hidden(page: str, form_id: str | None = None) -> dict:
    """The hidden inputs of a page's form (the first form, or the one with ``form_id``)."""
    form = (page.split(f'id="{form_id}"', 1)[1] if form_id else page.split("<form", 1)[1]).split("</form>", 1)[0]
    return {name: html.unescape(value) for name, value in
            re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)}


def _lineup_post(page: str, team: Team, pairs: list[list[str]]) -> dict:
    """What the line-up form posts: its hidden round and the four chosen players."""
    ids = {p.last_name: p.pk for p in team.members.all()}
    data = _hidden(page, "lineup-form")
    data.update({f"p{k}": ids[name] for k, name in enumerate(n for pair in pairs for n in pair)})
    return data


def _formed(rnd, number):
    return {pr.team_line: [m.player.last_name for m in pr.line_members.order_by("seat")]
            for pr in rnd.formed_pairs.filter(team__number=number)}


def _current(page: str) -> str:
    return page.split('id="lineup-current"', 1)[1].split("</p>", 1)[0]


def _shown(pairs: list[list[str]]) -> str:
    """«Formazione attuale:» as the page writes it: "<b>A</b> T3p3 N3 + T3p1 N1 · <b>B</b> …"
    (a player's display name is surname then first name; player k's first name is Nk)."""
    return " · ".join(f"<b>{side}</b> " + " + ".join(f"{n} N{n[-1]}" for n in pair)
                      for side, pair in zip("AB", pairs, strict=True))


def _selected(page: str) -> list[str]:
    """The player preselected in each of the form's four menus (surname)."""
    form = page.split('id="lineup-form"', 1)[1].split("</form>", 1)[0]
    return [re.search(r'<option value="\d+" selected>(\S+)', select).group(1)
            for select in form.split("<select")[1:]]


@pytest.mark.parametrize("when", ["before_the_draw", "on_the_draft"])
def test_lineups_entered_for_round_1_survive_a_rest_and_a_forfeit(make_teams_tournament, arbiter_client,
                                                                   arbiter, when):
    t = make_teams_tournament(5, plan="RRRRR")
    team_1, team_3 = (Team.objects.get(tournament=t, number=n) for n in (1, 3))
    captain = Client()  # the captain's phone: its own browser, never logged in

    def generate():
        page = arbiter_client.get(reverse("round_generate", args=[t.slug])).content.decode()
        assert arbiter_client.post(reverse("round_generate", args=[t.slug]), _hidden(page)).status_code == 302

    def enter_lineups():
        url = reverse("team_lineup", args=[t.slug, 3])
        page = arbiter_client.get(url).content.decode()
        assert 'name="round" value="1"' in page
        response = arbiter_client.post(url, _lineup_post(page, team_3, TEAM_3))
        assert response.status_code == 302, response.content.decode()
        url = reverse("team_captain", args=[team_1.token])
        page = captain.get(url).content.decode()
        assert 'name="round" value="1"' in page
        saved = captain.post(url, _lineup_post(page, team_1, TEAM_1)).content.decode()
        assert 'id="lineup-saved"' in saved and 'id="lineup-error"' not in saved

    if when == "before_the_draw":
        enter_lineups()
        generate()
    else:
        generate()
        enter_lineups()
    r1 = t.rounds.get(number=1)
    assert r1.state == Round.State.DRAFT
    # round robin of 5 (pairing-io.md, phantom 6): 1 v 6 is team 1's rest, 2 v 5, 3 v 4
    assert r1.matches.get(team_a__number=1).bye == "rest"
    match = r1.matches.get(team_a__number=3)
    assert match.team_b.number == 4
    assert _formed(r1, 3) == {1: TEAM_3[0], 2: TEAM_3[1]}

    page = arbiter_client.get(reverse("round_publish", args=[t.slug, 1])).content.decode()
    assert arbiter_client.post(reverse("round_publish", args=[t.slug, 1]), _hidden(page)).status_code == 302
    r1.refresh_from_db()
    assert r1.state == Round.State.PUBLISHED

    # team 4 forfeits: the confirmation page, then its form with a reason
    url = reverse("match_forfeit", args=[t.slug, 1, match.number])
    page = arbiter_client.get(url, {"team": 4}).content.decode()
    assert 'id="forfeit-effect"' in page
    data = {**_hidden(page, "forfeit-form"), "reason": "squadra 4 assente", "confirm": "1"}
    assert arbiter_client.post(url, data).status_code == 302
    match.refresh_from_db()
    assert (match.bye, match.forfeit_by.number) == (Match.Bye.FORFEIT, 4)

    tables = list(r1.tables.filter(bye=""))
    assert len(tables) == 2  # match 2 v 5 only; its sheets are not what this test is about
    for table in tables:
        services.save_score_sheet(table=table, by=arbiter, hands=[HandInput(0, 0)] * 4)
    assert arbiter_client.post(reverse("round_validate_all", args=[t.slug, 1])).status_code == 302
    assert arbiter_client.post(reverse("round_close", args=[t.slug, 1])).status_code == 302
    r1.refresh_from_db()
    assert r1.state == Round.State.CLOSED

    generate()
    r2 = t.rounds.get(number=2)
    assert r2.state == Round.State.DRAFT
    # both teams play in round 2 and sit with the line-ups entered for round 1
    assert _formed(r2, 1) == {1: TEAM_1[0], 2: TEAM_1[1]}
    assert _formed(r2, 3) == {1: TEAM_3[0], 2: TEAM_3[1]}

    draft = arbiter_client.get(reverse("round", args=[t.slug, 2])).content.decode()
    assert f'data-team="1">Squadra 1: {ORIGIN_R1}' in draft
    assert f'data-team="3">Squadra 3: {ORIGIN_R1}' in draft

    page = arbiter_client.get(reverse("team_lineup", args=[t.slug, 3])).content.decode()
    assert 'name="round" value="2"' in page and ORIGIN_R1 in page
    assert _selected(page) == [n for pair in TEAM_3 for n in pair]
    assert _current(page).endswith(_shown(TEAM_3))
    page = captain.get(reverse("team_captain", args=[team_1.token])).content.decode()
    assert 'name="round" value="2"' in page and ORIGIN_R1 in page
    assert _selected(page) == [n for pair in TEAM_1 for n in pair]
    assert _current(page).endswith(_shown(TEAM_1))
