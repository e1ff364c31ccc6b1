"""The arbiter's desk for individual tournaments: the kind frozen once there are entrants,
the per-player tie-breaks (rules.md §9), withdrawals from a later round and the late player
from the players page.

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
from tournaments.models import AuditEntry, Player, Tournament
from tournaments.services import PlayerData

from .individual_helpers import play, register, seating

# --------------------------------------------------------------------------- the kind is frozen

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


# --------------------------------------------------------------------------- per-player tie-breaks

def test_individual_default_tiebreaks_are_section_8_per_player_without_head_to_head(indiv):
    # rules.md §9: "Default tie-breaks per player: VP, MP difference, MP scored, shared"
    assert indiv.tiebreaks == "vp,mp_difference,mp_scored"
    assert selectors.applied_tiebreaks(indiv) == ("vp", "mp_difference", "mp_scored")


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


def test_settings_page_of_an_individual_tournament_offers_only_the_criteria_that_apply(arbiter_client, indiv,
                                                                                      arbiter):
    # with players the kind is fixed and the page leaves head-to-head out; before, the kind
    # may still change and tournament_form.js hides it live (tests/e2e/test_tournament_form_kinds)
    register(indiv, arbiter, 4)
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
    assert "VP totali → Scarto MP → MP fatti" in body
    assert "lo scontro diretto non si applica in un torneo individuale" in body


def test_individual_tie_on_vp_and_mp_difference_broken_by_mp_scored(indiv, arbiter):
    """Hand calculation (vp20-4h): T1 1+2 v 3+4 400–200 (diff 200 → 11–9); T2 5+6 v 7+8
    300–100 (diff 200 → 11–9). Players 1, 2, 5, 6: 11 VP, +200 MP; MP scored 400 for 1, 2
    and 300 for 5, 6: third criterion (MP fatti) puts 1, 2 first, still tied with each other
    ("1="), then 5, 6 ("3=")."""
    register(indiv, arbiter, 8)
    play(services.generate_round(tournament=indiv, by=arbiter), arbiter, {1: (400, 200), 2: (300, 100)})
    rows = selectors.standings_after(indiv).rows
    assert [(r.pair, r.vp, r.mp_difference, r.mp_scored) for r in rows[:4]] == [
        (1, 11, 200, 400), (2, 11, 200, 400), (5, 11, 200, 300), (6, 11, 200, 300)]
    assert [r.position_label for r in rows[:4]] == ["1=", "1=", "3=", "3="]


# --------------------------------------------------------------------------- withdrawals

def test_withdrawal_from_a_later_danish_round_leaves_the_player_out(indiv, arbiter):
    """9 players, round 1 by number: 1+2 v 3+4, 5+6 v 7+8, 9 rests. Player 9 withdraws from
    round 2: 8 active players, 8 mod 4 = 0, nobody rests; he keeps his round-1 rest (14 VP)."""
    register(indiv, arbiter, 9)
    play(services.generate_round(tournament=indiv, by=arbiter), arbiter, {1: (600, 0), 2: (0, 300)})
    services.withdraw_player(player=Player.objects.get(tournament=indiv, number=9), from_round=2, by=arbiter,
                             reason="malore")
    r2 = services.generate_round(tournament=indiv, by=arbiter)
    tables, rest, forced = seating(r2)
    assert 9 not in r2.pairing_request["ranking"] and rest == [] and forced == []
    assert sorted(p for ns, ew in tables.values() for p in ns + ew) == [1, 2, 3, 4, 5, 6, 7, 8]
    rows = {r.pair: r for r in selectors.standings_after(indiv).rows}
    assert rows[9].vp == 14 and rows[9].withdrawn
    entry = AuditEntry.objects.filter(tournament=indiv, action="player_withdrawn").get()
    assert entry.new == {"player": 9, "from_round": 2, "forced_rest": []} and entry.reason == "malore"


def test_withdrawal_from_a_later_movement_round_gives_partner_and_opponents_a_forced_rest(db, arbiter):
    """Individual movement, 8 players (rules.md §9, pairing-io.md: a withdrawn player's seat
    becomes a forced rest for his partner and opponents, as for pairs). Player 1 withdraws
    from round 2: in round 2 the three players of his table rest (forced, 14 VP each), the
    other table plays."""
    t = services.create_tournament(by=arbiter, name="Movimento", slug="mov", date=datetime.date(2026, 12, 2),
                                   kind="individual", plan="MMM")
    register(t, arbiter, 8)
    play(services.generate_round(tournament=t, by=arbiter), arbiter, {})
    services.withdraw_player(player=Player.objects.get(tournament=t, number=1), from_round=2, by=arbiter)
    r2 = services.generate_round(tournament=t, by=arbiter)
    assert r2.pairing_request["absent"] == [1]
    tables, rest, forced = seating(r2)
    assert len(tables) == 1 and rest == [] and len(forced) == 3 and 1 not in forced
    seated_with_1 = set(forced)
    play(r2, arbiter, {})
    rows = {r.pair: r for r in selectors.standings_after(t).rows}
    # round 1 all 0–0 (10 VP each); round 2 forced rest 14 VP
    assert all(rows[p].vp == 10 + 14 for p in seated_with_1)
    assert rows[1].vp == 10 and rows[1].withdrawn



def test_withdraw_page_confirms_then_breaks_up_the_table_of_a_published_round(arbiter_client, indiv, arbiter):
    register(indiv, arbiter, 8)
    r1 = services.publish_round(round=services.generate_round(tournament=indiv, by=arbiter), by=arbiter)
    players_page = arbiter_client.get(reverse("players", args=["indiv"])).content.decode()
    url = reverse("player_withdraw", args=["indiv", 5])
    assert f'href="{url}"' in players_page
    page = arbiter_client.get(url).content.decode()
    # the first round not closed is proposed; the page says the table is broken up
    assert 'name="from_round" min="1" value="1"' in page and 'id="withdraw-published"' in page
    assert Player.objects.get(tournament=indiv, number=5).status == "active"  # a GET changes nothing
    resp = arbiter_client.post(url, {"from_round": "1", "reason": "malore"})
    assert resp.status_code == 302 and resp.url == reverse("players", args=["indiv"])
    # table 2 was 5+6 v 7+8: 6, 7, 8 get a forced rest (rules.md §5, art. 32)
    tables, rest, forced = seating(r1)
    assert tables == {1: ([1, 2], [3, 4])} and sorted(forced) == [6, 7, 8]
    body = arbiter_client.get(reverse("players", args=["indiv"])).content.decode()
    assert "ritirato dal turno 1" in body
    # a missing or impossible round is refused with a clear message and nothing changes
    resp = arbiter_client.post(reverse("player_withdraw", args=["indiv", 1]), {"from_round": "0"}, follow=True)
    assert "Indica il turno dal quale il giocatore si ritira." in resp.content.decode()
    assert Player.objects.get(tournament=indiv, number=1).status == "active"


def test_late_player_from_the_players_page_asks_for_confirmation(arbiter_client, indiv, arbiter):
    """11 players, round 1 by number: 1+2 v 3+4, 5+6 v 7+8; 9, 10, 11 rest (11 mod 4 = 3) at
    tables 3, 4, 5. The late player gets number 12 and completes table 3: 9+10 v 11+12."""
    register(indiv, arbiter, 11)
    r1 = services.publish_round(round=services.generate_round(tournament=indiv, by=arbiter), by=arbiter)
    url = reverse("players", args=["indiv"])
    assert 'id="player-form"' in arbiter_client.get(url).content.decode()
    form = {"last_name": "Tardi", "first_name": "Vittorio", "membership": "", "club": "", "number": ""}
    page = arbiter_client.post(url, form)
    assert page.status_code == 200
    body = page.content.decode()
    assert ("Tardi Vittorio entra con il numero 12 e completa il tavolo 3 del turno 1: 9+10 (N/S) contro "
            "11+12 (E/O).") in body
    assert not Player.objects.filter(tournament=indiv, number=12).exists()  # nothing yet
    resp = arbiter_client.post(url, dict(form, confirm="1"))
    assert resp.status_code == 302
    late = Player.objects.get(tournament=indiv, number=12)
    assert late.late_entry and late.last_name == "Tardi"
    tables, rest, forced = seating(r1)
    assert tables[3] == ([9, 10], [11, 12]) and rest == []
    assert AuditEntry.objects.filter(tournament=indiv, action="late_player_added").count() == 1
    # nobody rests now: the page says why no late player can enter
    assert 'id="late-refusal"' in arbiter_client.get(url).content.decode()


def test_late_player_refused_once_round_one_is_closed(arbiter_client, indiv, arbiter):
    register(indiv, arbiter, 11)
    play(services.generate_round(tournament=indiv, by=arbiter), arbiter, {})
    body = arbiter_client.get(reverse("players", args=["indiv"])).content.decode()
    assert "Il turno 1 è finito" in body and 'id="player-form"' not in body
    with pytest.raises(ArbiterError, match="turno 1 è finito"):
        services.add_late_player(tournament=indiv, by=arbiter, player=PlayerData("Tardi", "Vo"))
