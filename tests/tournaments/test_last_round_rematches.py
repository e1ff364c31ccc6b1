"""«Ultimo turno: rivincite ammesse» (rules.md §7, off by default): in the plan's last round
(the tournament's, not a session's) a Danish round of pairs or teams may repeat a meeting;
the draft says so; the individual Danish keeps its no-repeated-partner rule.

Four pairs, plan DD, 4 hands, vp20-4h. Round 1 by number: 1 v 2, 3 v 4. Table 1 500–500 and
table 2 100–100: every pair 10 VP, MP difference 0, not all met (no head-to-head), MP scored
500, 500, 100, 100: ranking 1, 2, 3, 4. Round 2 natural 1 v 2 is a rematch: with the rule,
1 v 3, 2 v 4; lifted, 1 v 2, 3 v 4."""
import datetime

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.kinds.teams import build_team_request
from tournaments.services import HandInput


@pytest.fixture
def make(db, arbiter, make_pairs):
    def build(plan="DD", **settings):
        t = services.create_tournament(by=arbiter, name="Danese", slug=f"danese-{plan.replace('|', '-').lower()}",
                                       date=datetime.date(2026, 12, 1), plan=plan, first_round="number",
                                       hands_per_round=4, vp_scale="vp20-4h", **settings)
        make_pairs(t, 4)
        rnd = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter,
                                     acknowledge_warnings=True)
        scores = {1: (500, 500), 2: (100, 100)}
        for table in rnd.tables.filter(bye="").order_by("number"):
            assert {table.ns.number, table.ew.number} == ({1, 2} if table.number == 1 else {3, 4})
            ns, ew = scores[table.number]
            services.save_score_sheet(table=table, by=arbiter, validate=True,
                                      hands=[HandInput(ns, ew)] + [HandInput(0, 0)] * 3)
        services.close_round(round=rnd, by=arbiter)
        return t, services.generate_round(tournament=t, by=arbiter)
    return build


def meetings(rnd):
    return sorted(tuple(sorted((t.ns.number, t.ew.number))) for t in rnd.tables.filter(bye=""))


def test_off_by_default_no_rematch(make):
    t, r2 = make()
    assert t.last_round_rematches is False
    assert meetings(r2) == [(1, 3), (2, 4)] and "allow_rematch" not in r2.pairing_request


def test_lifted_in_the_last_round(make):
    t, r2 = make(last_round_rematches=True)
    assert r2.pairing_request["allow_rematch"] is True
    assert meetings(r2) == [(1, 2), (3, 4)]
    assert r2.check_report == []


def test_not_lifted_before_the_last_round(make):
    _t, r2 = make(plan="DDD", last_round_rematches=True)
    assert meetings(r2) == [(1, 3), (2, 4)] and "allow_rematch" not in r2.pairing_request


def test_the_last_round_of_a_session_is_not_the_last_round(make):
    _t, r2 = make(plan="DD|DD", last_round_rematches=True)
    assert "allow_rematch" not in r2.pairing_request


def test_switching_it_on_outdates_the_draft(make, arbiter):
    t, r2 = make()
    services.update_tournament(tournament=t, by=arbiter, last_round_rematches=True)
    from tournaments.models import Round

    reasons = services.draft_staleness(Round.objects.get(pk=r2.pk))
    assert reasons[0] == "«ultimo turno: rivincite ammesse» è cambiato: era no, ora sì."


def test_draft_page_says_so(make, arbiter_client):
    t, _r2 = make(last_round_rematches=True)
    page = arbiter_client.get(reverse("round", args=[t.slug, 2])).content.decode()
    assert 'id="last-round-rematches"' in page and "Ultimo turno del piano: rivincite ammesse" in page
    t2, _ = make(plan="DDD", last_round_rematches=True)
    assert 'id="last-round-rematches"' not in arbiter_client.get(reverse("round", args=[t2.slug, 2])).content.decode()


def test_teams_danish_last_round_sends_the_flag(make_teams_tournament):
    t = make_teams_tournament(4, plan="DD", last_round_rematches=True)
    assert build_team_request(t, 2)["allow_rematch"] is True
    assert "allow_rematch" not in build_team_request(t, 1)


def test_individual_danish_has_no_such_flag(db, arbiter):
    t = services.create_tournament(by=arbiter, name="Ind", slug="ind-last", date=datetime.date(2026, 12, 1),
                                   kind="individual", plan="DD", last_round_rematches=True)
    from tournaments.services.pairing_requests import build_pairing_request

    for k in range(1, 9):
        services.add_player(tournament=t, by=arbiter, player=services.PlayerData(first_name=f"N{k}",
                                                                                 last_name=f"C{k}"))
    assert "allow_rematch" not in build_pairing_request(t, 2)


def test_settings_page_offers_it_for_pairs_and_teams_only(arbiter_client, make, make_teams_tournament, arbiter):
    t, _ = make()
    page = arbiter_client.get(reverse("tournament_edit", args=[t.slug])).content.decode()
    assert 'name="last_round_rematches"' in page and "ultimo turno: rivincite ammesse" in page.lower()
    ind = services.create_tournament(by=arbiter, name="Ind", slug="ind-form", date=datetime.date(2026, 12, 1),
                                     kind="individual", plan="DD")
    assert 'name="last_round_rematches"' not in arbiter_client.get(
        reverse("tournament_edit", args=[ind.slug])).content.decode()
