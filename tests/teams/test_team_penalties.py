"""Penalties in a team tournament (rules.md §3, art. 23: "1 V.P. o equivalente"; §15): given to
a team, deducted from its total VP (a VP penalty) or its total match margin (an MP penalty,
the team tie-break) from the penalty's round on; nothing for the opponents, nothing off the
players' VP. Expected values computed by hand below."""
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from tests.teams.helpers import matches, play
from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Penalty, Team
from tournaments.printing import documents
from tournaments.services.guard import integrity_message

# Five teams, round robin (pairing-io.md, L = 1 2 3 4 5 phantom, n = 6):
#   round 1, seq 1 2 3 4 5 –:   team 1 rests, 2 v 5 (tables 1–2), 3 v 4 (tables 3–4)
#   round 2, seq 1 – 2 3 4 5:   1 v 5 (tables 1–2), team 4 rests, 2 v 3 (tables 3–4)
# A match's table 1 has team A's first pair N/S, table 2 team B's second pair N/S
# (rules.md §15). Hand 1 holds each table's MP, hands 2–4 are 0–0; vp20-4h.
ROUND_1 = {1: (0, 0), 2: (0, 0), 3: (0, 0), 4: (0, 0)}       # every table level: 10–10
ROUND_2 = {
    1: (700, 300),   # team 1 N/S v team 5: +400 → 12–8 (band 305–500)
    2: (300, 700),   # team 5 N/S v team 1: team 1 +400 → 12–8
    3: (110, 100),   # team 2 N/S v team 3: +10 → 10–10 (band 0–100)
    4: (100, 100),   # team 3 N/S v team 2: level → 10–10
}
# After round 1: team 1 rest 28; teams 2–5 20 each, margin 0.
# After round 2: team 1 28 + 24 = 52 (margin +800); team 4 20 + 28 = 48 (0);
#                team 2 20 + 20 = 40 (+10); team 3 20 + 20 = 40 (−10); team 5 20 + 16 = 36 (−800).


@pytest.fixture
def five(make_teams_tournament, arbiter):
    """Five teams, plan RRRRR, rounds 1 and 2 played and closed as above; round 3 not drawn."""
    t = make_teams_tournament(5)
    rnd = services.generate_round(tournament=t, by=arbiter)
    assert sorted(m[1:] for m in matches(rnd)) == [(1, None, "rest"), (2, 5, ""), (3, 4, "")]
    assert [(m.team_a.number, m.table_1.number, m.table_2.number) for m in
            rnd.matches.filter(bye="").order_by("number")] == [(2, 1, 2), (3, 3, 4)]
    play(arbiter, rnd, scores=ROUND_1)
    rnd = services.generate_round(tournament=t, by=arbiter)
    assert sorted(m[1:] for m in matches(rnd)) == [(1, 5, ""), (2, 3, ""), (4, None, "rest")]
    assert [(m.team_a.number, m.table_1.number, m.table_2.number) for m in
            rnd.matches.filter(bye="").order_by("number")] == [(1, 1, 2), (2, 3, 4)]
    play(arbiter, rnd, scores=ROUND_2)
    return t


def team(t, number):
    return Team.objects.get(tournament=t, number=number)


def table(view):
    return [(r.pair, r.vp, r.mp_difference, r.penalty, r.penalty_mp) for r in view.rows]


def test_the_standings_by_hand_without_penalties(five):
    assert table(selectors.standings_after(five, 2)) == [
        (1, 52, 800, 0, 0), (4, 48, 0, 0, 0), (2, 40, 10, 0, 0), (3, 40, -10, 0, 0), (5, 36, -800, 0, 0)]


def test_a_vp_penalty_counts_from_its_round_on(five, arbiter):
    services.add_penalty(team=team(five, 1), vp=2, reason="ritardo", round_number=2, by=arbiter)
    after_1 = {r.pair: r for r in selectors.standings_after(five, 1).rows}
    assert (after_1[1].vp, after_1[1].penalty) == (28, 0)              # round 1: the rest's 28, no penalty yet
    view = selectors.standings_after(five, 2)
    assert table(view)[0] == (1, 50, 800, 2, 0)                        # 52 − 2 = 50
    assert [(p.pair, p.vp, p.round_number) for p in view.penalties] == [(1, 2, 2)]
    assert selectors.standings_after(five, 1).penalties == ()
    # the opponents gain nothing: team 5, which team 1 met in round 2, keeps 36
    assert {r.pair: r.vp for r in view.rows}[5] == 36


def test_an_mp_penalty_lowers_the_match_margin_and_changes_the_tie_break(five, arbiter):
    # teams 2 and 3 tie on 40 VP; margin +10 against −10 puts team 2 ahead. 30 MP off team 2:
    # +10 − 30 = −20 < −10, so team 3 goes ahead (VP unchanged; head-to-head not reached).
    services.add_penalty(team=team(five, 2), mp=30, reason="telefono", round_number=2, by=arbiter)
    assert table(selectors.standings_after(five, 2)) == [
        (1, 52, 800, 0, 0), (4, 48, 0, 0, 0), (3, 40, -10, 0, 0), (2, 40, -20, 0, 30), (5, 36, -800, 0, 0)]
    # after round 1 it does not count yet: team 2's margin is still 0
    assert {r.pair: r.mp_difference for r in selectors.standings_after(five, 1).rows}[2] == 0


def test_the_danish_ranking_of_teams_counts_the_penalties_too(five, arbiter):
    services.add_penalty(team=team(five, 2), mp=30, reason="telefono", round_number=2, by=arbiter)
    rows = selectors.teams.team_standings_rows(five, 2)
    assert [r.pair for r in rows] == [1, 4, 3, 2, 5]
    assert [r.pair for r in rows] == [r.pair for r in selectors.standings_after(five, 2).rows]


def test_a_team_penalty_leaves_the_players_vp_as_played(five, arbiter):
    before = selectors.teams.player_information(five)
    services.add_penalty(team=team(five, 1), vp=2, reason="ritardo", round_number=2, by=arbiter)
    services.add_penalty(team=team(five, 1), mp=30, reason="telefono", round_number=2, by=arbiter)
    after = selectors.teams.player_information(five)
    assert after == before
    info = {r["name"]: r for r in after}
    # T1p1 (team 1, first pair): round 2 table 1 N/S, 700 − 300 → 12 VP, +400; round 1 a rest
    assert (info["T1p1 N1"]["tables"], info["T1p1 N1"]["vp"], info["T1p1 N1"]["mp_difference"]) == (1, 12, 400)


def test_a_penalty_of_a_round_not_closed_is_pending(five, arbiter):
    services.generate_round(tournament=five, by=arbiter)                # round 3 a draft: in play = round 2
    services.add_penalty(team=team(five, 3), vp=1, reason="ammonizione", round_number=3, by=arbiter)
    view = selectors.standings_after(five)
    assert view.after_round == 2 and view.penalties == ()
    assert [(p.pair, p.vp, p.round_number) for p in view.pending] == [(3, 1, 3)]
    assert {r.pair: r.vp for r in view.rows}[3] == 40


# --------------------------------------------------------------------------- the service


def test_add_and_remove_are_audited_with_the_team(five, arbiter):
    penalty = services.add_penalty(team=team(five, 4), vp=Decimal("1.5"), reason="ritardo", by=arbiter)
    assert (penalty.team.number, penalty.pair, penalty.player, penalty.round_number) == (4, None, None, 2)
    entry = AuditEntry.objects.get(tournament=five, action="penalty_added")
    assert (entry.new, entry.reason, entry.round_number) == ({"team": 4, "vp": "1.5"}, "ritardo", 2)
    services.remove_penalty(penalty=penalty, by=arbiter, reason="errore")
    assert not Penalty.objects.exists()
    entry = AuditEntry.objects.get(tournament=five, action="penalty_removed")
    assert entry.old == {"team": 4, "vp": "1.5", "reason": "ritardo"} and entry.reason == "errore"


def test_a_pair_or_a_player_penalty_is_refused_in_a_team_tournament(five, arbiter):
    pair = five.pairs.filter(team__number=1).first()                    # a pair team 1 fielded
    with pytest.raises(ArbiterError, match="va a una squadra, non a una coppia"):
        services.add_penalty(pair=pair, vp=1, reason="x", by=arbiter)
    player = team(five, 1).members.first()
    with pytest.raises(ArbiterError, match="va a una squadra, non a un giocatore"):
        services.add_player_penalty(player=player, vp=1, reason="x", by=arbiter)
    with pytest.raises(ArbiterError, match="indicane una sola"):
        services.add_penalty(pair=pair, team=team(five, 1), vp=1, reason="x", by=arbiter)
    with pytest.raises(ArbiterError, match="indicane una sola"):
        services.add_penalty(vp=1, reason="x", by=arbiter)
    assert not Penalty.objects.exists() and not AuditEntry.objects.filter(action="penalty_added").exists()


def test_the_amount_rules_are_those_of_pairs(five, arbiter):
    for kwargs, message in [({"vp": 1, "mp": 10}, "uno solo dei due"), ({}, "uno solo dei due"),
                            ({"vp": -1}, "numero positivo"), ({"mp": Decimal("2.5")}, "numero intero"),
                            ({"vp": 1, "round_number": 9}, "Turno 9 inesistente")]:
        with pytest.raises(ArbiterError, match=message):
            services.add_penalty(team=team(five, 1), reason="x", by=arbiter, **kwargs)
    with pytest.raises(ArbiterError, match="motivo"):
        services.add_penalty(team=team(five, 1), vp=1, reason="  ", by=arbiter)
    assert not Penalty.objects.exists()


def test_a_team_penalty_is_refused_outside_team_tournaments(tournament, arbiter):
    stray = Team.objects.create(tournament=tournament, number=1, name="Estranea")
    with pytest.raises(ArbiterError, match="Solo in un torneo a squadre"):
        services.add_penalty(team=stray, vp=1, reason="x", by=arbiter)
    assert not Penalty.objects.exists()


def test_the_database_refuses_a_penalty_of_a_team_and_a_pair_with_its_sentence(five):
    pair = five.pairs.filter(team__number=1).first()
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        Penalty.objects.create(tournament=five, team=team(five, 1), pair=pair, vp=1, reason="x")
    assert integrity_message(caught.value) == (
        "Una penalità colpisce una coppia, un giocatore oppure una squadra: uno solo dei tre.")
    with pytest.raises(IntegrityError), transaction.atomic():
        Penalty.objects.create(tournament=five, vp=1, reason="x")


# --------------------------------------------------------------------------- pages


def test_the_penalties_page_offers_the_teams_and_records_one(arbiter_client, five):
    url = reverse("penalties", args=[five.slug])
    page = arbiter_client.get(url).content.decode()
    assert 'name="team"' in page and 'name="pair"' not in page
    assert "3 Squadra 3" in page and "VP tolti a una squadra" in page
    resp = arbiter_client.post(url, {"team": team(five, 1).pk, "vp": "2", "mp": "", "reason": "ritardo",
                                     "round_number": "2"})
    assert resp.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.team.number, penalty.vp, penalty.round_number) == (1, 2, 2)
    page = arbiter_client.get(url).content.decode()
    assert "Penalità di −2 VP alla squadra 1 registrata (turno 2)." in page
    assert "<td>1 Squadra 1</td>" in page and "−2 VP" in page and ">Squadra</th>" in page


def test_the_penalties_page_refuses_an_unknown_team_and_keeps_what_was_typed(arbiter_client, five):
    url = reverse("penalties", args=[five.slug])
    resp = arbiter_client.post(url, {"team": "999999", "vp": "2", "reason": "ritardo nel rientro"})
    page = resp.content.decode()
    assert resp.status_code == 200 and "Scegli una squadra del torneo." in page
    assert "ritardo nel rientro" in page and not Penalty.objects.exists()
    resp = arbiter_client.post(url, {"team": team(five, 2).pk, "vp": "1", "mp": "30", "reason": "x"})
    assert "uno solo dei due" in resp.content.decode() and not Penalty.objects.exists()


def test_an_mp_penalty_from_the_page_and_its_removal(arbiter_client, five):
    url = reverse("penalties", args=[five.slug])
    arbiter_client.post(url, {"team": team(five, 2).pk, "mp": "30", "reason": "telefono", "round_number": "2"})
    penalty = Penalty.objects.get()
    assert (penalty.team.number, penalty.mp) == (2, 30)
    remove = reverse("penalty_remove", args=[five.slug, penalty.pk])
    page = arbiter_client.get(remove).content.decode()
    assert "Togliere la penalità alla squadra 2?" in page and "−30 MP: telefono" in page
    resp = arbiter_client.post(remove, {"reason": "errore"}, follow=True)
    assert "Penalità tolta alla squadra 2." in resp.content.decode() and not Penalty.objects.exists()
    assert AuditEntry.objects.get(action="penalty_removed").old == {"team": 2, "mp": 30, "reason": "telefono"}


def test_the_standings_page_pdf_xlsx_and_public_page_show_the_team_penalties(arbiter_client, client, five, arbiter):
    import io

    import openpyxl

    services.add_penalty(team=team(five, 1), vp=2, reason="ritardo", round_number=2, by=arbiter)
    services.add_penalty(team=team(five, 2), mp=30, reason="telefono", round_number=2, by=arbiter)
    services.add_penalty(team=team(five, 5), vp=1, reason="ammonizione", round_number=3, by=arbiter)  # pending
    services.update_tournament(tournament=five, by=arbiter, public_enabled=True)

    page = arbiter_client.get(reverse("standings", args=[five.slug])).content.decode()
    assert "−2" in page and "−30 MP" in page and '?sort=pair">N.<' in page
    assert "Squadra 5: −1 VP, turno 3" in page                          # pending until round 3 closes

    doc = documents.standings_document(five)
    assert [(r.pair, r.vp_text, r.penalty_text) for r in doc.rows][:4] == [
        (1, "50", "−2"), (4, "48", ""), (3, "40", ""), (2, "40", "−30 MP")]
    html = documents.standings_html(doc)
    assert "Squadra 1: −2 VP, turno 2 – ritardo" in html and "Squadra 2: −30 MP, turno 2 – telefono" in html
    assert arbiter_client.get(reverse("standings_pdf", args=[five.slug])).status_code == 200

    resp = arbiter_client.get(reverse("standings_xlsx", args=[five.slug]))
    ws = openpyxl.load_workbook(io.BytesIO(resp.content)).active
    rows = list(ws.iter_rows(values_only=True))
    assert rows[0][2:6] == ("N.", "Squadra", "VP", "Penalità") and rows[0][11] == "Penalità MP"
    assert rows[1][2:7] == (1, "Squadra 1", 50, 2, 800) and rows[4][2:7] == (2, "Squadra 2", 40, 0, -20)
    assert rows[4][11] == 30

    public = client.get(reverse("public", args=[five.slug])).content.decode()
    assert "(−2)" in public and "(−30 MP)" in public


def test_the_penalties_page_in_english(arbiter_client, five):
    arbiter_client.cookies["django_language"] = "en"
    page = arbiter_client.get(reverse("penalties", args=[five.slug])).content.decode()
    assert "VP taken off a team in the overall standings" in page
