"""Second rests on the round page: the draft shows each second-rest exchange, and the
"seat the two idle pairs together" button shows only when allowed and works.

7 pairs, T = 4 (N/S 1-3, phantom at table 4, E/W 4-7). Round 1: (1,4) (2,5) (3,6), 7 rests;
2 beats 5 by 500 MP. Pair 1 withdraws from round 2. Round 2 (offset 1): 7 faces the
absent 1 at table 1 but rested, so 5 (last, not rested) takes the forced rest and 7 plays
at table 3 E/O; 6 meets the phantom and rests.
"""
import pytest
from django.urls import reverse

from tests.tournaments.helpers import play, seating
from tournaments import services
from tournaments.models import AuditEntry, Table
from tournaments.services.rounds import adjustment_sentences


def body(resp):
    return resp.content.decode()


def round_url(number, name="round"):
    return reverse(name, args=["prova", number])


@pytest.fixture
def draft2(tournament, make_pairs, arbiter):
    make_pairs(tournament, 7)
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter, {2: (500, 0)})
    services.withdraw_pair(pair=tournament.pairs.get(number=1), from_round=2, by=arbiter)
    return services.generate_round(tournament=tournament, by=arbiter)


def test_draft_page_shows_the_exchange_and_the_seat_together_button(arbiter_client, draft2):
    page = body(arbiter_client.get(round_url(2)))
    assert ("La coppia 5 ha il riposo forzato al posto della coppia 7, che ha già riposato "
            "(art. 33); la 7 gioca al tavolo 3 in E/O.") in page
    assert 'id="seat-idle"' in page
    assert ("La coppia 6 riposa e la coppia 5 ha il riposo forzato: non si sono ancora "
            "incontrate, possono giocare insieme al tavolo 1.") in page


def test_seat_together_button_makes_one_table(arbiter_client, draft2):
    resp = arbiter_client.post(round_url(2, "round_seat_idle"), follow=True)
    page = body(resp)
    assert "Le coppie 6 e 5 giocano insieme al tavolo 1." in page
    assert seating(draft2) == ({1: (6, 5), 2: (2, 4), 3: (3, 7)}, None, [])
    assert 'id="seat-idle"' not in page
    assert AuditEntry.objects.filter(action="idle_pairs_seated").count() == 1
    audit_page = body(arbiter_client.get(reverse("audit", args=["prova"])))
    assert "Coppie a riposo fatte giocare insieme" in audit_page


def test_no_button_when_the_idle_pairs_already_met(arbiter_client, arbiter, draft2):
    services.move_to_rest(round=draft2, pair=2, by=arbiter)  # 2 met 5 in round 1
    page = body(arbiter_client.get(round_url(2)))
    assert 'id="seat-idle"' not in page
    resp = arbiter_client.post(round_url(2, "round_seat_idle"), follow=True)
    assert "non devono essersi già incontrate" in body(resp)
    assert draft2.tables.filter(bye=Table.Bye.REST).count() == 1


def test_no_button_with_a_rest_only(arbiter_client, published):
    page = body(arbiter_client.get(round_url(1)))
    assert 'id="seat-idle"' not in page


def test_published_round_after_a_withdrawal_shows_the_button(arbiter_client, arbiter, tournament,
                                                             make_pairs):
    make_pairs(tournament, 7)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    services.publish_round(round=rnd, by=arbiter)
    services.withdraw_pair(pair=tournament.pairs.get(number=1), from_round=1, by=arbiter)
    page = body(arbiter_client.get(round_url(1)))
    assert 'id="idle-pairs"' in page and 'id="seat-idle"' in page
    arbiter_client.post(round_url(1, "round_seat_idle"))
    assert seating(rnd) == ({1: (7, 4), 2: (2, 5), 3: (3, 6)}, None, [])
    page = body(arbiter_client.get(round_url(1)))
    assert 'id="seat-idle"' not in page and 'id="table-1"' in page


def test_exchange_sentences_are_translated(db):
    from django.utils import translation

    response = {"adjustments": [{"rests": 4, "plays": 5, "table": 2, "line": "ew"},
                                {"rests": 3, "plays": 7, "table": 1, "line": "ns"}],
                "forced_byes": [3]}
    with translation.override("en"):
        assert adjustment_sentences(response) == [
            "Pair 4 rests instead of pair 5, which has already rested (art. 33); pair 5 plays "
            "at table 2 in E/W.",
            "Pair 3 takes the forced rest instead of pair 7, which has already rested (art. 33); "
            "pair 7 plays at table 1 in N/S.",
        ]
