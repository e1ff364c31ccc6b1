"""A simultaneous evening's combined standings and the join command (rules.md §20, §8),
values computed by hand.

Two clubs, «a» and «b», each play a one-round Mitchell of four pairs (tables 1–3 and 2–4,
checked below). Arbitral scores, per pair (VP, MP):

======  ==============  ==============
pair    club a          club b
======  ==============  ==============
1       15 VP, 1500 MP  15 VP, 1300 MP
3        5 VP,  900 MP   5 VP, 1100 MP
2       12 VP, 1200 MP  12 VP, 1200 MP
4        8 VP, 1000 MP   8 VP, 1000 MP
======  ==============  ==============

MP difference: a1 +600, a3 −600, b1 +200, b3 −200, a2 = b2 +200, a4 = b4 −200.
Combined (VP, then MP difference, head-to-head — a2 and b2 never met, so skipped —, MP
scored): a1 and b1 tie on 15 VP, a1's +600 beats b1's +200 → 1, 2; a2 and b2 equal on every
key → 3=, 3=; a4 and b4 likewise → 5=, 5=; then b3 (5 VP, −200) 7 and a3 (−600) 8.
Within each club: pair 1 first, 2 second, 4 third, 3 fourth.
"""
import json

import pytest
from django.core.management import call_command

from simultaneous import selectors, services
from tournaments import services as tournament_services
from tournaments.errors import ArbiterError
from tournaments.services.entrants import PlayerData

from .helpers import DAY, RESULTS, club_tournament, play, run

pytestmark = pytest.mark.django_db


def test_vp_tie_across_clubs_broken_by_mp_difference_and_full_ties_shared(arbiter, clubs, event):
    ta, tb = club_tournament(arbiter, event, clubs["a"]), club_tournament(arbiter, event, clubs["b"])
    play(arbiter, ta, RESULTS["a"])
    play(arbiter, tb, RESULTS["b"])
    view = selectors.combined_standings(event)
    assert view.final is True
    got = [(r.club.slug, r.entrant, r.position_label, r.club_position, r.vp, r.mp_difference) for r in view.rows]
    assert got == [
        ("a", 1, "1", 1, 15, 600), ("b", 1, "2", 1, 15, 200),
        ("a", 2, "3=", 2, 12, 200), ("b", 2, "3=", 2, 12, 200),
        ("a", 4, "5=", 3, 8, -200), ("b", 4, "5=", 3, 8, -200),
        ("b", 3, "7", 4, 5, -200), ("a", 3, "8", 4, 5, -600),
    ]
    data = json.loads(run("simultaneous", "standings", "sim-dic", "--json"))
    assert data["final"] is True
    assert data["rows"][1] == {"club": "b", "tournament": "t-b", "entrant": 1, "names": "B1a Anna – B1b Bruno",
                               "vp": 15.0, "mp_diff": 200, "position": 2, "club_position": 1}


def test_provisional_until_every_club_closes_its_last_round(arbiter, clubs, event):
    ta, tb = club_tournament(arbiter, event, clubs["a"]), club_tournament(arbiter, event, clubs["b"])
    play(arbiter, ta, RESULTS["a"])
    view = selectors.combined_standings(event)
    assert view.final is False and [c.slug for c in view.pending] == ["b"]
    assert json.loads(run("simultaneous", "standings", "sim-dic", "--json"))["final"] is False
    # club b has no closed round: its pairs have 0 VP, 0 MP and share the last place (5=)
    assert [(r.club.slug, r.entrant, r.position_label) for r in view.rows][:4] == [
        ("a", 1, "1"), ("a", 2, "2"), ("a", 4, "3"), ("a", 3, "4")]
    assert {r.position_label for r in view.rows if r.club.slug == "b"} == {"5="}
    play(arbiter, tb, RESULTS["b"])
    assert selectors.combined_standings(event).final is True


def test_an_attached_tournament_keeps_the_events_settings(arbiter, clubs, event):
    ta = club_tournament(arbiter, event, clubs["a"])
    with pytest.raises(ArbiterError, match="serata simultanea «Simultaneo di dicembre»"):
        tournament_services.update_tournament(tournament=ta, by=arbiter, hands_per_round=3)
    tournament_services.update_tournament(tournament=ta, by=arbiter, venue="Sala grande")  # not shared: free


def test_prizes_over_the_combined_field_and_per_club(arbiter, clubs, event):
    """Not cumulative (rules.md §18): 1st overall a1; 1st of club a goes to a2 (a1 has a
    prize); 1st of club b is b1."""
    ta, tb = club_tournament(arbiter, event, clubs["a"]), club_tournament(arbiter, event, clubs["b"])
    play(arbiter, ta, RESULTS["a"])
    play(arbiter, tb, RESULTS["b"])
    services.set_prize_list(event=event, prizes=[{"prize": "1° assoluto", "scope": "overall"},
                                                 {"prize": "1° circolo A", "scope": "club:a"},
                                                 {"prize": "1° circolo B", "scope": "club:b"}])
    awards = selectors.prize_awards(event)
    assert [(a.name, a.row.club.slug, a.row.entrant) for a in awards] == [
        ("1° assoluto", "a", 1), ("1° circolo A", "a", 2), ("1° circolo B", "b", 1)]
    with pytest.raises(ArbiterError, match="«c» non è invitato"):
        services.set_prize_list(event=event, prizes=[{"prize": "x", "scope": "club:c"}])
    rows = selectors.federation_rows(event)
    assert len(rows) == 16  # 8 pairs, two players each
    assert rows[0][1:7] == ["A1a", "Anna", "Circolo A", 1, "", 1]


def test_join_a_tournament_made_elsewhere_finished_included(arbiter, clubs, event):
    t = tournament_services.create_tournament(by=arbiter, club=clubs["b"], name="Giovedì", slug="gio-b", date=DAY,
                                              plan="M", hands_per_round=4, vp_scale="vp20-4h")
    for k in range(1, 5):
        tournament_services.add_pair(tournament=t, by=arbiter, players=[
            PlayerData(last_name=f"B{k}a", first_name="Anna"), PlayerData(last_name=f"B{k}b", first_name="Bruno")])
    play(arbiter, t, RESULTS["b"])
    assert "gio-b" in run("simultaneous", "join", "sim-dic", "gio-b")
    assert [r.position for r in selectors.combined_standings(event).rows] == [1, 2, 3, 4]


def join_refused(*args, lang: str = "it") -> str:
    """Run ``simultaneous --lang LANG join ARGS`` and return its refusal: a ``CommandError``,
    which ``manage.py`` prints on stderr with exit status ``returncode`` (1). Called through
    ``call_command``: ``manage.py``'s own entry point closes the database connections, which
    PostgreSQL's test transaction does not survive."""
    from django.core.management.base import CommandError

    with pytest.raises(CommandError) as exc:
        call_command("simultaneous", "join", *args, lang=lang)
    assert exc.value.returncode == 1
    return str(exc.value)


def test_join_refused_for_other_hands_and_for_a_club_not_invited(arbiter, clubs, event):
    tournament_services.create_tournament(by=arbiter, club=clubs["a"], name="Tre smazzate", slug="tre", date=DAY,
                                          plan="M", hands_per_round=3, vp_scale="vp20-4h")
    err = join_refused("sim-dic", "tre")
    assert "Il torneo «tre» non ha le impostazioni della serata simultanea: differisce in smazzate per turno." in err
    tournament_services.create_tournament(by=arbiter, club=clubs["c"], name="Circolo C", slug="di-c", date=DAY,
                                          plan="M", hands_per_round=4, vp_scale="vp20-4h")
    err = join_refused("sim-dic", "di-c")
    assert "Il circolo «c» non è invitato alla serata simultanea «sim-dic»." in err
    assert not event.participations.exists()


def test_create_refuses_a_custom_scale_and_unknown_clubs(clubs):
    with pytest.raises(ArbiterError, match="tabelle personalizzate restano del circolo"):
        services.create_event(slug="x", name="X", date=DAY, plan="M", hands=4, scale="mia", clubs=["a"])
    with pytest.raises(ArbiterError, match="Nessun circolo con indirizzo «zz»"):
        services.create_event(slug="x", name="X", date=DAY, plan="M", hands=4, clubs=["a", "zz"])
    assert run("simultaneous", "create", "sim-2", "--name", "Due", "--date", "2026-12-10", "--plan", "MMD",
               "--hands", "4", "--clubs", "a,b").strip() == "sim-2"


def test_join_refusal_in_english(arbiter, clubs, event):
    tournament_services.create_tournament(by=arbiter, club=clubs["c"], name="Circolo C", slug="di-c", date=DAY,
                                          plan="M", hands_per_round=4, vp_scale="vp20-4h")
    err = join_refused("sim-dic", "di-c", lang="en")
    assert "Club «c» is not invited to the simultaneous evening «sim-dic»." in err


def test_an_individual_event_ranks_players(arbiter, clubs):
    """Individual (rules.md §9): every table N/S 15 VP, 1000 MP, E/W 5 VP, 600 MP. With 8
    players (two tables) per club and two clubs, the 8 N/S players tie on every key (15 VP,
    +400, 1000 MP scored; no head-to-head per player) → 1=, the 8 E/W players → 9=."""
    event = services.create_event(slug="ind", name="Individuale", date=DAY, plan="D", hands=4, clubs=["a", "b"],
                                  kind="individual")
    assert event.tiebreaks == "vp,mp_difference,mp_scored"
    for slug in ("a", "b"):
        t = services.create_club_tournament(event=event, club=clubs[slug], by=arbiter, name=slug, slug=f"ind-{slug}")
        for k in range(1, 9):
            tournament_services.add_player(tournament=t, by=arbiter,
                                           player=PlayerData(last_name=f"{slug.upper()}{k}", first_name="Nome"))
        rnd = tournament_services.generate_round(tournament=t, by=arbiter)
        rnd = tournament_services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
        for table in rnd.tables.filter(bye="").order_by("number"):
            tournament_services.set_arbitral_score(table=table, by=arbiter, vp_ns=15, vp_ew=5, mp_ns=1000, mp_ew=600,
                                                   reason="risultato di prova")
        tournament_services.close_round(round=rnd, by=arbiter)
    view = selectors.combined_standings(event)
    assert view.final is True and len(view.rows) == 16
    assert [(r.position_label, r.vp, r.mp_difference) for r in view.rows] == (
        [("1=", 15, 400)] * 8 + [("9=", 5, -400)] * 8)
    assert {r.club_position_label for r in view.rows[:8]} == {"1="}
    assert {r.club_position_label for r in view.rows[8:]} == {"5="}


def test_combined_standings_read_each_club_in_a_fixed_number_of_queries(arbiter, clubs, event,
                                                                         django_assert_max_num_queries):
    """Per club: closed rounds, entrants, penalties, the five flat reads of its results, the
    lateness forfeits and the names (two) — 11 queries, whatever its size; plus the
    participations and the invited clubs (the 100-club evening of bench/federation.py must stay fast)."""
    ta, tb = club_tournament(arbiter, event, clubs["a"]), club_tournament(arbiter, event, clubs["b"])
    play(arbiter, ta, RESULTS["a"])
    play(arbiter, tb, RESULTS["b"])
    with django_assert_max_num_queries(2 + 11 * 2):
        selectors.combined_standings(event)


def test_prizes_from_the_shell(arbiter, clubs, event):
    ta, tb = club_tournament(arbiter, event, clubs["a"]), club_tournament(arbiter, event, clubs["b"])
    play(arbiter, ta, RESULTS["a"])
    play(arbiter, tb, RESULTS["b"])
    out = run("simultaneous", "prizes", "sim-dic", "1° assoluto | overall", "1° B | club:b", "--show")
    # not cumulative: b1 is 2nd overall but first of club b, a1 took the overall prize
    assert out.splitlines() == ["1° assoluto\tA1a Anna – A1b Bruno (a)", "1° B\tB1a Anna – B1b Bruno (b)"]


@pytest.mark.slow
def test_join_two_simulated_evenings_and_rank_them_together(clubs, event, data_dir, tmp_path):
    """``simulate --club … --date …`` makes each club's evening (9 pairs, plan M, a rest a
    round); both join; every combined row keeps its VP and MP difference from its own
    tournament's standings, and the combined order is by VP then MP difference (§8)."""
    from tournaments.models import Tournament
    from tournaments.selectors import standings_after

    for slug in ("a", "b"):
        call_command("simulate", "--registrations", str(data_dir / "registrations-9.csv"), "--plan", "M",
                     "--hands", "4", "--seed", "7" if slug == "a" else "8", "--out", str(tmp_path / slug),
                     "--slug", f"sim-{slug}", "--club", slug, "--date", "2026-12-03")
        run("simultaneous", "join", "sim-dic", f"sim-{slug}")
    view = selectors.combined_standings(event)
    assert view.final is True and len(view.rows) == 18
    for slug in ("a", "b"):
        own = {r.pair: r for r in standings_after(Tournament.objects.get(slug=f"sim-{slug}")).rows}
        for r in (r for r in view.rows if r.club.slug == slug):
            assert (r.vp, r.mp_difference, r.club_position) == (own[r.entrant].vp, own[r.entrant].mp_difference,
                                                                 own[r.entrant].position)
    keys = [(r.vp, r.mp_difference) for r in view.rows]
    assert keys == sorted(keys, reverse=True)
