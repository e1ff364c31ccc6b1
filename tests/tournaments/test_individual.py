"""Individual tournaments through the services (rules.md §9).

Expected values are worked by hand from the rules, scale vp20-4h (rules.md §4):
difference 0–100 → 10–10, 105–300 → 11–9, 305–500 → 12–8, 505–700 → 13–7,
705–900 → 14–6, 905–1100 → 15–5; a rest scores 70 % of 20 = 14 VP and 0 MP (§5).
"""
import datetime

import pytest
from django.db import IntegrityError, transaction

from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import LineMember, Pair, Player, Round
from tournaments.services import PlayerData

from .individual_helpers import hands, play, register, seating


def test_registration_by_hand_numbers_players(indiv, arbiter):
    players = register(indiv, arbiter, 3)
    assert [p.number for p in players] == [1, 2, 3]
    assert players[0].pair is None


def test_registration_refuses_a_player_twice_and_pair_tournaments(indiv, arbiter, tournament):
    services.add_player(tournament=indiv, by=arbiter,
                        player=PlayerData(first_name="Mario", last_name="Rossi", membership_number="T1"))
    with pytest.raises(ArbiterError, match="già iscritto"):
        services.add_player(tournament=indiv, by=arbiter,
                            player=PlayerData(first_name="Mario", last_name="Rossi", membership_number="T1"))
    with pytest.raises(ArbiterError, match="già usato"):
        services.add_player(tournament=indiv, by=arbiter, number=1,
                            player=PlayerData(first_name="Anna", last_name="Verdi"))
    with pytest.raises(ArbiterError, match="a coppie"):
        services.add_player(tournament=tournament, by=arbiter,
                            player=PlayerData(first_name="Anna", last_name="Verdi"))


def test_round_one_by_number_thirteen_players(indiv, arbiter):
    register(indiv, arbiter, 13)
    r1 = services.generate_round(tournament=indiv, by=arbiter)
    assert r1.system == Round.System.DANISH_INDIVIDUAL
    # rules.md §9: 1+2 v 3+4 at table 1, 5+6 v 7+8, 9+10 v 11+12; 13 mod 4 = 1: the highest number rests
    assert seating(r1) == ({1: ([1, 2], [3, 4]), 2: ([5, 6], [7, 8]), 3: ([9, 10], [11, 12])}, [13], [])
    # formed partnerships are named by their players, not by a pair number
    t1 = selectors.round_tables(r1).first()
    assert t1.ns.label == "1 Cognome1 + 2 Cognome2"
    assert (t1.ns.display_number, t1.ns.name) == ("1+2", "Cognome1 + Cognome2")
    # they never count as entrants of the tournament
    assert Pair.objects.filter(tournament=indiv, round__isnull=True).count() == 0


def test_a_player_sits_at_most_once_per_round_database_constraint(indiv, arbiter):
    register(indiv, arbiter, 8)
    r1 = services.generate_round(tournament=indiv, by=arbiter)
    player = Player.objects.get(tournament=indiv, number=1)
    other = Pair.objects.filter(round=r1).exclude(line_members__player=player).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        LineMember.objects.create(round=r1, pair=other, player=player, seat=1)


def test_publish_enter_close_and_per_player_standings(indiv, arbiter):
    register(indiv, arbiter, 13)
    r1 = services.generate_round(tournament=indiv, by=arbiter)
    # T1: 1+2 v 3+4 600–0 → 13–7; T2: 5+6 v 7+8 0–0 → 10–10; T3: 9+10 v 11+12 200–400 → 9–11
    play(r1, arbiter, {1: (600, 0), 2: (0, 0), 3: (200, 400)})
    rows = {r.pair: r for r in selectors.standings_after(indiv).rows}
    assert rows[1].vp == rows[2].vp == 13 and rows[1].mp_difference == 600
    assert rows[3].vp == 7 and rows[3].mp_difference == -600
    assert rows[13].vp == 14 and rows[13].mp_scored == 0 and rows[13].rests == 1  # rest: 70 % of 20
    assert rows[11].vp == 11 and rows[9].vp == 9
    order = [r.pair for r in selectors.standings_after(indiv).rows]
    # 13 (14 VP) first; 1 and 2 (13 VP, +600) tied on every key share 2=; then 11, 12 (11 VP)
    assert order[:3] == [13, 1, 2]
    assert selectors.standings_after(indiv).rows[1].position_label == "2="


def test_tie_resolved_by_mp_difference(indiv, arbiter):
    register(indiv, arbiter, 8)
    r1 = services.generate_round(tournament=indiv, by=arbiter)
    # T1: 1+2 v 3+4 250–100 (diff 150 → 11–9); T2: 5+6 v 7+8 400–100 (diff 300 → 11–9)
    play(r1, arbiter, {1: (250, 100), 2: (400, 100)})
    rows = selectors.standings_after(indiv).rows
    # 1, 2, 5, 6 all 11 VP: the MP difference puts 5, 6 (+300) before 1, 2 (+150)
    assert [(r.pair, r.vp, r.mp_difference) for r in rows[:4]] == [(5, 11, 300), (6, 11, 300), (1, 11, 150),
                                                                   (2, 11, 150)]
    assert rows[0].position_label == "1=" and rows[2].position_label == "3="
    # a VP penalty of 1 to player 6 would break nothing by MP: give player 1 −1 VP instead
    services.add_player_penalty(player=Player.objects.get(tournament=indiv, number=1), reason="ritardo",
                                vp=1, by=arbiter, round_number=1)
    rows = selectors.standings_after(indiv).rows
    by_player = {r.pair: r for r in rows}
    assert by_player[1].vp == 10 and by_player[1].penalty == 1 and by_player[2].vp == 11


def test_danish_individual_round_two_from_standings(indiv, arbiter):
    register(indiv, arbiter, 8)
    r1 = services.generate_round(tournament=indiv, by=arbiter)
    # T1: 1+2 v 3+4 600–0 → 13–7; T2: 5+6 v 7+8 0–300 → 9–11
    play(r1, arbiter, {1: (600, 0), 2: (0, 300)})
    # ranking: 1, 2 (13, +600), 7, 8 (11, +300), 5, 6 (9, −300), 3, 4 (7, −600)
    r2 = services.generate_round(tournament=indiv, by=arbiter)
    assert r2.pairing_request["ranking"] == [1, 2, 7, 8, 5, 6, 3, 4]
    assert sorted(map(sorted, r2.pairing_request["partners"])) == [[1, 2], [3, 4], [5, 6], [7, 8]]
    # top-down without a repeated partner: 1 takes 7, 2 takes 8, 5 takes 3, 6 takes 4
    assert seating(r2) == ({1: ([1, 7], [2, 8]), 2: ([5, 3], [6, 4])}, [], [])


def test_withdrawal_gives_forced_rest_to_partner_and_opponents(indiv, arbiter):
    register(indiv, arbiter, 8)
    r1 = services.publish_round(round=services.generate_round(tournament=indiv, by=arbiter), by=arbiter)
    services.withdraw_player(player=Player.objects.get(tournament=indiv, number=1), from_round=1, by=arbiter)
    tables, rest, forced = seating(r1)
    assert tables == {2: ([5, 6], [7, 8])} and rest == [] and sorted(forced) == [2, 3, 4]
    for t in r1.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=hands(0, 0), by=arbiter, validate=True)
    services.close_round(round=r1, by=arbiter)
    rows = {r.pair: r for r in selectors.standings_after(indiv).rows}
    assert rows[2].vp == rows[3].vp == rows[4].vp == 14  # forced rest = rest score (§5)
    assert rows[1].vp == 0 and rows[1].withdrawn
    r2 = services.generate_round(tournament=indiv, by=arbiter)
    assert 1 not in r2.pairing_request["ranking"]


def test_late_player_only_to_fill_an_incomplete_table(indiv, arbiter):
    register(indiv, arbiter, 13)
    services.generate_round(tournament=indiv, by=arbiter)
    # 13 players: only one rests, no incomplete table of three to fill
    with pytest.raises(ArbiterError, match="tavolo incompleto"):
        services.add_late_player(tournament=indiv, by=arbiter, player=PlayerData("Tardi", "Vo"))


def test_late_player_completes_the_table_of_three_resting(indiv, arbiter):
    register(indiv, arbiter, 11)
    r1 = services.publish_round(round=services.generate_round(tournament=indiv, by=arbiter), by=arbiter)
    # 11 players: 9, 10, 11 rest; the late player 12 completes their table as by number: 9+10 v 11+12
    assert seating(r1)[1] == [9, 10, 11]
    late = services.add_late_player(tournament=indiv, by=arbiter, player=PlayerData("Tardi", "Vo"))
    assert late.number == 12
    tables, rest, forced = seating(r1)
    assert tables[3] == ([9, 10], [11, 12]) and rest == []
    assert r1.tables.get(number=3).sheet.state == "empty"
    r1.refresh_from_db()
    assert r1.check_report == []  # the checker reads the completed table as valid
    with pytest.raises(ArbiterError, match="tavolo incompleto"):  # nobody rests any more
        services.add_late_player(tournament=indiv, by=arbiter, player=PlayerData("Altro", "Ritardo"))


# --------------------------------------------------------------------------- import

from tournaments.kinds import kind_of  # noqa: E402
from tournaments.registrations import reading  # noqa: E402


@pytest.mark.parametrize("name", ["players-13.csv", "players-13.xlsx"])
def test_import_players_csv_and_xlsx(indiv, arbiter, data_dir, name):
    parsed = kind_of(indiv).parse_registrations(indiv, name, (data_dir / name).read_bytes())
    assert parsed.ok and len(parsed.rows) == 13
    assert services.import_players(tournament=indiv, rows=parsed.rows, by=arbiter) == 13
    p = Player.objects.get(tournament=indiv, number=7)
    assert (p.last_name, p.first_name, p.membership_number, p.club) == ("Colombo", "Marco", "IT1007", "Circolo Torino")


def test_import_players_refusals_lose_nothing(indiv, arbiter):
    bad = b"giocatore,cognome\n1,Rossi\n"
    parsed = reading.parse_players("x.csv", bad)
    assert parsed.errors == ["Riga 1: mancano le colonne nome (servono giocatore, cognome, nome, tessera, circolo)."]
    twice = "giocatore;cognome;nome;tessera;circolo\n1;Rossi;Mario;T1;C\n2;Rossi;Mario;T1;C\n".encode("cp1252")
    parsed = reading.parse_players("x.csv", twice)
    assert parsed.errors == ["Riga 3: il giocatore con tessera T1 compare già alla riga 2."]
    services.add_player(tournament=indiv, by=arbiter,
                        player=PlayerData(first_name="Mario", last_name="Rossi", membership_number="T9"))
    parsed = kind_of(indiv).parse_registrations(indiv, "x.csv", b"cognome,nome,tessera\nRossi,Mario,T9\nVerdi,Anna,\n")
    assert parsed.errors == ["Riga 2: il giocatore con tessera T9 è già iscritto al torneo."]
    assert Player.objects.filter(tournament=indiv).count() == 1
    # without numbers the rows take the free numbers in file order
    parsed = kind_of(indiv).parse_registrations(indiv, "x.csv", b"cognome,nome\nVerdi,Anna\nNeri,Paola\n")
    assert [(r.number, r.player.last_name) for r in parsed.rows] == [(2, "Verdi"), (3, "Neri")]


# --------------------------------------------------------------------------- pages

from django.urls import reverse  # noqa: E402


def test_players_page_registers_and_import_page_previews(arbiter_client, indiv, data_dir):
    resp = arbiter_client.post(reverse("players", args=["indiv"]),
                               {"last_name": "Rossi", "first_name": "Mario", "membership": "", "club": ""})
    assert resp.status_code == 302
    body = arbiter_client.get(reverse("players", args=["indiv"])).content.decode()
    assert "Rossi Mario" in body
    with open(data_dir / "players-13.csv", "rb") as fh:
        resp = arbiter_client.post(reverse("import", args=["indiv"]), {"file": fh})
    # player 1 is already taken by Rossi Mario: refused, nothing imported
    assert "il numero di giocatore 1 è già usato nel torneo" in resp.content.decode()
    assert Player.objects.filter(tournament=indiv).count() == 1


def test_round_page_and_standings_page_per_player(arbiter_client, indiv, arbiter):
    register(indiv, arbiter, 13)
    r1 = services.generate_round(tournament=indiv, by=arbiter)
    body = arbiter_client.get(reverse("round", args=["indiv", 1])).content.decode()
    assert "1+2" in body and "Cognome1 + Cognome2" in body and "3+4" in body
    play(r1, arbiter, {1: (600, 0)})
    body = arbiter_client.get(reverse("standings", args=["indiv"])).content.decode()
    assert "Giocatore" in body and "Cognome13 Nome13" in body
    assert arbiter_client.get(reverse("tournament", args=["indiv"])).status_code == 200


def test_first_round_by_hand_swaps_two_players_in_the_draft(indiv, arbiter, arbiter_client):
    register(indiv, arbiter, 9)
    r1 = services.generate_round(tournament=indiv, by=arbiter)
    # by number: 1+2 v 3+4, 5+6 v 7+8, 9 rests; swap 2 and 9 → 1+9 v 3+4, 2 rests
    resp = arbiter_client.post(reverse("round_swap", args=["indiv", 1]), {"pair_a": "2", "pair_b": "9"})
    assert resp.status_code == 302
    assert seating(r1) == ({1: ([1, 9], [3, 4]), 2: ([5, 6], [7, 8])}, [2], [])
    with pytest.raises(ArbiterError, match="non è in questo turno"):
        services.swap_players(round=r1, player_a=1, player_b=99, by=arbiter)
    services.publish_round(round=r1, by=arbiter, acknowledge_warnings=True)
    with pytest.raises(ArbiterError, match="già pubblicato"):
        services.swap_players(round=r1, player_a=1, player_b=2, by=arbiter)


def test_player_penalty_listed_and_removed_on_the_penalties_page(arbiter_client, indiv, arbiter):
    register(indiv, arbiter, 8)
    services.generate_round(tournament=indiv, by=arbiter)
    resp = arbiter_client.post(reverse("player_penalty", args=["indiv", 3]),
                               {"amount": "1", "unit": "vp", "reason": "telefono"})
    assert resp.status_code == 302
    penalty = indiv.penalties.get()
    assert (penalty.player.number, penalty.pair, penalty.vp) == (3, None, 1)
    body = arbiter_client.get(reverse("penalties", args=["indiv"])).content.decode()
    assert "3 Cognome3 Nome3" in body
    arbiter_client.post(reverse("penalty_remove", args=["indiv", penalty.pk]), {"reason": "errore"})
    assert not indiv.penalties.exists()


def test_penalty_needs_a_pair_or_a_player_database_constraint(indiv, arbiter):
    from tournaments.models import Penalty

    with pytest.raises(IntegrityError), transaction.atomic():
        Penalty.objects.create(tournament=indiv, vp=1, reason="x")


def test_captain_page_names_the_four_players_and_the_table_list_pdf(client, arbiter_client, indiv, arbiter):
    register(indiv, arbiter, 9)
    r1 = services.publish_round(round=services.generate_round(tournament=indiv, by=arbiter), by=arbiter)
    table = r1.tables.get(number=2)
    body = client.get(reverse("captain", args=[table.token])).content.decode()
    # table 2 by number: 5+6 v 7+8, each line by its players' numbers and names
    assert "5+6" in body and "5 Cognome5 Nome5 + 6 Cognome6 Nome6" in body
    assert "7+8" in body and "7 Cognome7 Nome7 + 8 Cognome8 Nome8" in body
    rest = client.get(reverse("captain", args=[r1.tables.get(number=3).token])).content.decode()
    assert "9" in rest and "riposa" in rest
    from tournaments.printing import documents

    doc = documents.round_document(r1, qr=False)
    assert [(t.number, t.ns.number, t.ew.number if t.ew else None) for t in doc.tables] == [
        (1, "1+2", "3+4"), (2, "5+6", "7+8"), (3, "9", None)]
    assert doc.tables[0].ns.names == "Cognome1 Nome1 + Cognome2 Nome2"


def test_individual_movement_rounds_never_repeat_a_partner(db, arbiter):
    """Plan MMM with 8 players (rules.md §9): the movement's schedule; nobody partners the
    same player twice while rounds ≤ N − 1, no rest with 8 players (8 mod 4 = 0)."""
    t = services.create_tournament(by=arbiter, name="Movimento", slug="mov", date=datetime.date(2026, 12, 2),
                                   kind="individual", plan="MMM")
    register(t, arbiter, 8)
    partners = []
    for number in (1, 2, 3):
        rnd = services.generate_round(tournament=t, by=arbiter)
        assert rnd.system == Round.System.INDIVIDUAL_MOVEMENT and rnd.check_report == []
        assert rnd.pairing_request["round"] == number and rnd.pairing_request["rounds"] == 3
        tables, rest, forced = seating(rnd)
        assert len(tables) == 2 and rest == [] and forced == []
        partners += [frozenset(line) for ns, ew in tables.values() for line in (ns, ew)]
        play(rnd, arbiter, {})
    assert len(partners) == len(set(partners)) == 12


def test_withdrawal_makes_a_draft_outdated_and_redraw_leaves_the_player_out(indiv, arbiter):
    register(indiv, arbiter, 9)
    r1 = services.generate_round(tournament=indiv, by=arbiter)
    services.withdraw_player(player=Player.objects.get(tournament=indiv, number=2), from_round=1, by=arbiter)
    assert services.draft_staleness(r1) == ["Non è più in gara il giocatore 2 (ritiro)."]  # one player: singular
    with pytest.raises(ArbiterError, match="superata"):
        services.publish_round(round=r1, by=arbiter)
    r1 = services.redraw_round(round=r1, by=arbiter)
    # by number without 2: 1+3 v 4+5, 6+7 v 8+9 (8 players, nobody rests)
    assert seating(r1) == ({1: ([1, 3], [4, 5]), 2: ([6, 7], [8, 9])}, [], [])


def test_board_links_projector_and_documents_pages_of_an_individual_round(arbiter_client, client, indiv, arbiter):
    register(indiv, arbiter, 9)
    r1 = services.publish_round(round=services.generate_round(tournament=indiv, by=arbiter), by=arbiter)
    for name in ("board", "board_rows", "captain_links"):
        resp = arbiter_client.get(reverse(name, args=["indiv", 1]))
        assert resp.status_code == 200, name
        assert "5+6" in resp.content.decode(), name
    for t in r1.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=hands(0, 0), by=arbiter, validate=True)
    services.close_round(round=r1, by=arbiter)
    indiv.projector_enabled = True
    indiv.save()
    body = client.get(reverse("projector", args=["indiv"])).content.decode()
    # first screen: the table list of round 1 (closed, the current one), lines by players
    assert "5+6 Cognome5 + Cognome6" in body


def test_swapped_lines_correction_moves_vp_between_the_four_players(indiv, arbiter):
    register(indiv, arbiter, 8)
    r1 = services.generate_round(tournament=indiv, by=arbiter)
    # T1: 1+2 v 3+4 600–0 → 13–7; swapped lines (art. 31): 3+4 get 13, 1+2 get 7
    play(r1, arbiter, {1: (600, 0)})
    services.swap_sheet_lines(table=r1.tables.get(number=1), by=arbiter, reason="linee invertite")
    rows = {r.pair: r for r in selectors.standings_after(indiv).rows}
    assert (rows[1].vp, rows[2].vp, rows[3].vp, rows[4].vp) == (7, 7, 13, 13)
    assert rows[3].mp_difference == 600 and rows[1].mp_difference == -600


def test_first_round_by_hand_textarea(arbiter_client, indiv, arbiter):
    register(indiv, arbiter, 9)
    r1 = services.generate_round(tournament=indiv, by=arbiter)
    resp = arbiter_client.post(reverse("round_by_hand", args=["indiv", 1]),
                               {"tables": "9+1 v 2+3\n\n4+5 contro 6+7\n"})
    assert resp.status_code == 302
    # players not written (8) rest
    assert seating(r1) == ({1: ([9, 1], [2, 3]), 2: ([4, 5], [6, 7])}, [8], [])
    r1.refresh_from_db()
    assert r1.check_report == [] and not services.draft_staleness(r1)
    with pytest.raises(ArbiterError, match="Riga 1: «1\\+2 v 3» non è un tavolo"):
        services.set_first_round_by_hand(round=r1, text="1+2 v 3", by=arbiter)
    with pytest.raises(ArbiterError, match="Tavoli non validi"):
        services.set_first_round_by_hand(round=r1, text="1+2 v 3+4\n1+5 v 6+7", by=arbiter)
    assert seating(r1)[0][1] == ([9, 1], [2, 3])  # a refusal loses nothing
    services.publish_round(round=r1, by=arbiter)
