"""A championship's standings from the database (rules.md §17), values computed by hand."""
import datetime
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from championships import services
from championships.models import Championship
from tournaments import services as tournament_services
from tournaments.models import Table

from .helpers import (
    BIANCHI,
    GIALLI,
    NERI,
    NUOVO,
    ROSA,
    SANTORO,
    SERRA,
    VERDI,
    VIOLA,
    link_members,
    pairs_evening,
    people,
)

D = datetime.date


def json_rows(slug):
    from io import StringIO

    out = StringIO()
    call_command("championship", "standings", slug, "--json", stdout=out)
    return json.loads(out.getvalue())["rows"]


@pytest.fixture
def season(arbiter):
    """Three evenings of 4 pairs, partners changing (module docstring of the test below);
    created out of date order (the third first) to show the order is the dates'."""
    pairs_evening(arbiter, "gio-3", D(2026, 11, 19),
                  [(SERRA, NERI), (SANTORO, VERDI), (BIANCHI, ROSA), (VIOLA, NUOVO)],
                  {1: 20, 2: 14, 3: 14, 4: 2})
    pairs_evening(arbiter, "gio-1", D(2026, 11, 5),
                  [(SERRA, SANTORO), (BIANCHI, VERDI), (NERI, GIALLI), (ROSA, VIOLA)],
                  {1: 20, 2: 12, 3: 8, 4: 0})
    pairs_evening(arbiter, "gio-2", D(2026, 11, 12),
                  [(SERRA, BIANCHI), (SANTORO, NERI), (VERDI, ROSA), (GIALLI, VIOLA)],
                  {1: 5, 2: 15, 3: 10, 4: 20})
    return services.create_championship(by=arbiter, slug="sociale", name="Sociale 2026", points="field", best=2,
                                        min_evenings=2, tournaments=["gio-1", "gio-2", "gio-3"])


def test_best_two_of_three_partners_changing_and_the_minimum(season):
    """field points (4 pairs: 4, 3, 2, 1; gio-3 has pairs 2 and 3 tied 2nd: (3 + 2) / 2 = 2.5):
    Serra 4, 1, 4 → 8 (gio-1, gio-3); Santoro 4, 3, 2.5 → 7; Neri 2, 3, 4 → 7 (gio-2, gio-3);
    Gialli 2, 4 → 6; Bianchi 3, 1, 2.5 → 5.5; Verdi 3, 2, 2.5 → 5.5; Viola 1, 4, 1 → 5 (of
    his two 1s the earlier, gio-1, counts); Rosa 1, 2, 2.5 → 4.5; Nuovo one evening (1
    point): below the minimum of 2, after, without position. Santoro and Neri: same total,
    same best evening (4), same evenings (3): shared 2nd; Bianchi and Verdi shared 5th."""
    assert json_rows("sociale") == [
        {"membership_number": "402616", "name": "Serra Anna", "points": 8.0, "evenings": 3,
         "counted": ["gio-1", "gio-3"], "position": 1},
        {"membership_number": "402620", "name": "Neri Elena", "points": 7.0, "evenings": 3,
         "counted": ["gio-2", "gio-3"], "position": 2},
        {"membership_number": "402617", "name": "Santoro Marta", "points": 7.0, "evenings": 3,
         "counted": ["gio-1", "gio-2"], "position": 2},
        {"membership_number": "402621", "name": "Gialli Fabio", "points": 6.0, "evenings": 2,
         "counted": ["gio-1", "gio-2"], "position": 4},
        {"membership_number": "402618", "name": "Bianchi Carla", "points": 5.5, "evenings": 3,
         "counted": ["gio-1", "gio-3"], "position": 5},
        {"membership_number": "402619", "name": "Verdi Dario", "points": 5.5, "evenings": 3,
         "counted": ["gio-1", "gio-3"], "position": 5},
        {"membership_number": "402623", "name": "Viola Ivo", "points": 5.0, "evenings": 3,
         "counted": ["gio-1", "gio-2"], "position": 7},
        {"membership_number": "402622", "name": "Rosa Gino", "points": 4.5, "evenings": 3,
         "counted": ["gio-2", "gio-3"], "position": 8},
        {"membership_number": None, "name": "Nuovo Luca", "points": 1.0, "evenings": 1,
         "counted": ["gio-3"], "position": None},
    ]


def test_a_correction_of_an_evening_changes_the_championship(season, arbiter):
    """gio-3, Serra's pair corrected from 20 VP to 0: pairs 2 and 3 (14 VP) now share 1st,
    (4 + 3) / 2 = 3.5 each; pair 4 (2 VP) 2 points; Serra's pair 1 point. Serra: 4, 1, 1 →
    4 + 1 = 5, of his two 1s the earlier (gio-2) counts."""
    assert json_rows("sociale")[0]["name"] == "Serra Anna"
    t = season.tournaments.get(slug="gio-3")
    table = next(tb for tb in Table.objects.filter(round__tournament=t, bye="")
                 if any(s.pair.number == 1 for s in tb.seats.select_related("pair")))
    seats = {s.line: s.pair.number for s in table.seats.select_related("pair")}
    vp = {1: 0, 2: 14, 3: 14, 4: 2}
    tournament_services.set_arbitral_score(table=table, by=arbiter, vp_ns=Decimal(vp[seats["ns"]]),
                                           vp_ew=Decimal(vp[seats["ew"]]), reason="correzione")
    rows = {r["name"]: r for r in json_rows("sociale")}
    assert (rows["Serra Anna"]["points"], rows["Serra Anna"]["counted"]) == (5.0, ["gio-1", "gio-2"])
    # Neri (pair 1 of gio-3 too): 2, 3, 1 → 5; Santoro (pair 2): 4, 3, 3.5 → 7.5
    assert rows["Santoro Marta"]["points"] == 7.5 and rows["Santoro Marta"]["position"] == 1
    assert rows["Neri Elena"]["points"] == 5.0


def test_ten_pairs_two_tied_third_get_seven_and_a_half_each(arbiter):
    pairs_evening(arbiter, "dieci", D(2026, 11, 5), people("P", 10),
                  {1: 20, 2: 18, 3: 15, 4: 15, 5: 12, 6: 10, 7: 8, 8: 6, 9: 4, 10: 2})
    services.create_championship(by=arbiter, slug="c10", name="C", tournaments=["dieci"])
    rows = {r["name"]: r for r in json_rows("c10")}
    assert rows["P3a Anna"]["points"] == rows["P4b Bruno"]["points"] == 7.5
    assert rows["P1a Anna"]["points"] == 10 and rows["P10b Bruno"]["points"] == 1
    # two members of pair 1 share 1st, of pair 2 share 3rd, the four of pairs 3-4 share 5th
    assert [rows[f"P{k}a Anna"]["position"] for k in (1, 2, 3, 4, 5)] == [1, 3, 5, 5, 9]


def test_table_and_vp_rules_from_the_database(arbiter):
    pairs_evening(arbiter, "tre", D(2026, 11, 5), people("Q", 4), {1: 20, 2: 12.5, 3: 12.5, 4: 0})
    services.create_championship(by=arbiter, slug="tab", name="T", points="table:25,18,15", tournaments=["tre"])
    services.create_championship(by=arbiter, slug="vp", name="V", points="vp", tournaments=["tre"])
    tab = {r["name"]: r["points"] for r in json_rows("tab")}
    assert (tab["Q1a Anna"], tab["Q2a Anna"], tab["Q3b Bruno"], tab["Q4a Anna"]) == (25, 16.5, 16.5, 0)
    vp = {r["name"]: r["points"] for r in json_rows("vp")}
    assert (vp["Q1a Anna"], vp["Q2a Anna"], vp["Q4a Anna"]) == (20, 12.5, 0)


def test_team_points_go_to_players_who_played_a_match_and_kinds_mix(arbiter):
    """Two teams, team 1 of five players (the fifth, U5, never fielded), one match won by
    team 1 at both tables: field gives team 1 two points, team 2 one; U5 none from it. A pair
    evening (U1–U5 20 VP beats D1–D2): 2 and 1 points. Totals: U1 2 + 2 = 4; U2, U3, U4 2
    (best 2, one evening); U5 2 (the pair evening only); D1, D2 1 + 1 = 2 (best 1: after
    them); D3, D4 1. Players without a membership number are linked by name (rules.md §16)."""
    from tests.teams.helpers import play, players

    t = tournament_services.create_tournament(by=arbiter, name="Squadre", slug="sq", date=D(2026, 11, 6),
                                              kind="teams", plan="R", hands_per_round=4, vp_scale="vp20-4h")
    tournament_services.add_team(tournament=t, name="Uno", players=players("U", 5), by=arbiter)
    tournament_services.add_team(tournament=t, name="Due", players=players("D", 4), by=arbiter)
    link_members(t)
    rnd = tournament_services.generate_round(tournament=t, by=arbiter)
    # table 1: team 1's first pair N/S; table 2: team 2's second pair N/S
    play(arbiter, rnd, scores={1: (500, 0), 2: (0, 500)})
    pairs_evening(arbiter, "cop", D(2026, 11, 7), [(("U1", "N1", ""), ("U5", "N5", "")),
                                                  (("D1", "N1", ""), ("D2", "N2", ""))], {1: 20, 2: 0})
    services.create_championship(by=arbiter, slug="misto", name="M", tournaments=["sq", "cop"])
    rows = [(r["name"], r["points"], r["position"], r["counted"]) for r in json_rows("misto")]
    assert rows == [("U1 N1", 4, 1, ["sq", "cop"]),
                    ("U2 N2", 2, 2, ["sq"]), ("U3 N3", 2, 2, ["sq"]), ("U4 N4", 2, 2, ["sq"]),
                    ("U5 N5", 2, 2, ["cop"]),
                    ("D1 N1", 2, 6, ["sq", "cop"]), ("D2 N2", 2, 6, ["sq", "cop"]),
                    ("D3 N3", 1, 8, ["sq"]), ("D4 N4", 1, 8, ["sq"])]


def test_kinds_mixed_and_only_tournaments_he_directs(arbiter, django_user_model):
    other = django_user_model.objects.create_user(username="altro", password="x")
    pairs_evening(other, "sua", D(2026, 11, 5), people("Z", 2), {1: 10, 2: 10})
    with pytest.raises(Exception) as exc:
        services.create_championship(by=arbiter, slug="no", name="N", tournaments=["sua"])
    assert "Nessun torneo che dirigi" in str(exc.value)
    boss = django_user_model.objects.create_superuser(username="capo", password="x")
    services.create_championship(by=boss, slug="si", name="S", tournaments=["sua"])
    assert Championship.objects.get(slug="si").tournaments.count() == 1


def test_command_create_add_and_errors(arbiter, capsys):
    pairs_evening(arbiter, "a1", D(2026, 11, 5), people("A", 2), {1: 20, 2: 0})
    pairs_evening(arbiter, "a2", D(2026, 11, 12), people("A", 2), {1: 0, 2: 20})
    from io import StringIO

    out = StringIO()
    call_command("championship", "create", "club", "--name", "Club", "--points", "table:3,1", "--best", "1",
                 "--owner", "arbitro", "a1", stdout=out)
    assert out.getvalue().strip() == "club"
    call_command("championship", "add", "club", "a2", stdout=StringIO())
    rows = json_rows("club")
    # pair 1 (A1a, A1b): 3 then 1 → best 1: 3 (a1); pair 2: 1 then 3 → 3 (a2); tie on total
    # and best and evenings: shared 1st
    assert [(r["name"], r["points"], r["counted"], r["position"]) for r in rows] == [
        ("A1a Anna", 3, ["a1"], 1), ("A1b Bruno", 3, ["a1"], 1),
        ("A2a Anna", 3, ["a2"], 1), ("A2b Bruno", 3, ["a2"], 1)]
    for argv, text in [
        (["create", "club", "--name", "X", "--owner", "arbitro"], "Esiste già"),
        (["create", "x2", "--name", "X", "--points", "podio", "--owner", "arbitro"], "sconosciuta"),
        (["create", "x3", "--name", "X", "--owner", "arbitro", "manca"], "Nessun torneo"),
        (["create", "x4", "--name", "X", "--owner", "nessuno"], "Nessun arbitro"),
        (["create", "x5", "--name", "X", "--best", "0", "--owner", "arbitro"], "da 1 a 1000"),
        (["standings", "manca", "--json"], "Nessun campionato"),
    ]:
        with pytest.raises(CommandError) as exc:
            call_command("championship", *argv, stdout=StringIO())
        assert text in str(exc.value)


def test_individual_evening_points_go_to_each_player(arbiter):
    """Four players, one round (1+2 v 3+4), the N/S line scores 20 VP, E/W 0, MP 0: the two
    N/S players share 1st, (4 + 3) / 2 = 3.5 each; the two E/W players share 3rd, 1.5."""
    from tournaments.services import PlayerData

    t = tournament_services.create_tournament(by=arbiter, name="Individuale", slug="ind", date=D(2026, 11, 8),
                                              kind="individual", plan="D")
    for k in range(1, 5):
        tournament_services.add_player(tournament=t, by=arbiter,
                                       player=PlayerData(first_name=f"Nome{k}", last_name=f"Cognome{k}",
                                                         membership_number=f"70{k}"))
    link_members(t)
    rnd = tournament_services.generate_round(tournament=t, by=arbiter)
    rnd = tournament_services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    table = rnd.tables.get(bye="")
    lines = {s.line: sorted(p.number for p in s.pair.players) for s in table.seats.all()}
    tournament_services.set_arbitral_score(table=table, by=arbiter, vp_ns=Decimal(20), vp_ew=Decimal(0),
                                           reason="prova")
    tournament_services.close_round(round=rnd, by=arbiter)
    services.create_championship(by=arbiter, slug="ind-c", name="I", tournaments=["ind"])
    points = {r["membership_number"]: (r["points"], r["position"]) for r in json_rows("ind-c")}
    assert {n: points[f"70{n}"] for n in lines["ns"]} == {n: (3.5, 1) for n in lines["ns"]}
    assert {n: points[f"70{n}"] for n in lines["ew"]} == {n: (1.5, 3) for n in lines["ew"]}


def test_three_way_tie_prints_thirds_rounded_to_two_decimals(arbiter):
    """4 pairs, VP 20, 10, 10, 10 (MP 0): pair 1 1st, pairs 2-4 share 2nd. table:10,8,6,5:
    pair 1's players 10 each, the six players of pairs 2-4 (8 + 6 + 5) / 3 = 19/3 = 6.333…
    printed 6.33; positions 1, 1 (a pair's two players), then 3 shared by six."""
    pairs_evening(arbiter, "terzi", D(2026, 11, 5), people("T", 4), {1: 20, 2: 10, 3: 10, 4: 10})
    services.create_championship(by=arbiter, slug="terzi-c", name="T", points="table:10,8,6,5",
                                 tournaments=["terzi"])
    rows = json_rows("terzi-c")
    assert [(r["name"], r["points"], r["position"]) for r in rows] == [
        ("T1a Anna", 10.0, 1), ("T1b Bruno", 10.0, 1),
        ("T2a Anna", 6.33, 3), ("T2b Bruno", 6.33, 3), ("T3a Anna", 6.33, 3), ("T3b Bruno", 6.33, 3),
        ("T4a Anna", 6.33, 3), ("T4b Bruno", 6.33, 3)]


def test_an_imported_tournament_counts_with_its_members_found_by_number(arbiter):
    """An imported tournament counts in the championship: gio-1 is exported and imported on
    a server without its members (they are created by number), then gio-2 is played there.
    field, 2 pairs an evening:
    gio-1 Serra–Santoro 2, Bianchi–Verdi 1; gio-2 Serra–Bianchi 2, Santoro–Verdi 1.
    Serra 2 + 2 = 4; Bianchi 1 + 2 = 3 and Santoro 2 + 1 = 3 (same best 2, same evenings:
    shared 2nd); Verdi 1 + 1 = 2, 4th."""
    from members.models import Member
    from tournaments.models import Round, Tournament
    from tournaments.transfer import export_tournament, import_tournament

    data = export_tournament(pairs_evening(arbiter, "gio-1", D(2026, 11, 5), [(SERRA, SANTORO), (BIANCHI, VERDI)],
                                           {1: 20, 2: 0}))
    Round.objects.all().delete()
    Tournament.objects.all().delete()
    Member.objects.all().delete()  # the other server: no member yet
    imported = import_tournament(data=data, by=arbiter, owner=arbiter).tournament
    assert imported.slug == "gio-1" and Member.objects.count() == 4
    pairs_evening(arbiter, "gio-2", D(2026, 11, 12), [(SERRA, BIANCHI), (SANTORO, VERDI)], {1: 20, 2: 0})
    assert Member.objects.count() == 4  # gio-2's players found the imported evening's members by number
    services.create_championship(by=arbiter, slug="dopo-import", name="I", tournaments=["gio-1", "gio-2"])
    assert [(r["membership_number"], r["points"], r["evenings"], r["counted"], r["position"])
            for r in json_rows("dopo-import")] == [
        ("402616", 4.0, 2, ["gio-1", "gio-2"], 1),
        ("402618", 3.0, 2, ["gio-1", "gio-2"], 2),
        ("402617", 3.0, 2, ["gio-1", "gio-2"], 2),
        ("402619", 2.0, 2, ["gio-1", "gio-2"], 4)]
