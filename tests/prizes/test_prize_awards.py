"""Prizes of a tournament from its standings (rules.md §18), values by hand.

Six pairs, one round, VP 20, 18, 15, 15, 10, 5 (MP 0, so pairs 3 and 4 share 3rd). Pair 1,
3, 4 and 6: both players *Dame*; pair 2: one *Dame* and one without category; pair 5: both
*Seniores*. Groups (set for the prizes only): pairs 1-3 group 1, 4-6 group 2.
"""
import datetime
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.championships.helpers import pairs_evening, people
from tournaments import pages
from tournaments.errors import ArbiterError
from tournaments.models import Tournament
from tournaments.services import prizes as prize_services
from tournaments.services import update_tournament

PRIZES = [{"prize": "1° assoluto", "scope": "overall"}, {"prize": "2° assoluto", "scope": "overall"},
          {"prize": "1ª Dame", "scope": "category:Dame"}, {"prize": "2ª Dame", "scope": "category:dame"},
          {"prize": "1° Seniores", "scope": "category:Seniores"},
          {"prize": "1° Esordienti", "scope": "category:Esordienti"},
          {"prize": "1° girone 2", "scope": "group:2"}]


@pytest.fixture
def evening(arbiter):
    cats = {f"P{k}{s}": "Dame" for k in (1, 3, 4, 6) for s in "ab"}
    cats.update({"P2a": "Dame", "P5a": "Seniores", "P5b": "Seniores"})
    t = pairs_evening(arbiter, "premi", datetime.date(2026, 11, 5), people("P", 6),
                      {1: 20, 2: 18, 3: 15, 4: 15, 5: 10, 6: 5}, categories=cats, groups=2)
    prize_services.set_prize_list(tournament=t, by=arbiter, prizes=PRIZES)
    return Tournament.objects.get(pk=t.pk)


def prizes_json(slug):
    out = StringIO()
    call_command("prizes", slug, "--json", stdout=out)
    return json.loads(out.getvalue())["prizes"]


def won(slug):
    return [(p["prize"], p["entrant"], p["ex_aequo"]) for p in prizes_json(slug)]


def test_not_cumulative(evening):
    """1° → 1, 2° → 2; 1ª Dame: pair 1 already won, pair 2 is not all Dame → pair 3 (3=, ex
    aequo with pair 4, also Dame); 2ª Dame → pair 4 (ex aequo); Seniores → 5; nobody is
    Esordienti; group 2 (pairs 4-6): 4 won, 5 won → 6."""
    assert won("premi") == [("1° assoluto", 1, False), ("2° assoluto", 2, False), ("1ª Dame", 3, True),
                            ("2ª Dame", 4, True), ("1° Seniores", 5, False), ("1° Esordienti", None, False),
                            ("1° girone 2", 6, False)]
    first = prizes_json("premi")[0]
    assert first["names"] == "P1a Anna – P1b Bruno"
    assert prizes_json("premi")[5] == {"prize": "1° Esordienti", "entrant": None, "names": None, "ex_aequo": False}


def test_cumulative(evening, arbiter):
    """The k-th prize of a scope to its k-th entrant: 1ª Dame → pair 1 (also 1° assoluto),
    2ª Dame → pair 3 (3=, ex aequo); group 2's first is pair 4 (its 3= is shared with pair 3
    of group 1 only, so not ex aequo within the group)."""
    update_tournament(tournament=evening, by=arbiter, prizes_cumulative=True)
    assert won("premi") == [("1° assoluto", 1, False), ("2° assoluto", 2, False), ("1ª Dame", 1, False),
                            ("2ª Dame", 3, True), ("1° Seniores", 5, False), ("1° Esordienti", None, False),
                            ("1° girone 2", 4, False)]


def test_command_sets_the_list_and_refuses_a_bad_file(evening, tmp_path):
    good = tmp_path / "premi.json"
    good.write_text(json.dumps([{"prize": "Primo", "scope": "overall"}]), encoding="utf-8")
    call_command("prizes", "premi", "--set", str(good), stdout=StringIO())
    assert won("premi") == [("Primo", 1, False)]
    for content, text in [("[{\"prize\": \"X\", \"scope\": \"girone\"}]", "ambito sconosciuto"),
                          ("{not json", "non è un JSON valido")]:
        bad = tmp_path / "bad.json"
        bad.write_text(content, encoding="utf-8")
        with pytest.raises(CommandError) as exc:
            call_command("prizes", "premi", "--set", str(bad), stdout=StringIO())
        assert text in str(exc.value)
    assert won("premi") == [("Primo", 1, False)]  # nothing changed
    with pytest.raises(CommandError):
        call_command("prizes", "manca", "--json", stdout=StringIO())


def test_copy_from_another_tournament(evening, arbiter):
    other = pairs_evening(arbiter, "altra", datetime.date(2026, 11, 12), people("R", 2), {1: 20, 2: 0})
    prize_services.copy_prize_list(tournament=other, source=evening, by=arbiter)
    other.refresh_from_db()
    assert other.prize_list == PRIZES
    with pytest.raises(ArbiterError):
        prize_services.copy_prize_list(tournament=other, source=other, by=arbiter)
    # two pairs, no categories: 1° → 1, 2° → 2, the rest nobody
    assert [p.entrant for p in pages.prizes.prize_awards(other)] == [1, 2, None, None, None, None, None]


def test_a_team_tournament_names_the_team(arbiter, tmp_path):
    """A team tournament's prize list names the team: two teams, one match, team 1 «Uno» wins at
    both tables (500–0 and 0–500 with team 2's pair N/S at table 2) → 1st «Uno», 2nd «Due»;
    nobody is of category Dame: null."""
    from tests.teams.helpers import play, players
    from tournaments import services

    t = services.create_tournament(by=arbiter, name="Squadre", slug="sq-premi", date=datetime.date(2026, 11, 6),
                                   kind="teams", plan="R", hands_per_round=4, vp_scale="vp20-4h")
    services.add_team(tournament=t, name="Uno", players=players("U", 4), by=arbiter)
    services.add_team(tournament=t, name="Due", players=players("D", 4), by=arbiter)
    play(arbiter, services.generate_round(tournament=t, by=arbiter), scores={1: (500, 0), 2: (0, 500)})
    path = tmp_path / "premi.json"
    path.write_text(json.dumps([{"prize": "1ª squadra", "scope": "overall"},
                                {"prize": "2ª squadra", "scope": "overall"},
                                {"prize": "1ª squadra Dame", "scope": "category:Dame"}]), encoding="utf-8")
    call_command("prizes", "sq-premi", "--set", str(path), stdout=StringIO())
    assert prizes_json("sq-premi") == [
        {"prize": "1ª squadra", "entrant": 1, "names": "Uno", "ex_aequo": False},
        {"prize": "2ª squadra", "entrant": 2, "names": "Due", "ex_aequo": False},
        {"prize": "1ª squadra Dame", "entrant": None, "names": None, "ex_aequo": False}]
