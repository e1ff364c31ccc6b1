"""The pairing engines' refusals (``pairing.PairingError``) in the reader's language: each
carries a stable code and its parameters (``pairing.messages``), ``str(error)`` stays the
Italian text (the command line and the engines' own tests read it), and the arbiter's pages
show it through the English catalogue to an English reader, in Italian otherwise.

Expected texts are written by hand: the Italian ones are the engines' messages, the English
ones the catalogue's translations (locale/en, "# i18n – pairing refusals").
"""
import datetime
import html

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

import pairing
from pairing.errors import PairingError, refusal
from pairing.messages import TEMPLATES
from tournaments import services
from tournaments.i18n_messages import message_text

from ..tournaments.individual_helpers import register


def refused(request: dict) -> PairingError:
    with pytest.raises(PairingError) as info:
        pairing.run(request)
    return info.value


# --------------------------------------------------------------------------- the engines


def test_mitchell_with_one_pair_is_refused_with_a_code():
    # A Mitchell needs two pairs at least (rules.md §6: N/S and E/W lines).
    error = refused({"system": "mitchell", "pairs": [1], "round": 1})
    assert str(error) == "'pairs': servono almeno 2 coppie"
    assert (error.code, error.params) == ("pairing.too_few_pairs", {"key": "pairs", "count": 2})


def test_individual_movement_beyond_its_rounds_is_refused_with_a_code():
    # A schedule of 7 rounds for 8 players has no round 8 (rules.md §9, individual movement).
    error = refused({"system": "individual-movement", "players": list(range(1, 9)), "rounds": 7, "round": 8})
    assert str(error) == "il turno 8 supera i turni previsti (7)"
    assert (error.code, error.params) == ("pairing.round_beyond_schedule", {"round": 8, "rounds": 7})


def test_round_robin_with_pairs_and_groups_is_refused_with_a_code():
    error = refused({"system": "round-robin", "pairs": [1, 2], "groups": [[1, 2]], "round": 1})
    assert str(error) == "il girone all'italiana vuole 'pairs' oppure 'groups' (non entrambi)"
    assert error.code == "pairing.rr_pairs_or_groups"


def test_a_first_round_by_hand_with_two_pairs_left_over():
    # 5 pairs, table 1 = 1 v 2: pairs 3, 4, 5 have no place and only one may rest.
    error = refused({"system": "first_round", "method": "hand", "pairs": [1, 2, 3, 4, 5],
                     "tables": [{"table": 1, "ns": 1, "ew": 2}]})
    assert str(error) == "coppie senza tavolo né riposo: 3, 4, 5 (al massimo una coppia può riposare)"
    assert error.params == {"pairs": "3, 4, 5"}


def test_a_player_listed_twice_names_a_player_not_a_pair():
    error = refused({"system": "danish-individual", "ranking": [1, 2, 3, 3, 4]})
    assert str(error) == "'ranking': il giocatore 3 è elencato due volte"
    assert (error.code, error.params) == ("pairing.player_listed_twice", {"key": "ranking", "player": 3})
    with translation.override("en"):
        assert message_text(error) == "'ranking': player 3 is listed twice"


def test_every_refusal_code_renders_its_italian_text():
    # The template filled with its parameters is the text the error always had.
    error = refusal("pairing.unknown_pairs", key="absent", pairs="7, 9")
    assert str(error) == "'absent': coppie sconosciute: 7, 9" == TEMPLATES[error.code] % error.params
    assert PairingError("testo libero").code == "" and PairingError("testo libero").params == {}


def test_the_command_line_still_prints_the_italian_text(capsys, monkeypatch):
    import io

    from pairing.__main__ import main

    monkeypatch.setattr("sys.stdin", io.StringIO('{"system": "mitchell", "pairs": [1], "round": 1}'))
    assert main() == 2
    assert capsys.readouterr().err.strip() == '{"error": "\'pairs\': servono almeno 2 coppie"}'


def test_message_text_follows_the_language():
    error = refused({"system": "mitchell", "pairs": [1], "round": 1})
    with translation.override("en"):
        assert message_text(error) == "'pairs': at least 2 pairs are needed"
    with translation.override("it"):
        assert message_text(error) == "'pairs': servono almeno 2 coppie"


def test_the_checker_bad_request_translates_the_engine_detail():
    from pairing.check import check

    report = check({"system": "mitchell", "pairs": [1], "round": 1}, {"tables": [], "bye": None})
    assert report == ["richiesta non valida: 'pairs': servono almeno 2 coppie"]
    with translation.override("en"):
        assert message_text(report[0]) == "invalid request: 'pairs': at least 2 pairs are needed"


# --------------------------------------------------------------------------- the pages


@pytest.fixture
def indiv_draft(db, arbiter):
    """An individual tournament of 9 players (plan DDD), round 1 drafted by number."""
    t = services.create_tournament(by=arbiter, name="Individuale", slug="indiv", date=datetime.date(2026, 12, 1),
                                   kind="individual", plan="DDD")
    register(t, arbiter, 9)
    services.generate_round(tournament=t, by=arbiter)
    return t


def by_hand(client, text: str) -> str:
    resp = client.post(reverse("round_by_hand", args=["indiv", 1]), {"tables": text}, follow=True)
    assert resp.status_code == 200
    return html.unescape(resp.content.decode())


def test_hand_tables_with_a_player_twice_in_english(english, arbiter, indiv_draft):
    english.force_login(arbiter)
    page = by_hand(english, "1+2 v 3+4\n1+5 v 6+7")
    assert "Invalid tables: player 1 appears twice" in page
    assert "compare due volte" not in page


def test_hand_tables_with_a_player_twice_in_italian(arbiter_client, indiv_draft):
    page = by_hand(arbiter_client, "1+2 v 3+4\n1+5 v 6+7")
    assert "Tavoli non validi: il giocatore 1 compare due volte" in page


def test_hand_tables_with_too_many_resting_in_english_and_italian(client, arbiter, indiv_draft):
    # 9 players, one table written: the 5 others would rest; N mod 4 is never more than 3 (rules.md §9).
    client.force_login(arbiter)
    assert "Tavoli non validi: riposano al massimo 3 giocatori (N mod 4), non 5" in by_hand(client, "1+2 v 3+4")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Invalid tables: at most 3 players rest (N mod 4), not 5" in by_hand(client, "1+2 v 3+4")


def test_hand_tables_with_an_unknown_player_in_english(english, arbiter, indiv_draft):
    english.force_login(arbiter)
    assert "Invalid tables: unknown player: 99" in by_hand(english, "1+2 v 3+99\n5+6 v 7+8")


@pytest.fixture
def engine_refuses_mitchell(monkeypatch):
    """Round generation handed a Mitchell request of a single pair: the engine's own refusal
    (the services refuse fewer than two pairs before asking, so the request is forced here)."""
    monkeypatch.setattr("tournaments.services.rounds.build_pairing_request",
                        lambda tournament, number, seed=None: {"system": "mitchell", "pairs": [1], "round": 1})


def generate(client) -> str:
    resp = client.post(reverse("round_generate", args=["prova"]), follow=True)
    assert resp.status_code == 200
    return html.unescape(resp.content.decode())


def test_generation_refused_by_the_engine_in_english(english, arbiter, tournament, make_pairs,
                                                     engine_refuses_mitchell):
    make_pairs(tournament, 4)
    english.force_login(arbiter)
    page = generate(english)
    assert "Pairing impossible: 'pairs': at least 2 pairs are needed" in page
    assert "servono almeno" not in page
    assert not tournament.rounds.exists()


def test_generation_refused_by_the_engine_in_italian(arbiter_client, tournament, make_pairs,
                                                     engine_refuses_mitchell):
    make_pairs(tournament, 4)
    page = generate(arbiter_client)
    assert "Accoppiamento impossibile: 'pairs': servono almeno 2 coppie" in page
