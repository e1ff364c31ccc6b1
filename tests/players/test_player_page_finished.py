"""A player's page once the evening is over (rules.md §8: the standings after the plan's last
round are the final ones): it says «Classifica finale» and no longer waits for a next round,
for each kind of tournament (the page's rounds are read per kind, ``pages.ROUNDS_OF_KIND``).
Before the last round closes it still says «Classifica dopo il turno k»."""
import datetime

from django.urls import reverse

from tests.i18n.conftest import english_catalogue  # noqa: F401  (fixture: the compiled catalogue)
from tests.tournaments.individual_helpers import play, register
from tournaments import services
from tournaments.services import HandInput

WIN = [HandInput(600, 200), HandInput(400, 150), HandInput(250, 300), HandInput(300, 195)]    # 1550–845
WAITING = "Il prossimo turno non è ancora pubblicato"


def play_round(tournament, arbiter):
    """Generate, publish, enter every played table (1550–845) and close the next round."""
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=WIN, by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


def get(client, tournament, word, number):
    url = reverse("player_page", args=[tournament.slug, word, number])
    return client.get(url).content.decode(), client.get(url, HTTP_ACCEPT="application/json").json()


def assert_final(html, data):
    assert "Classifica finale" in html and "Classifica dopo il turno" not in html
    assert WAITING not in html and "Torneo concluso" in html
    assert data["final"] is True and data["next"] is None


def test_pairs_page_says_final_only_after_the_last_round(client, arbiter, make_pairs):
    t = services.create_tournament(by=arbiter, name="Coppie", slug="coppie", date=datetime.date(2026, 12, 1),
                                   plan="MM", public_enabled=True)
    make_pairs(t, 4)
    play_round(t, arbiter)
    html, data = get(client, t, "coppia", 1)
    # round 1 of 2 closed: not over yet
    assert "Classifica dopo il turno 1" in html and "Classifica finale" not in html
    assert WAITING in html and "Torneo concluso" not in html and data["final"] is False
    play_round(t, arbiter)
    assert_final(*get(client, t, "coppia", 1))


def test_pairs_page_with_the_last_round_reopened_is_not_final(client, arbiter, make_pairs):
    t = services.create_tournament(by=arbiter, name="Coppie", slug="coppie", date=datetime.date(2026, 12, 1),
                                   plan="M", public_enabled=True)
    make_pairs(t, 4)
    rnd = play_round(t, arbiter)
    assert_final(*get(client, t, "coppia", 2))
    services.reopen_round(round=rnd, by=arbiter, reason="errore")
    html, data = get(client, t, "coppia", 2)
    assert "Classifica finale" not in html and "Torneo concluso" not in html and data["final"] is False


def test_individual_page_says_final_after_the_last_round(client, arbiter):
    t = services.create_tournament(by=arbiter, name="Individuale", slug="indiv", date=datetime.date(2026, 12, 1),
                                   kind="individual", plan="D", public_enabled=True)
    register(t, arbiter, 8)
    play(services.generate_round(tournament=t, by=arbiter), arbiter, {})
    assert_final(*get(client, t, "giocatore", 1))


def test_team_page_says_final_after_the_last_round(client, arbiter, make_teams_tournament):  # noqa: F811
    t = make_teams_tournament(4, plan="R")
    services.update_tournament(tournament=t, by=arbiter, public_enabled=True)
    play_round(t, arbiter)
    assert_final(*get(client, t, "squadra", 1))


def test_english_final_standings(client, arbiter, make_pairs, english_catalogue):  # noqa: F811
    t = services.create_tournament(by=arbiter, name="Coppie", slug="coppie", date=datetime.date(2026, 12, 1),
                                   plan="M", public_enabled=True)
    make_pairs(t, 4)
    play_round(t, arbiter)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("player_page", args=[t.slug, "coppia", 1]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Final standings" in html and "every round has been played" in html
    assert "Torneo concluso" not in html
