"""Issue 11, the last gaps: the kind frozen once there are entrants, the per-player tie-breaks
(rules.md §9), withdrawals from a later round and the late player from the players page.

Expected values worked by hand, scale vp20-4h (rules.md §4): difference 0–100 → 10–10,
105–300 → 11–9, 305–500 → 12–8, 505–700 → 13–7; a rest (plain or forced) scores 70 % of
20 = 14 VP and 0 MP (§5).
"""
import datetime

import pytest
from django.urls import reverse

from tests.forms_data import tournament_settings
from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Player, Table, Tournament
from tournaments.services import HandInput, PlayerData


@pytest.fixture
def indiv(db, arbiter):
    return services.create_tournament(
        by=arbiter, name="Individuale", slug="indiv", date=datetime.date(2026, 12, 1), kind="individual",
        plan="DDD",
    )


def register(tournament, arbiter, n):
    return [services.add_player(tournament=tournament, by=arbiter,
                                player=PlayerData(first_name=f"Nome{k}", last_name=f"Cognome{k}"))
            for k in range(1, n + 1)]


def seating(rnd):
    tables, rest, forced = {}, [], []
    for t in selectors.round_tables(rnd):
        lines = {s.line: [p.number for p in s.pair.players] for s in t.seats.all()}
        if t.bye == Table.Bye.REST:
            rest += lines["ns"]
        elif t.bye == Table.Bye.FORCED:
            forced += lines["ns"]
        else:
            tables[t.number] = (lines["ns"], lines["ew"])
    return tables, rest, forced


def play(rnd, arbiter, scores):
    rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    for t in rnd.tables.filter(bye=""):
        ns, ew = scores.get(t.number, (0, 0))
        services.save_score_sheet(table=t, hands=[HandInput(ns, ew)] + [HandInput(0, 0)] * 3, by=arbiter,
                                  validate=True)
    return services.close_round(round=rnd, by=arbiter)


# --------------------------------------------------------------------------- item 3: the kind is frozen

def test_kind_changes_freely_before_any_entrant(tournament, arbiter):
    services.update_tournament(tournament=tournament, by=arbiter, kind="individual")
    tournament.refresh_from_db()
    # the pairs' default order becomes the per-player one (rules.md §9)
    assert (tournament.kind, tournament.tiebreaks) == ("individual", "vp,mp_difference,mp_scored")
    services.update_tournament(tournament=tournament, by=arbiter, kind="pairs")
    tournament.refresh_from_db()
    assert tournament.kind == "pairs"


def test_pairs_to_individual_refused_once_a_pair_is_registered(tournament, arbiter, make_pairs):
    make_pairs(tournament, 1)
    with pytest.raises(ArbiterError, match="non si può più cambiare: ci sono già 1 iscritti"):
        services.update_tournament(tournament=tournament, by=arbiter, kind="individual")
    tournament.refresh_from_db()
    assert tournament.kind == "pairs"  # nothing lost


def test_individual_to_pairs_refused_once_a_player_is_registered_or_round_one_drawn(indiv, arbiter):
    register(indiv, arbiter, 8)
    with pytest.raises(ArbiterError, match="ci sono già 8 iscritti"):
        services.update_tournament(tournament=indiv, by=arbiter, kind="pairs")
    services.generate_round(tournament=indiv, by=arbiter)
    with pytest.raises(ArbiterError, match="ha già dei turni"):
        services.update_tournament(tournament=indiv, by=arbiter, kind="pairs")
    assert Tournament.objects.get(pk=indiv.pk).kind == "individual"


def test_settings_page_shows_the_kind_locked_with_the_reason(arbiter_client, tournament, make_pairs):
    make_pairs(tournament, 2)
    url = reverse("tournament_edit", args=[tournament.slug])
    body = arbiter_client.get(url).content.decode()
    assert "ci sono già 2 iscritti" in body
    # a posted kind is ignored (disabled field): the tournament stays a pairs tournament
    resp = arbiter_client.post(url, tournament_settings(tournament, kind="individual", name="Nuovo nome"))
    assert resp.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.kind, tournament.name) == ("pairs", "Nuovo nome")


# --------------------------------------------------------------------------- item 2: per-player tie-breaks

def test_individual_default_tiebreaks_are_section_8_per_player_without_head_to_head(indiv):
    # rules.md §9: "Default tie-breaks per player: VP, MP difference, MP scored, shared"
    assert indiv.tiebreaks == "vp,mp_difference,mp_scored"
    assert indiv.applied_tiebreaks == ("vp", "mp_difference", "mp_scored")


def test_head_to_head_chosen_for_an_individual_tournament_is_refused(indiv, arbiter):
    with pytest.raises(ArbiterError, match="scontro diretto non vale"):
        services.update_tournament(tournament=indiv, by=arbiter, tiebreaks="vp,head_to_head")
    services.update_tournament(tournament=indiv, by=arbiter, tiebreaks="vp,mp_scored")
    indiv.refresh_from_db()
    assert indiv.tiebreaks == "vp,mp_scored"


def test_create_form_turns_the_pairs_default_into_the_individual_one(arbiter_client, db):
    resp = arbiter_client.post(reverse("tournament_create"), {
        "name": "Individuale del lunedì", "date": "2026-12-07", "kind": "individual", "plan": "DDD",
        "hands_per_round": 4, "vp_scale": "vp20-4h", "mitchell_step": 1, "first_round": "number",
        "rematch_window": "all", "bye_percent": "70", "bye_mp": "zero", "rule_set": "fibur",
        "tiebreaks_0": "vp", "tiebreaks_1": "mp_difference", "tiebreaks_2": "head_to_head", "tiebreaks_3": "mp_scored",
    })
    assert resp.status_code == 302
    assert Tournament.objects.get(name="Individuale del lunedì").tiebreaks == "vp,mp_difference,mp_scored"
    # the arbiter's own order with head-to-head: a clear error on the form
    resp = arbiter_client.post(reverse("tournament_create"), {
        "name": "Altro", "date": "2026-12-07", "kind": "individual", "plan": "DDD",
        "hands_per_round": 4, "vp_scale": "vp20-4h", "mitchell_step": 1, "first_round": "number",
        "rematch_window": "all", "bye_percent": "70", "bye_mp": "zero", "rule_set": "fibur",
        "tiebreaks_0": "head_to_head", "tiebreaks_1": "vp",
    })
    assert resp.status_code == 200
    assert "scontro diretto non vale in un torneo individuale" in resp.content.decode()
    assert not Tournament.objects.filter(name="Altro").exists()


def test_settings_page_of_an_individual_tournament_offers_only_the_criteria_that_apply(arbiter_client, indiv):
    body = arbiter_client.get(reverse("tournament_edit", args=["indiv"])).content.decode()
    assert 'value="head_to_head"' not in body
    assert "Lo scontro diretto non si applica" in body


def test_standings_page_names_the_criteria_applied(arbiter_client, indiv, arbiter):
    # an individual tournament stored with the pairs' order (before this change): head-to-head
    # is shown as not applying, never silently skipped
    Tournament.objects.filter(pk=indiv.pk).update(tiebreaks="vp,mp_difference,head_to_head,mp_scored")
    register(indiv, arbiter, 8)
    play(services.generate_round(tournament=indiv, by=arbiter), arbiter, {1: (600, 0)})
    body = arbiter_client.get(reverse("standings", args=["indiv"])).content.decode()
    assert "VP totali → Scarto MP → MP totali" in body
    assert "lo scontro diretto non si applica in un torneo individuale" in body


def test_individual_tie_on_vp_and_mp_difference_broken_by_mp_scored(indiv, arbiter):
    """Hand calculation (vp20-4h): T1 1+2 v 3+4 400–200 (diff 200 → 11–9); T2 5+6 v 7+8
    300–100 (diff 200 → 11–9). Players 1, 2, 5, 6: 11 VP, +200 MP; MP scored 400 for 1, 2
    and 300 for 5, 6: third criterion (MP totali) puts 1, 2 first, still tied with each other
    ("1="), then 5, 6 ("3=")."""
    register(indiv, arbiter, 8)
    play(services.generate_round(tournament=indiv, by=arbiter), arbiter, {1: (400, 200), 2: (300, 100)})
    rows = selectors.standings_after(indiv).rows
    assert [(r.pair, r.vp, r.mp_difference, r.mp_scored) for r in rows[:4]] == [
        (1, 11, 200, 400), (2, 11, 200, 400), (5, 11, 200, 300), (6, 11, 200, 300)]
    assert [r.position_label for r in rows[:4]] == ["1=", "1=", "3=", "3="]
