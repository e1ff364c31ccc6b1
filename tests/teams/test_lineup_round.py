"""The team captain's line-up form stores a line-up only for the next round
(``selectors.teams.lineup_round``): any other round number sent is refused with a sentence, and so
is a round number no form sends (letters, 30 digits)."""
import pytest
from django.urls import reverse

from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import LineUp, Team


@pytest.fixture
def four(make_teams_tournament):
    return make_teams_tournament(4)


def _post(client, team, round_value):
    ids = list(team.members.order_by("pk").values_list("pk", flat=True))
    return client.post(reverse("team_captain", args=[team.token]),
                       {"round": round_value, "p0": ids[3], "p1": ids[2], "p2": ids[1], "p3": ids[0]})


@pytest.mark.parametrize("round_value", ["2", "7", "1000", "1" * 30, "abc"])
def test_captain_form_refuses_any_round_but_the_next(client, four, round_value):
    team = Team.objects.get(tournament=four, number=1)
    response = _post(client, team, round_value)
    assert response.status_code == 200
    assert "turno" in response.content.decode().lower()
    assert not LineUp.objects.filter(team=team).exists()


def test_captain_form_stores_the_next_round(client, four):
    team = Team.objects.get(tournament=four, number=1)
    assert _post(client, team, "1").status_code == 200
    assert list(LineUp.objects.filter(team=team).values_list("round_number", flat=True)) == [1]


def test_service_refuses_a_later_round(four, arbiter):
    team = Team.objects.get(tournament=four, number=2)
    ids = list(team.members.order_by("pk").values_list("pk", flat=True))
    with pytest.raises(ArbiterError, match="prossimo turno, il 1"):
        services.set_lineup(team=team, pairs=[ids[:2], ids[2:4]], by=arbiter, round_number=3)
    assert not LineUp.objects.filter(team=team).exists()
