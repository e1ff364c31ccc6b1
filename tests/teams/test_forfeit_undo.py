"""A forfeit in a team match (rules.md §15): a confirmation page naming the teams and the
effect, a reason in the audit, undo until the round closes (the two tables come back with
their numbers, links and PINs), the table list naming the forfeiting team."""
import pytest
from django.urls import reverse

from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Match, Team
from tournaments.printing import documents
from tournaments.services import HandInput


@pytest.fixture
def published(make_teams_tournament, arbiter):
    """Four teams, round robin round 1 published: match 1 is 1 v 4 at tables 1–2, match 2 is
    2 v 3 at tables 3–4 (pairing-io.md, 4 entrants)."""
    t = make_teams_tournament(4, plan="RR")
    rnd = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    return t, rnd


def _tables(rnd, numbers):
    out = {}
    for table in rnd.tables.filter(number__in=numbers).order_by("number"):
        out[table.number] = (table.token, table.pin, table.ns.number, table.ew.number,
                             [m.player.last_name for m in table.ns.line_members.order_by("seat")])
    return out


def test_forfeit_then_undo_restores_the_two_tables(published, arbiter):
    t, rnd = published
    before = _tables(rnd, [1, 2])
    match = rnd.matches.get(number=1)
    services.forfeit_match(match=match, team=Team.objects.get(tournament=t, number=4), by=arbiter,
                           reason="squadra 4 con tre giocatori")
    assert sorted(rnd.tables.values_list("number", flat=True)) == [3, 4]
    entry = AuditEntry.objects.filter(tournament=t, action="match_forfeit").get()
    assert entry.reason == "squadra 4 con tre giocatori"
    assert entry.new["opponent"] == 1 and entry.new["opponent_vp"] == "28" and entry.new["tables"] == [1, 2]
    services.undo_forfeit(match=Match.objects.get(pk=match.pk), by=arbiter)
    match.refresh_from_db()
    assert match.bye == "" and match.forfeit_by is None and match.forfeit_snapshot is None
    assert (match.table_1.number, match.table_2.number) == (1, 2)
    assert _tables(rnd, [1, 2]) == before  # same links (tokens), PINs, pairs, players
    assert all(t.sheet.state == "empty" for t in rnd.tables.filter(number__in=[1, 2]))
    assert AuditEntry.objects.filter(tournament=t, action="match_forfeit_undone").count() == 1
    # played as normal afterwards: 0–0 at all four tables gives 20–20 for every team (vp20-4h)
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, by=arbiter, validate=True, hands=[HandInput(0, 0)] * 4)
    services.close_round(round=rnd, by=arbiter)
    assert {r.pair: r.vp for r in selectors.standings_after(t).rows} == {1: 20, 2: 20, 3: 20, 4: 20}


def test_undo_refused_once_the_round_is_closed(published, arbiter):
    t, rnd = published
    match = rnd.matches.get(number=1)
    services.forfeit_match(match=match, team=Team.objects.get(tournament=t, number=1), by=arbiter, reason="x")
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, by=arbiter, validate=True, hands=[HandInput(0, 0)] * 4)
    services.close_round(round=rnd, by=arbiter)
    with pytest.raises(ArbiterError, match="chiuso"):
        services.undo_forfeit(match=Match.objects.get(pk=match.pk), by=arbiter)
    # forfeit of team 1: team 4 scores the rest 28 of 40, team 1 nothing
    assert {r.pair: r.vp for r in selectors.standings_after(t).rows} == {1: 0, 2: 20, 3: 20, 4: 28}


def test_undo_refused_for_a_forfeit_decided_at_the_draw(published, arbiter):
    t, rnd = published
    Match.objects.filter(pk=rnd.matches.get(number=1).pk).update(bye="forfeit", forfeit_by=Team.objects.get(
        tournament=t, number=1))
    with pytest.raises(ArbiterError, match="sorteggio"):
        services.undo_forfeit(match=rnd.matches.get(number=1), by=arbiter)


def test_confirmation_page_names_teams_and_effect_then_needs_a_reason(arbiter_client, published):
    t, rnd = published
    url = reverse("match_forfeit", args=[t.slug, 1, 1])
    page = arbiter_client.get(url, {"team": 4}).content.decode()
    assert "La squadra <b>4 Squadra 4</b> dà forfait contro la squadra <b>1 Squadra 1</b>" in page
    assert "la squadra 1 riceve 28 VP (il punteggio del riposo), la squadra 4 0 VP." in page
    assert "I tavoli 1 e 2 escono dal turno" in page
    assert rnd.matches.get(number=1).bye == ""  # a GET changes nothing
    page = arbiter_client.post(url, {"team": 4, "confirm": "1", "reason": " "}).content.decode()
    assert "Scrivi il motivo del forfait" in page and rnd.matches.get(number=1).bye == ""
    resp = arbiter_client.post(url, {"team": 4, "confirm": "1", "reason": "assente"}, follow=True)
    text = resp.content.decode()
    assert "Forfait della squadra 4 registrato: la squadra 1 riceve 28 VP." in text
    assert "Forfait della squadra 4 Squadra 4" in text and 'id="undo-forfeit-1"' in text
    resp = arbiter_client.post(reverse("match_forfeit_undo", args=[t.slug, 1, 1]), follow=True)
    text = resp.content.decode()
    assert "Forfait annullato: l&#x27;incontro 1 si gioca ai tavoli 1 e 2 (stessi link e PIN)." in text
    assert rnd.matches.get(number=1).bye == ""


def test_confirmation_page_refuses_a_team_not_in_the_match(arbiter_client, published):
    t, _rnd = published
    resp = arbiter_client.get(reverse("match_forfeit", args=[t.slug, 1, 1]), {"team": 2}, follow=True)
    assert "Indica la squadra che dà forfait." in resp.content.decode()
    resp = arbiter_client.get(reverse("match_forfeit", args=[t.slug, 1, 1]), {"team": "abc"}, follow=True)
    assert resp.status_code == 200 and "Indica la squadra" in resp.content.decode()


def test_table_list_names_the_forfeiting_team(published, arbiter):
    t, rnd = published
    services.forfeit_match(match=rnd.matches.get(number=1), team=Team.objects.get(tournament=t, number=4),
                           by=arbiter, reason="x")
    html = documents.tablelist_html(documents.round_document(rnd, qr=False), qr=False)
    assert "Forfait della squadra 4 Squadra 4" in html


def test_undo_after_export_and_import(published, arbiter):
    """The forfeit's snapshot names players by their place in the team (the file's
    ``[team, member]``), so an imported tournament can still undo it."""
    from tests.transfer.conftest import empty_database
    from tournaments import transfer
    from tournaments.models import Round

    t, rnd = published
    before = _tables(rnd, [1, 2])
    services.forfeit_match(match=rnd.matches.get(number=1), team=Team.objects.get(tournament=t, number=4),
                           by=arbiter, reason="x")
    data = transfer.export_tournament(t)
    empty_database()
    imported = transfer.import_tournament(data=data).tournament
    rnd = Round.objects.get(tournament=imported, number=1)
    services.undo_forfeit(match=rnd.matches.get(number=1), by=services.Actor(label="arbitro"))
    assert _tables(rnd, [1, 2]) == before
