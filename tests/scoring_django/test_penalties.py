"""Penalties page (rules.md §3, art. 23): VP off a pair in the standings, nothing to the
opponents; add and remove are audited. Standings worked by hand with the 4-hand scale."""
from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse

from tournaments import selectors
from tournaments.models import AuditEntry, Pair, Penalty, Round, ScoreSheet, Seat, Table


@pytest.fixture
def played(tournament, make_pairs):
    """Round 1 closed: T1 pair 1 (900) v pair 2 (700): difference 200 → band 105–300 → 11–9;
    T2 pair 3 (400) v pair 4 (500): difference 100 → band 0–100 → 10–10."""
    make_pairs(tournament, 4)
    pair = {p.number: p for p in Pair.objects.filter(tournament=tournament)}
    rnd = Round.objects.create(tournament=tournament, number=1, system=Round.System.MITCHELL,
                               state=Round.State.CLOSED)
    for number, (ns, ew, mp_ns, mp_ew, vp_ns, vp_ew) in enumerate(
        [(1, 2, 900, 700, 11, 9), (3, 4, 400, 500, 10, 10)], start=1
    ):
        table = Table.objects.create(round=rnd, number=number)
        Seat.objects.create(round=rnd, table=table, pair=pair[ns], line=Seat.Line.NS)
        Seat.objects.create(round=rnd, table=table, pair=pair[ew], line=Seat.Line.EW)
        ScoreSheet.objects.create(table=table, state=ScoreSheet.State.VALIDATED, mp_ns=mp_ns, mp_ew=mp_ew,
                                  vp_ns=Decimal(vp_ns), vp_ew=Decimal(vp_ew))
    return tournament


def vp_of(tournament):
    return {r.pair: (r.vp, r.penalty, r.position) for r in selectors.standings(tournament)}


def test_page_requires_login(client, tournament):
    resp = client.get(reverse("penalties", args=[tournament.slug]))
    assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]


def test_add_penalty_audited_and_deducted_opponents_unchanged(arbiter_client, played):
    before = vp_of(played)
    assert before[1] == (Decimal(11), Decimal(0), 1) and before[2][0] == Decimal(9)
    url = reverse("penalties", args=[played.slug])
    resp = arbiter_client.post(url, {"pair": "1", "vp": "2", "reason": "Ritardo ripetuto", "round_number": "1"})
    assert resp.status_code == 302
    penalty = Penalty.objects.get()
    assert penalty.pair.number == 1 and penalty.vp == 2 and penalty.round_number == 1
    entry = AuditEntry.objects.get(tournament=played, action="penalty_added")
    assert entry.reason == "Ritardo ripetuto" and entry.new == {"pair": 1, "vp": "2"}
    assert entry.actor == "arbitro (arbitro)" and entry.round_number == 1
    after = vp_of(played)
    # pair 1: 11 − 2 = 9 VP; pair 2 (its opponent) keeps 9; pairs 3 and 4 keep 10
    assert after[1][:2] == (Decimal(9), Decimal(2))
    assert after[2][:2] == (Decimal(9), Decimal(0))
    assert after[3][0] == after[4][0] == Decimal(10)
    # 10, 10, then 9 and 9 split by MP difference: pair 1 +200 before pair 2 −200
    assert [r.pair for r in selectors.standings(played)][2:] == [1, 2]
    page = arbiter_client.get(url).content.decode()
    assert "Ritardo ripetuto" in page and "−2" in page and "arbitro" in page
    assert reverse("penalty_remove", args=[played.slug, penalty.pk]) in page


def test_remove_penalty_asks_confirmation_audited_and_restores(arbiter_client, played, arbiter):
    from tournaments import services

    pair = Pair.objects.get(tournament=played, number=3)
    penalty = services.add_penalty(pair=pair, vp=Decimal("0.5"), reason="Telefono", by=arbiter)
    assert vp_of(played)[3][0] == Decimal("9.5")
    url = reverse("penalty_remove", args=[played.slug, penalty.pk])
    confirm = arbiter_client.get(url).content.decode()
    assert "Togliere la penalità alla coppia 3?" in confirm and "0,5 VP" in confirm  # Italian page: decimal comma
    assert Penalty.objects.exists()
    assert arbiter_client.post(url, {"reason": "Errore di battitura"}).status_code == 302
    assert not Penalty.objects.exists()
    entry = AuditEntry.objects.get(tournament=played, action="penalty_removed")
    assert entry.reason == "Errore di battitura" and entry.old == {"pair": 3, "vp": "0.50", "reason": "Telefono"}
    assert vp_of(played)[3][:2] == (Decimal(10), Decimal(0))


@pytest.mark.parametrize("data, message", [
    ({"pair": "9", "vp": "1", "reason": "x"}, "Scegli una coppia del torneo."),
    ({"pair": "1", "vp": "0", "reason": "x"}, "0.01"),
    ({"pair": "1", "vp": "1", "reason": "   "}, "Questo campo è obbligatorio"),
])
def test_bad_input_shows_message_and_saves_nothing(arbiter_client, played, data, message):
    resp = arbiter_client.post(reverse("penalties", args=[played.slug]), data)
    assert resp.status_code == 200 and message in resp.content.decode()
    assert not Penalty.objects.exists() and not AuditEntry.objects.filter(action="penalty_added").exists()


def test_penalty_of_another_tournament_is_not_found(arbiter_client, played, arbiter, make_pairs):
    import datetime

    from tournaments import services

    other = services.create_tournament(by=arbiter, name="Altro", slug="altro", date=datetime.date(2026, 1, 1))
    make_pairs(other, 2)
    penalty = services.add_penalty(pair=other.pairs.get(number=1), vp=1, reason="x", by=arbiter)
    assert arbiter_client.post(reverse("penalty_remove", args=[played.slug, penalty.pk])).status_code == 404
    assert Penalty.objects.filter(pk=penalty.pk).exists()


def test_standings_after_an_earlier_round_ignore_a_later_penalty(played, arbiter):
    from tournaments import services

    services.add_penalty(pair=Pair.objects.get(tournament=played, number=2), vp=1, reason="x", by=arbiter,
                         round_number=2)
    assert selectors.standings(played, after_round=1)[-1].penalty == 0
    # Round 2 is not closed: the default standings are those after round 1, and the penalty
    # is pending (standings_after: one read for every view) — pair 2 keeps its 9 VP until round 2 closes.
    view = selectors.standings_after(played)
    assert view.after_round == 1 and {r.pair: r.vp for r in view.rows}[2] == Decimal(9)
    assert [(p.pair, p.vp, p.round_number) for p in view.pending] == [(2, Decimal(1), 2)]


def test_penalty_form_in_english(arbiter_client, tournament):
    from django.utils import translation

    arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    try:
        html = arbiter_client.get(reverse("penalties", args=[tournament.slug])).content.decode()
    finally:
        # The request leaves English active in this thread; later tests expect Italian.
        translation.activate(settings.LANGUAGE_CODE)
    for italian in ("VP da togliere", "Un numero positivo", "Facoltativo"):
        assert italian not in html
    assert '<label for="id_pair">Pair</label>' in html and "VP to deduct" in html
    assert "A positive number: 1 deducts one VP." in html
    assert "Optional: without a round it belongs to the round in play (or the last closed one)" in html
    assert "or MP to deduct" in html and "deducts MP from the pair" in html
    assert "An MP penalty lowers the pair" in html


def test_a_player_penalty_is_refused_in_a_pair_tournament(played, arbiter):
    """A pair tournament's standings count a pair's penalty only (rules.md §3): a penalty to
    one player there would be recorded and never counted, so it is refused and nothing is written."""
    from tournaments import services
    from tournaments.errors import ArbiterError
    from tournaments.models import Player

    player = Player.objects.filter(tournament=played).first()
    with pytest.raises(ArbiterError, match="va a una coppia, non a un giocatore"):
        services.add_player_penalty(player=player, vp=1, reason="ritardo", by=arbiter)
    assert not Penalty.objects.exists() and not AuditEntry.objects.filter(action="penalty_added").exists()
    assert vp_of(played)[1] == (Decimal(11), Decimal(0), 1)
