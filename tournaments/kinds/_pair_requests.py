"""The pairing request of a pair tournament's round (pairing-io.md) built from the database: the pairs in
play, the ranking, the rests of the session, the meetings so far, the Mitchell offset."""
from __future__ import annotations

import random

from .. import selectors
from ..models import (
    Pair,
    Round,
    Tournament,
)
from ..plans import last_round_rematch
from ._groups import in_groups, pair_group_lists


def _active_pairs(tournament: Tournament, round_number: int) -> list[Pair]:
    """The registered pairs in play in round ``round_number`` (formed partnerships of an
    individual tournament are not entrants)."""
    return [p for p in tournament.pairs.filter(round__isnull=True).order_by("number")
            if p.is_active_in(round_number)]


def active_pair_numbers(tournament: Tournament, round_number: int) -> list[int]:
    """Numbers of the registered pairs in play in round ``round_number``."""
    return [p.number for p in _active_pairs(tournament, round_number)]


def build_pair_request(tournament: Tournament, number: int, *, seed: int | None = None) -> dict:
    """The JSON request (pairing-io.md) for round ``number`` of the pair tournament ``tournament``.

    Mitchell: the movement order is fixed at the first Mitchell round (pair number
    order, or shuffled by ``seed`` when the first round is drawn by lot) and kept in
    ``Tournament.mitchell_order``; withdrawn pairs stay in it as ``absent`` seats
    (rules.md §6). ``offset`` is the E/W line's displacement in tables
    (:func:`mitchell_offset`: a step change applies to the moves from then on);
    ``ranking`` (standings after the previous round), ``rested`` (pairs that rested in
    the session) and ``met`` (every earlier meeting) let the engine exchange a second
    rest (rules.md §5, art. 33) and list repeated meetings. Danish: ranking from the
    standings after the previous round (rules.md §7, §8), every earlier meeting, and the
    pairs that already rested in this session. The plan's ``|`` splits sessions: the rest
    rule counts within the session of round ``number`` only (rules.md §5, art. 33), while
    the standings (``ranking``), the meetings and the Mitchell movement (``offset``,
    ``round``) run on across sessions.
    """
    system = tournament.system_of_round(number)
    if system == Round.System.ROUND_ROBIN:
        return round_robin_request(tournament, number)
    pairs = list(tournament.pairs.filter(round__isnull=True).order_by("number"))
    if system == Round.System.MITCHELL:
        order = list(tournament.mitchell_order or [])
        known = set(order)
        missing = [p.number for p in pairs if p.number not in known]
        if not order and seed is not None:
            random.Random(seed).shuffle(missing)
        order += missing
        previous_mitchell = tournament.rounds.filter(number__lt=number, system=Round.System.MITCHELL).count()
        absent = [p.number for p in pairs if not p.is_active_in(number)]
        request = {
            "system": "mitchell",
            "pairs": order,
            "round": previous_mitchell + 1,
            "step": tournament.mitchell_step,
            "offset": mitchell_offset(tournament, number),
        }
        if absent:
            request["absent"] = absent
        present = {n for n in order if n not in set(absent)}
        request["ranking"] = _ranking(tournament, number, present, default=order)
        request["rested"] = sorted(_rested_in_session(tournament, number) & set(order))
        request["met"] = selectors.meetings(tournament, before_round=number)[0]
        return in_groups(tournament, request, pair_group_lists)
    active = [p for p in pairs if p.is_active_in(number)]
    active_numbers = {p.number for p in active}
    if number == 1 or not tournament.rounds.filter(number__lt=number).exists():
        ranking = [p.number for p in active]
        if tournament.first_round == Tournament.FirstRound.LOT and seed is not None:
            random.Random(seed).shuffle(ranking)
    else:
        ranking = _ranking(tournament, number, active_numbers, default=sorted(active_numbers))
    met, met_last = selectors.meetings(tournament, before_round=number)
    rested = _rested_in_session(tournament, number)
    return in_groups(tournament, {
        "system": "danish",
        "ranking": ranking,
        "met": met,
        "met_last_round": met_last,
        "rested": sorted(rested & active_numbers),
        "avoid_rematches": tournament.rematch_window,
        **last_round_rematch(tournament, number),
    }, pair_group_lists)


def round_robin_request(tournament: Tournament, number: int) -> dict:
    """The request (pairing-io.md "Round robin", rules.md §14) of round ``number``, an ``R``
    round of the plan.

    ``round`` is r = the number of round-robin rounds of the tournament before ``number``,
    plus 1 (the r-th ``R`` round of the plan; rounds of other systems in between do not
    count, so ``DRRR`` plays the round robin's rounds 1, 2, 3). Entrants are every pair in
    number order, withdrawn ones included as ``absent`` (they keep their slot, their
    opponent gets a forced rest, rules.md §5 art. 32, as Mitchell does); with groups
    (``Tournament.groups`` > 1) ``groups`` holds one such list per group (group 1 first,
    :func:`tournaments.kinds._groups.pair_group_lists`) instead of ``pairs``, and the engine
    numbers the tables group after group. ``met`` (every earlier meeting) lets it list the
    repeats it cannot avoid; ``rested`` (rests of the session) gets a warning for a second
    rest (the schedule itself is fixed).
    """
    before = tournament.rounds.filter(number__lt=number, system=Round.System.ROUND_ROBIN).count()
    groups = pair_group_lists(tournament)
    everyone = [n for g in groups for n in g]
    absent = sorted(p.number for p in tournament.pairs.all() if not p.is_active_in(number)
                    and p.number in set(everyone))
    request: dict = {"system": "round-robin", "round": before + 1}
    if tournament.groups > 1:
        request["groups"] = groups
    else:
        request["pairs"] = groups[0]
    if absent:
        request["absent"] = absent
    request["rested"] = sorted(_rested_in_session(tournament, number) & set(everyone))
    request["met"] = selectors.meetings(tournament, before_round=number)[0]
    return request


def _rested_in_session(tournament: Tournament, number: int) -> set[int]:
    """Pairs that rested (or had a forced rest) in the session of round ``number`` before it
    (rules.md §5: one rest per pair per session)."""
    return selectors.rested_pairs(tournament, before_round=number,
                                  since_round=tournament.session_start(number))


def _ranking(tournament: Tournament, number: int, members: set[int], *, default: list[int]) -> list[int]:
    """Pair numbers of ``members``, best first, by the standings after round ``number - 1``
    (rules.md §8); ``default`` order before any round and for pairs the standings miss."""
    ranking = []
    if tournament.rounds.filter(number__lt=number).exists():
        ranking = [row.pair for row in selectors.standings_after(tournament, number - 1).rows
                   if row.pair in members]
    seen = set(ranking)
    return ranking + [n for n in default if n in members and n not in seen]


def mitchell_offset(tournament: Tournament, number: int) -> int:
    """The E/W line's displacement (tables) for Mitchell round ``number`` of ``tournament``.

    A move happens between two consecutive Mitchell rounds (Danish rounds in between do
    not count), and the move *into* a Mitchell round uses that round's step: the step
    stored on the round (``Round.step``, the tournament's step when it was drawn), and for
    the round being drawn now the tournament's current step. So offset = step of the 2nd
    Mitchell round + … + step of this one; 0 for the first. A step changed mid-movement
    applies to the moves from then on (rules.md §6, pairing-io.md ``offset``).

    Example: 10 pairs, MMMD, rounds 1–2 with step 1, then step 3: offsets 0, 1, 4.
    """
    steps = list(tournament.rounds.filter(number__lt=number, system=Round.System.MITCHELL)
                 .order_by("number").values_list("step", flat=True))
    if not steps:
        return 0
    return sum(steps[1:]) + tournament.mitchell_step


