"""Tampered copies of a valid tournament file: each kind a forger (or a broken editor) may
send, with the path in the file its refusal must name first. Shared by
``tests/transfer/test_tampered_files.py`` and ``bench/fuzz_import.py``.

The base file (:func:`build_base`): 6 pairs, Mitchell, 4 hands; round 1 played and
closed (table 1 at 300–100 in its first hand, the other tables with 4 hands of 0–0), round
2 published with table 1 entered by the arbiter with a sum error in its declared totals
(accepted meanwhile, as the services do), a 1-VP penalty.
"""
from __future__ import annotations

import copy
import json
from decimal import Decimal
from pathlib import Path

from tournaments import services, transfer


def build_base(arbiter) -> bytes:
    """The base file's bytes, built through the services in the current database."""
    tournament = services.create_tournament(by=arbiter, name="Torneo base", slug="base",
                                            date=__import__("datetime").date(2026, 11, 30), venue="Circolo")
    for k in range(1, 7):
        services.add_pair(tournament=tournament, by=arbiter, players=[
            services.PlayerData(first_name=f"Anna{k}", last_name=f"Rossi{k}", membership_number=f"A{k}"),
            services.PlayerData(first_name=f"Bruno{k}", last_name=f"Verdi{k}", membership_number=f"B{k}")])
    first = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter,
                                   acknowledge_warnings=True)
    for t in first.tables.filter(bye="").order_by("number"):
        hands = [services.HandInput(300, 100)] + [services.HandInput(0, 0)] * 3 if t.number == 1 \
            else [services.HandInput(0, 0)] * 4
        services.save_score_sheet(table=t, hands=hands, by=arbiter, validate=True)
    services.close_round(round=first, by=arbiter)
    second = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter,
                                    acknowledge_warnings=True)
    table = second.tables.filter(bye="").order_by("number").first()
    services.save_score_sheet(table=table, hands=[services.HandInput(150, 50)] * 4, by=arbiter,
                              declared=(600, 250))
    services.add_penalty(pair=tournament.pairs.get(number=2), vp=Decimal("1"), reason="ritardo", by=arbiter)
    return transfer.export_tournament(tournament)


DATA = Path(__file__).resolve().parents[1] / "data"


def individual_tournament(*, name: str, slug: str):
    """13 players (tests/data/players-13.csv), plan MMDD, 4 hands: rounds 1–2 played by the
    simulator, round 3 published with a sheet draft kept on its table 1, player 13 withdrawn
    from round 4 and a 1 VP penalty to player 5. Returns the Tournament."""
    from tournaments.demo.simulation import simulate, simulator_user
    from tournaments.models import Player

    t = simulate(registrations=DATA / "players-13.csv", kind="individual", plan="MMDD", hands=4, seed=11,
                 name=name, slug=slug, stop_after=2)
    by = simulator_user()
    rnd = services.publish_round(round=t.rounds.get(number=3), by=by)
    services.save_sheet_draft(table=rnd.tables.get(number=1), cells={"h1_ns": "150", "h1_ew": ""}, by=by)
    services.withdraw_player(player=Player.objects.get(tournament=t, number=13), from_round=4, by=by,
                             reason="deve partire")
    services.add_player_penalty(player=Player.objects.get(tournament=t, number=5), vp=1, reason="ritardo", by=by)
    return t


def build_kind_base(kind: str) -> bytes:
    """A valid file of the other kinds, for the fuzz: ``"individual"`` (13 players, plan MMDD,
    rounds 1–2 played by the simulator, round 3 published with a sheet draft, player 13
    withdrawn from round 4, a 1 VP penalty to player 5) or ``"teams"`` (5 teams, plan RRRR,
    rounds 1–2 played, round 3 published with match 1's team B forfeiting, team 5 withdrawn
    from round 4). Built through the simulator and the services in the current database."""
    from tournaments.demo.simulation import simulate, simulator_user
    from tournaments.models import Team

    if kind == "individual":
        t = individual_tournament(name="Individuale base", slug="base-individuale")
    elif kind == "teams":
        t = simulate(registrations=DATA / "teams-5.csv", kind="teams", plan="RRRR", hands=4, seed=3,
                     name="Squadre base", slug="base-squadre", stop_after=2)
        by = simulator_user()
        rnd = services.publish_round(round=t.rounds.get(number=3), by=by)
        first = rnd.matches.get(number=1)
        services.forfeit_match(match=first, team=first.team_b, by=by, reason="manca un giocatore")
        services.withdraw_team(team=Team.objects.get(tournament=t, number=5), from_round=4, by=by, reason="partono")
    else:
        raise ValueError(f"kind: individual or teams, not {kind!r}")
    return transfer.export_tournament(t)


def _sheet(doc, rnd=0, table=0):
    return doc["rounds"][rnd]["tables"][table]["sheet"]


def _set(path_value):
    def apply(doc):
        for path, value in path_value:
            target = doc
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value(target[path[-1]]) if callable(value) else value
        return doc
    return apply


def _nested(depth: int):
    value: list = []
    for _k in range(depth - 1):
        value = [value]
    return value


def _extra_rounds(doc):
    last = doc["rounds"][-1]
    for n in range(len(doc["rounds"]) + 1, 42):
        rnd = copy.deepcopy(last)
        rnd["number"], rnd["state"], rnd["tables"] = n, "draft", []
        doc["rounds"].append(rnd)
    return doc


def _seat_twice(doc):
    tables = doc["rounds"][0]["tables"]
    tables[1]["ns"] = tables[0]["ns"]
    return doc


def _accept_without_sum_error(doc):
    sheet = _sheet(doc, 1)
    sheet["sum_error"] = False
    return doc


def _draft_with_sheet(doc):
    doc["rounds"][1]["state"] = "draft"
    doc["rounds"][1]["published_at"] = None
    return doc


def _token_twice(doc):
    doc["rounds"][1]["tables"][0]["token"] = doc["rounds"][0]["tables"][0]["token"]
    return doc


def _membership_twice(doc, *, full_width=False):
    number = doc["players"][0]["membership_number"]
    assert number, "the base file's first player has a membership number"
    if full_width:  # «８８０００７» is 880007 (members.numbers): the same number
        number = "".join(chr(0xFF10 + int(d)) if d.isdigit() else d for d in number)
    doc["players"][1]["membership_number"] = number
    return doc


S0 = ("rounds", 0, "tables", 0, "sheet")
T0 = ("rounds", 0, "tables", 0)

#: name → (change of the file's object, the path the refusal names first). The first block
#: is an independent reviewer's list of hostile files; then more of the same kinds.
TAMPERS = {
    "vp_999_0": (_set([(S0 + ("vp_ns",), "999.00"), (S0 + ("vp_ew",), "0.00")]), "rounds[0].tables[0].sheet.vp_ns"),
    "vp_not_the_scale": (_set([(S0 + ("vp_ns",), lambda v: str(Decimal(v) + 1))]), "rounds[0].tables[0].sheet.vp_ns"),
    "mp_not_the_sum": (_set([(S0 + ("mp_ns",), lambda v: v + 5)]), "rounds[0].tables[0].sheet.mp_ns"),
    "hand_of_101": (_set([(S0 + ("hands", 0, "ns_score"), 101)]), "rounds[0].tables[0].sheet.hands"),
    "hand_of_10e12": (_set([(S0 + ("hands", 0, "ns_score"), 10 ** 12)]), "rounds[0].tables[0].sheet.hands"),
    "sheet_of_2_hands": (_set([(S0 + ("hands",), lambda h: h[:2])]), "rounds[0].tables[0].sheet.hands"),
    "sheet_of_1000_hands": (_set([(S0 + ("hands",), lambda h: [dict(h[0], number=k) for k in range(1, 1001)])]),
                            "rounds[0].tables[0].sheet.hands"),
    "closed_round_unconfirmed_sheet": (_set([(S0 + ("state",), "entered")]), "rounds[0].tables[0].sheet.state"),
    "two_published_rounds": (_set([(("rounds", 0, "state"), "published")]), "rounds[1].state"),
    "plan_XYZ": (_set([(("tournament", "plan"), "XYZ")]), "tournament.plan"),
    "plan_bars": (_set([(("tournament", "plan"), "||M")]), "tournament.plan"),
    "unknown_tiebreak": (_set([(("tournament", "tiebreaks"), "vp,fortuna")]), "tournament.tiebreaks"),
    "groups_32767": (_set([(("tournament", "groups"), 32767)]), "tournament.groups"),
    "mitchell_order_x_null": (_set([(("tournament", "mitchell_order"), ["x", None])]), "tournament.mitchell_order[0]"),
    "pin_abcd": (_set([(T0 + ("pin",), "abcd")]), "rounds[0].tables[0].pin"),
    "token_a": (_set([(T0 + ("token",), "a")]), "rounds[0].tables[0].token"),
    "nesting_400": (_set([(("audit", 0, "new"), _nested(400))]), "audit[0].new"),
    # more of the same kinds
    "sum_error_dropped": (_accept_without_sum_error, "rounds[1].tables[0].sheet.sum_error"),
    "draft_round_with_a_sheet": (_draft_with_sheet, "rounds[1].tables[0].sheet.state"),
    "round_number_gap": (_set([(("rounds", 1, "number"), 5)]), "rounds"),
    "41_rounds": (_extra_rounds, "rounds"),
    "pair_seated_twice": (_seat_twice, "rounds[0].tables[1].ns"),
    "pair_number_2_63": (_set([(("pairs",), lambda pairs: pairs + [dict(pairs[0], number=2 ** 63 - 1)])]),
                         "pairs[6].number"),
    # other control characters and bidirectional overrides are removed on import (schema.TYPED_LINES)
    "control_character_in_a_name": (_set([(("players", 0, "last_name"), "Ros\x00si")]), "players[0].last_name"),
    "nul_in_the_tournament_name": (_set([(("tournament", "name"), "Torneo \x00[31m")]), "tournament.name"),
    "hands_per_round_1000": (_set([(("tournament", "hands_per_round"), 1000)]), "tournament.hands_per_round"),
    "hands_per_round_0": (_set([(("tournament", "hands_per_round"), 0)]), "tournament.hands_per_round"),
    "bye_percent_500": (_set([(("tournament", "bye_percent"), "500.00")]), "tournament.bye_percent"),
    "mitchell_step_0": (_set([(("tournament", "mitchell_step"), 0)]), "tournament.mitchell_step"),
    "table_number_twice": (_set([(("rounds", 0, "tables", 1, "number"), 1)]), "rounds[0].tables[1].number"),
    "arbitral_vp_beyond_the_scale": (_set([(S0 + ("arbitral",), True), (S0 + ("hands",), []),
                                           (S0 + ("vp_ns",), "21.00")]), "rounds[0].tables[0].sheet.vp_ns"),
    "empty_sheet_with_points": (_set([(("rounds", 1, "tables", 1, "sheet", "mp_ns"), 500)]),
                                "rounds[1].tables[1].sheet"),
    "withdrawal_round_of_20_digits": (_set([(("pairs", 0, "withdrawn_from_round"), 10 ** 19)]),
                                      "pairs[0].withdrawn_from_round"),
    "hands_numbered_wrong": (_set([(S0 + ("hands", 0, "number"), 7)]), "rounds[0].tables[0].sheet.hands"),
    "tiebreak_twice": (_set([(("tournament", "tiebreaks"), "vp,vp")]), "tournament.tiebreaks"),
    "sheet_not_an_object": (_set([(S0, "\x07\x1b")]), "rounds[0].tables[0].sheet"),
    "draft_on_a_validated_sheet": (_set([(S0 + ("draft",), {"cells": {}})]), "rounds[0].tables[0].sheet.draft"),
    "penalty_round_30000": (_set([(("penalties", 0, "round_number"), 30000)]), "penalties[0].round_number"),
    "clock_added_10e15": (_set([(("rounds", 1, "clock_added_seconds"), 10 ** 15)]), "rounds[1].clock_added_seconds"),
    "clock_added_minus_10e15": (_set([(("rounds", 1, "clock_added_seconds"), -10 ** 15)]),
                                "rounds[1].clock_added_seconds"),
    "clock_paused_10e15": (_set([(("rounds", 1, "clock_paused_seconds"), 10 ** 15)]),
                           "rounds[1].clock_paused_seconds"),
    "table_clock_extra_10e15": (_set([(("rounds", 1, "tables", 0, "clock_extra_seconds"), 10 ** 15)]),
                                "rounds[1].tables[0].clock_extra_seconds"),
    "captain_token_on_two_tables": (_token_twice, "rounds[1].tables[0].token"),
    "plan_shorter_than_the_rounds": (_set([(("tournament", "plan"), "M")]), "tournament.plan"),
    # checked from outside: refused by the database's constraint with a sentence but no path
    "membership_number_twice": (_membership_twice, "players[1].membership_number"),
    "membership_number_twice_full_width": (lambda doc: _membership_twice(doc, full_width=True),
                                           "players[1].membership_number"),
}


def tampered(base: bytes, name: str) -> bytes:
    """The bytes of ``base`` changed by tamper ``name``."""
    change, _path = TAMPERS[name]
    return json.dumps(change(json.loads(base)), ensure_ascii=False).encode("utf-8")
