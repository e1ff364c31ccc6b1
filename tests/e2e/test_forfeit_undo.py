"""Browser test: a forfeit in a team match asks for confirmation (the teams, the rest VP to
the opponent, the tables removed) and a reason, and is undone from the round page until the
round closes; the match's two tables come back with the same numbers and captains' links.

Four teams, plan RR, round 1 published: match 1 = 1 v 4 at tables 1–2 (pairing-io.md round
robin, 4 entrants). Rest = 70 % of 40 = 28 VP."""
from __future__ import annotations

import datetime
import os
import shutil

import pytest

from tests.e2e.helpers import arbiter_context

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("chromium") is None and not os.environ.get("CI"),
                       reason="Debian Chromium not installed"),
]


@pytest.fixture
def team_round(django_user_model):
    from tests.teams.helpers import players
    from tournaments import services

    arbiter = django_user_model.objects.create_user(username="arbitro-forfait", password="segreta-123")
    t = services.create_tournament(by=arbiter, name="Squadre", slug="forfait", date=datetime.date(2026, 12, 1),
                                   kind="teams", plan="RR", hands_per_round=4, vp_scale="vp20-4h")
    for k in range(1, 5):
        services.add_team(tournament=t, name=f"Squadra {k}", players=players(f"T{k}p"), by=arbiter)
    rnd = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    return arbiter, rnd


def test_forfeit_confirm_then_undo(chromium, live_server, team_round):
    from tournaments.models import AuditEntry, Match

    arbiter, rnd = team_round
    tokens = dict(rnd.tables.values_list("number", "token"))
    ctx = arbiter_context(chromium, live_server, arbiter)
    page = ctx.new_page()
    page.goto(live_server.url + "/tornei/forfait/turni/1/")
    page.click("#match-1 details summary")
    page.select_option("#match-1 select[name=team]", "4")
    with page.expect_navigation():
        page.click("#forfeit-1")
    effect = page.inner_text("#forfeit-effect")
    assert "La squadra 4 Squadra 4 dà forfait contro la squadra 1 Squadra 1" in effect
    assert "la squadra 1 riceve 28 VP (il punteggio del riposo), la squadra 4 0 VP." in effect
    assert Match.objects.get(round=rnd, number=1).bye == ""  # nothing happened yet
    page.click("#forfeit-confirm")                            # the reason is required first
    assert page.evaluate("document.getElementById('forfeit-reason').validity.valueMissing") is True
    page.fill("#forfeit-reason", "squadra 4 con tre giocatori")
    with page.expect_navigation():
        page.click("#forfeit-confirm")
    assert "Forfait della squadra 4 registrato" in page.inner_text(".messages, main")
    assert page.locator("#table-1").count() == 0 and page.locator("#table-3").count() == 1
    assert "Forfait della squadra 4 Squadra 4" in page.inner_text("#match-1")
    assert AuditEntry.objects.get(action="match_forfeit").reason == "squadra 4 con tre giocatori"
    with page.expect_navigation():
        page.click("#undo-forfeit-1")
    assert "Forfait annullato" in page.inner_text("main")
    assert page.locator("#table-1").count() == 1 and page.locator("#table-2").count() == 1
    assert dict(rnd.tables.values_list("number", "token")) == tokens  # same captains' links
    assert Match.objects.get(round=rnd, number=1).bye == ""
    ctx.close()
