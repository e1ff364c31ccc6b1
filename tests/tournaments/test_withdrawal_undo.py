"""Undo of a withdrawal (rules.md §5, §15, art. 32) for pairs, individual players and teams:
allowed while the round it withdrew from is not published, audited; withdrawn rows set apart
on the entrants pages."""
import pytest
from django.urls import reverse

from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Pair, Player, Team

from .individual_helpers import register


@pytest.fixture
def individual_tournament(indiv, arbiter):
    """The individual tournament ``indiv`` with eight players (rules.md §9: two tables)."""
    register(indiv, arbiter, 8)
    return indiv


def test_pair_withdrawal_undone_before_its_round_is_drawn(five, arbiter):
    pair = five.pairs.get(number=3)
    services.withdraw_pair(pair=pair, from_round=1, by=arbiter, reason="malore")
    services.undo_withdrawal(entrant=Pair.objects.get(pk=pair.pk), by=arbiter, reason="sbaglio di coppia")
    pair.refresh_from_db()
    assert (pair.status, pair.withdrawn_from_round) == ("active", None)
    entry = AuditEntry.objects.get(tournament=five, action="pair_withdrawal_undone")
    assert entry.old == {"pair": 3, "from_round": 1} and entry.reason == "sbaglio di coppia"
    # five pairs again: round 1 has two tables and one rest (rules.md §5)
    rnd = services.generate_round(tournament=five, by=arbiter)
    assert rnd.tables.filter(bye="").count() == 2 and rnd.tables.filter(bye="rest").count() == 1


def test_pair_withdrawal_stands_once_its_round_is_published(published, arbiter):
    tournament = published.tournament
    pair = tournament.pairs.get(number=2)
    services.withdraw_pair(pair=pair, from_round=1, by=arbiter)
    with pytest.raises(ArbiterError, match="Il turno 1 è già pubblicato"):
        services.undo_withdrawal(entrant=Pair.objects.get(pk=pair.pk), by=arbiter)


def test_undo_refused_for_an_entrant_in_play(five, arbiter):
    with pytest.raises(ArbiterError, match="Non è ritirato"):
        services.undo_withdrawal(entrant=five.pairs.get(number=1), by=arbiter)


def test_team_withdrawal_undone_and_the_draft_is_outdated_again(make_teams_tournament, arbiter):
    t = make_teams_tournament(4, plan="RRR")
    team = Team.objects.get(tournament=t, number=4)
    services.withdraw_team(team=team, from_round=1, by=arbiter)
    rnd = services.generate_round(tournament=t, by=arbiter)
    assert rnd.matches.filter(bye="forced").count() == 1
    services.undo_withdrawal(entrant=Team.objects.get(pk=team.pk), by=arbiter)
    assert services.draft_staleness(rnd)  # drawn without team 4: draw it again (rules.md §12)
    assert AuditEntry.objects.filter(tournament=t, action="team_withdrawal_undone").count() == 1


def test_player_withdrawal_undone(individual_tournament, arbiter):
    player = Player.objects.get(tournament=individual_tournament, number=5)
    services.withdraw_player(player=player, from_round=1, by=arbiter)
    services.undo_withdrawal(entrant=Player.objects.get(pk=player.pk), by=arbiter)
    player.refresh_from_db()
    assert player.status == "active" and player.withdrawn_from_round is None


def test_pairs_page_sets_a_withdrawn_pair_apart_and_undoes(arbiter_client, five, arbiter):
    services.withdraw_pair(pair=five.pairs.get(number=4), from_round=1, by=arbiter)
    page = arbiter_client.get(reverse("pairs", args=[five.slug])).content.decode()
    assert page.count('<tr class="withdrawn') == 1  # django-tables2 adds even/odd after it
    assert '<span class="badge withdrawn-label">Ritirata dal turno 1</span>' in page
    assert 'id="undo-withdrawal-4"' in page
    resp = arbiter_client.post(reverse("pair_withdrawal_undo", args=[five.slug, 4]), follow=True)
    assert "Ritiro della coppia 4 annullato: torna in gara." in resp.content.decode()
    assert five.pairs.get(number=4).status == "active"


def test_players_page_sets_a_withdrawn_player_apart(arbiter_client, individual_tournament, arbiter):
    t = individual_tournament
    services.generate_round(tournament=t, by=arbiter)
    services.withdraw_player(player=Player.objects.get(tournament=t, number=2), from_round=2, by=arbiter)
    page = arbiter_client.get(reverse("players", args=[t.slug])).content.decode()
    assert '<tr id="player-2" class="withdrawn">' in page
    assert "Ritirato dal turno 2" in page and 'id="undo-withdrawal-2"' in page
    resp = arbiter_client.post(reverse("player_withdrawal_undo", args=[t.slug, 2]), follow=True)
    assert "Ritiro del giocatore 2 annullato" in resp.content.decode()


def test_teams_page_sets_a_withdrawn_team_apart_and_refuses_late_undo(arbiter_client, make_teams_tournament,
                                                                      arbiter):
    t = make_teams_tournament(4, plan="RRR")
    services.withdraw_team(team=Team.objects.get(tournament=t, number=2), from_round=1, by=arbiter)
    services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    page = arbiter_client.get(reverse("teams", args=[t.slug])).content.decode()
    assert '<tr id="team-2" class="withdrawn">' in page and "Ritirata dal turno 1" in page
    assert 'id="undo-withdrawal-2"' not in page  # round 1 is published: the withdrawal stands
    resp = arbiter_client.post(reverse("team_withdrawal_undo", args=[t.slug, 2]), follow=True)
    assert "Il turno 1 è già pubblicato: il ritiro non si annulla più" in resp.content.decode()
