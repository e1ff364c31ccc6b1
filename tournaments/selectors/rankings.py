"""The standings (rules.md §8; §9 per player, §15 per team) and what they are made of:
every result as ``scoring`` values, the window of rounds counted, the entrants' names.

They turn rows into the plain values of ``scoring`` with a handful of flat queries (no
per-table queries), so standings for 500 pairs × 10 rounds stay fast
(``bench/standings.py``). Every read here picks its rows by the stored ``Tournament.kind``
and imports no kind: the kinds sit above the selectors and read their rankings from here.
"""
from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections import defaultdict
from decimal import Decimal

from django.db import models
from django.db.models import CharField, Prefetch
from django.db.models.functions import Cast

from scoring import individual as individual_rules
from scoring import standings as standings_rules

from ..models import LineMember, Pair, Player, Round, ScoreSheet, Seat, Table, Tournament
from .lateness import forfeit_differences, forfeit_differences_of
from .penalties import PenaltyEntry, pair_penalty_rows, split_penalties, split_penalty_rows
from .scales import rest_values
from .teams import team_names, team_standings_rows


def _decimal_reader():
    """A memoised ``str → Decimal`` for VP read as text (a handful of distinct values)."""
    cache: dict = {}

    def read(raw) -> Decimal:
        value = cache.get(raw)
        if value is None:
            value = cache[raw] = Decimal(str(raw)) if raw is not None else Decimal(0)
        return value

    return read


def game_results(tournament: Tournament, *, after_round: int | None = None):
    """Every result as ``scoring.standings.GameResult`` with pairs as pair numbers.

    Rounds counted: closed ones, up to ``after_round`` when given. Tables whose sheet is
    still empty are left out. Rests count their VP and MP credit (rules.md §5); a table
    forfeited for lateness gives each line its own MP difference (rules.md §22,
    ``lateness.forfeit_differences``).

    Speed (``bench/standings.py``, 500 pairs × 10 rounds): five flat queries without
    joins or ordering (the models' default ``ordering`` would join up to the tournament
    and sort), pair ids mapped to numbers in Python, and VP read as text and turned into
    ``Decimal`` once per distinct value instead of by the database converter per row.
    """
    rounds = Round.objects.filter(tournament=tournament).order_by()
    rounds = rounds.filter(state=Round.State.CLOSED)
    if after_round is not None:
        rounds = rounds.filter(number__lte=after_round)
    round_numbers = dict(rounds.values_list("id", "number"))
    if not round_numbers:
        return []
    pair_numbers = dict(Pair.objects.filter(tournament=tournament).order_by().values_list("id", "number"))
    bye_tables = set(
        Table.objects.filter(round_id__in=round_numbers).exclude(bye="").order_by().values_list("id", flat=True)
    )
    seats = Seat.objects.filter(round_id__in=round_numbers).order_by().values_list(
        "table_id", "round_id", "pair_id", "line"
    )
    sheets = _sheets_of(round_numbers)
    sheet_by_table = {row[0]: row[1:] for row in sheets}
    # a match forfeited for lateness: each line its own band's edge (rules.md §22)
    return _results_from_rows(tournament, round_numbers, pair_numbers, bye_tables, seats, sheet_by_table,
                              forfeit_differences(tournament))


def _sheets_of(round_ids):
    """``(table id, mp_ns, mp_ew, vp_ns text, vp_ew text)`` of the filled sheets of the
    rounds ``round_ids`` (VP read as text, see :func:`game_results`)."""
    return (
        ScoreSheet.objects.filter(table__round_id__in=round_ids)
        .exclude(state=ScoreSheet.State.EMPTY)
        .order_by()
        .annotate(vp_ns_text=Cast("vp_ns", CharField()), vp_ew_text=Cast("vp_ew", CharField()))
        .values_list("table_id", "mp_ns", "mp_ew", "vp_ns_text", "vp_ew_text")
    )


def _results_from_rows(tournament, round_numbers, pair_numbers, bye_tables, seats, sheet_by_table, late):
    """:func:`game_results` made of rows already read: ``round_numbers`` round id → number
    (the rounds counted), ``pair_numbers`` pair id → number, ``bye_tables`` ids of the rest
    tables, ``seats`` ``(table id, round id, pair id, line)`` of those rounds,
    ``sheet_by_table`` table id → ``(mp_ns, mp_ew, vp_ns text, vp_ew text)``, ``late``
    :func:`lateness.forfeit_differences`. Rests credit :func:`scales.rest_values` (rules.md §5)."""
    by_table: dict[int, dict] = defaultdict(dict)
    for table_id, round_id, pair_id, line in seats:
        entry = by_table[table_id]
        entry["round"] = round_numbers[round_id]
        entry[line] = pair_numbers[pair_id]
    rest_vp, rest_mp = rest_values(tournament)
    read_vp = _decimal_reader()
    zero = Decimal(0)
    GameResult = standings_rules.GameResult
    results = []
    for table_id, entry in by_table.items():
        if table_id in bye_tables:
            pair = entry.get("ns", entry.get("ew"))
            results.append(GameResult(entry["round"], pair, None, rest_mp, 0, rest_vp, zero))
            continue
        sheet = sheet_by_table.get(table_id)
        if sheet is None or "ns" not in entry or "ew" not in entry:
            continue
        mp_ns, mp_ew, vp_ns, vp_ew = sheet
        diff_ns, diff_ew = late.get(table_id, (None, None))
        results.append(GameResult(entry["round"], entry["ns"], entry["ew"], mp_ns, mp_ew, read_vp(vp_ns), read_vp(vp_ew),
                                  diff_ns, diff_ew))
    return results


@dataclasses.dataclass(frozen=True)
class Standings:
    """Standings after a round (rules.md §8), as every page and document shows them.

    ``after_round``: the last round counted (None: no round closed yet, rows all zero);
    ``last_closed``: the last closed round of the tournament (None: none); ``final``:
    ``after_round`` is the plan's last round; ``rows``: ``scoring.standings.StandingRow``
    (pairs as numbers) best first; ``penalties``: the penalties counted (rounds ≤
    ``after_round``); ``pending``: penalties of a round not closed yet, counted by no
    standings until that round closes (shown apart).
    """

    after_round: int | None
    last_closed: int | None
    final: bool
    rows: list
    penalties: tuple[PenaltyEntry, ...]
    pending: tuple[PenaltyEntry, ...]


def closed_rounds(tournament: Tournament) -> list[int]:
    """Numbers of the closed rounds, in order."""
    return list(Round.objects.filter(tournament=tournament, state=Round.State.CLOSED)
                .order_by("number").values_list("number", flat=True))


def standings_after(tournament: Tournament, after_round: int | None = None) -> Standings:
    """The standings after round ``after_round`` (rules.md §8): the one read
    behind the arbiter's page, ``?dopo=k``, the PDF and XLSX, the public and projector
    pages, the Danish ranking and the simulation output, so they always agree.

    Counted: the current (corrected) results of the closed rounds ≤ ``after_round`` and the
    penalties (VP and MP) of rounds ≤ ``after_round`` (a penalty's round is stored when it is
    given, ``services.add_penalty``; one stored without a round counts from round 1).
    ``after_round`` None means after the last closed round; a number past it is brought back
    to it (never a half-played round); 0 gives the empty standings before round 1. The rows
    are pairs (§8), players in an individual tournament (§9), teams in a team one (§15): the
    reader is chosen by the stored ``Tournament.kind``, so this read needs no kind object and
    the kinds (above the selectors) may call it.

    Raises ``ValueError`` for a negative ``after_round`` or an unknown ``tournament.kind``.
    """
    reader = _READERS.get(tournament.kind)
    if reader is None:
        raise ValueError(f"unknown tournament kind: {tournament.kind!r}")
    memo = getattr(_same_standings, "memo", None)
    if memo is None:
        return reader(tournament, *standings_window(tournament, after_round))
    key = (tournament.pk, after_round)
    if key not in memo:
        memo[key] = reader(tournament, *standings_window(tournament, after_round))
    return memo[key]


_same_standings = threading.local()


@contextlib.contextmanager
def same_standings():
    """Inside this block :func:`standings_after` reads each ``(tournament, after_round)``
    once and gives the same (frozen) ``Standings`` again: for a caller that asks for the same
    standings through several reads of one moment, e.g. a draft's inputs (its standings and
    its pairing request's ranking, ``services.drafts.draft_inputs``), which a 250-table
    round's draft page, publication form and publication each compute. Only for a block
    that writes nothing the standings count in between. Nested blocks share the outer memo."""
    if getattr(_same_standings, "memo", None) is not None:
        yield
        return
    _same_standings.memo = {}
    try:
        yield
    finally:
        _same_standings.memo = None


def standings_window(tournament: Tournament, after_round: int | None) -> tuple[int | None, int | None]:
    """``(after_round, last closed round)`` as :func:`standings_after` counts them: None
    means after the last closed round, a number past it is brought back to it, 0 gives None
    (the empty standings before round 1). Raises ``ValueError`` for a negative number."""
    if after_round is not None and after_round < 0:
        raise ValueError("after_round must be ≥ 0")
    closed = closed_rounds(tournament)
    last = closed[-1] if closed else None
    if after_round is None or last is None or after_round > last:
        after_round = last
    elif after_round == 0:
        after_round = None
    return after_round, last


def team_standings_after(tournament: Tournament, after_round: int | None, last: int | None) -> Standings:
    """:func:`standings_after` of a team tournament (rules.md §15): one row per team
    (``row.pair`` is the team's number); ``after_round``, ``last`` from :func:`standings_window`."""
    counted, pending = split_penalties(tournament, "team", after_round, last)
    return Standings(after_round=after_round, last_closed=last,
                     final=after_round is not None and after_round >= tournament.rounds_planned,
                     rows=team_standings_rows(tournament, after_round, penalties=counted),
                     penalties=tuple(counted), pending=tuple(pending))


def pair_standings_after(tournament: Tournament, after_round: int | None, last: int | None) -> Standings:
    """:func:`standings_after` of a pair tournament (rules.md §8); ``after_round``, ``last``
    from :func:`standings_window`."""
    pairs = list(Pair.objects.filter(tournament=tournament, round__isnull=True).order_by("number")
                 .values_list("number", "status"))
    counted, pending = split_penalties(tournament, "pair", after_round, last)
    results = game_results(tournament, after_round=after_round) if after_round is not None else []
    return _pair_standings(tournament, after_round, last, pairs, results, counted, pending)


def _pair_standings(tournament, after_round, last, pairs, results, counted, pending) -> Standings:
    """:func:`pair_standings_after` of rows already read: ``pairs`` ``(number, status)`` of
    the registered pairs by number, ``results`` :func:`game_results`, the penalties split."""
    rows = standings_rules.compute_standings(
        [n for n, _ in pairs],
        results,
        penalties=[standings_rules.Penalty(pair=p.pair, vp=p.vp, mp=p.mp, reason=p.reason, round=p.round_number)
                   for p in counted],
        tiebreaks=tournament.tiebreak_order,
        withdrawn=[n for n, status in pairs if status == Pair.Status.WITHDRAWN],
    )
    return Standings(
        after_round=after_round, last_closed=last,
        final=after_round is not None and after_round >= tournament.rounds_planned,
        rows=rows, penalties=tuple(counted), pending=tuple(pending),
    )


def latest_standings_of(tournaments) -> dict[int, Standings]:
    """Tournament id → :func:`standings_after` ``(t)`` (after its last closed round) of every
    tournament of ``tournaments`` (a list of ``Tournament``), the same values read for many
    at once: the pair tournaments' rows as :func:`pair_fields_of` reads them (the
    federation's download of a period, rules.md §20); individual and team tournaments one by
    one. Raises ``ValueError`` as :func:`standings_after` for an unknown kind."""
    out: dict[int, Standings] = {}
    pair_ts = [t for t in tournaments if t.kind == Tournament.Kind.PAIRS]
    for t in tournaments:
        if t.kind != Tournament.Kind.PAIRS:
            out[t.pk] = standings_after(t)
    fields = pair_fields_of(pair_ts)
    for t in pair_ts:
        last, pairs, results, penalties = fields[t.pk]
        counted, pending = split_penalty_rows(penalties, last, last)
        out[t.pk] = _pair_standings(t, last, last, pairs, results, counted, pending)
    return out


def pair_fields_of(tournaments) -> dict[int, tuple]:
    """Tournament id → ``(last closed round or None, registered pairs' (number, status) by
    number, game_results after the last closed round, penalty rows for
    penalties.split_penalty_rows)`` of the pair tournaments ``tournaments`` (a list of
    ``Tournament``): their rounds, pairs, tables, seats, sheets and penalties in one query
    each for all of them, the lateness entries in one more (rules.md §22), and one query a
    tournament only where a lateness forfeit is in force. The values
    :func:`pair_standings_after` reads."""
    out: dict[int, tuple] = {}
    if not tournaments:
        return out
    ids = [t.pk for t in tournaments]
    closed: dict[int, dict[int, int]] = defaultdict(dict)  # tournament → closed round id → number
    for rid, tid, number in (Round.objects.filter(tournament_id__in=ids, state=Round.State.CLOSED).order_by()
                             .values_list("id", "tournament_id", "number")):
        closed[tid][rid] = number
    pair_numbers: dict[int, dict[int, int]] = defaultdict(dict)  # every pair, as game_results
    registered: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for pid, tid, number, status, round_id in (Pair.objects.filter(tournament_id__in=ids).order_by("tournament_id", "number")
                                               .values_list("id", "tournament_id", "number", "status", "round_id")):
        pair_numbers[tid][pid] = number
        if round_id is None:
            registered[tid].append((number, status))
    round_ids = [rid for rounds in closed.values() for rid in rounds]
    tournament_of_round = {rid: tid for tid, rounds in closed.items() for rid in rounds}
    bye_tables = set(Table.objects.filter(round_id__in=round_ids).exclude(bye="").order_by()
                     .values_list("id", flat=True)) if round_ids else set()
    seats: dict[int, list[tuple]] = defaultdict(list)
    if round_ids:
        for row in Seat.objects.filter(round_id__in=round_ids).order_by().values_list(
                "table_id", "round_id", "pair_id", "line"):
            seats[tournament_of_round[row[1]]].append(row)
    sheet_by_table = {row[0]: row[1:] for row in _sheets_of(round_ids)} if round_ids else {}
    penalties = pair_penalty_rows(ids)
    late = forfeit_differences_of([t for t in tournaments if t.pk in closed])
    for t in tournaments:
        rounds = closed.get(t.pk, {})
        last = max(rounds.values()) if rounds else None  # standings_window(t, None)
        results = _results_from_rows(t, rounds, pair_numbers[t.pk], bye_tables, seats[t.pk], sheet_by_table,
                                     late[t.pk]) if last is not None else []
        out[t.pk] = (last, registered[t.pk], results, penalties.get(t.pk, []))
    return out


def pair_names_of(tournament_ids) -> dict[int, dict[int, str]]:
    """Tournament id → :func:`pair_names` of each of ``tournament_ids``, in one query (a
    registered pair without players is absent: read it as "")."""
    out: dict[int, dict[int, list]] = defaultdict(lambda: defaultdict(list))
    for p in (Player.objects.filter(tournament_id__in=list(tournament_ids), pair__isnull=False,
                                    pair__round__isnull=True)
              .annotate(pair_number=models.F("pair__number")).order_by("tournament_id", "pair__number", "seat")):
        out[p.tournament_id][p.pair_number].append(p)
    return {tid: {number: " – ".join(p.display_name for p in sorted(players, key=lambda p: p.seat or 0))
                  for number, players in by_pair.items()} for tid, by_pair in out.items()}


def applied_tiebreaks(tournament: Tournament) -> tuple[str, ...]:
    """The tie-break keys the standings really apply, in order: the tournament's order,
    without ``head_to_head`` in an individual tournament (rules.md §9: it has no meaning per
    player; a tournament stored before the individual kind was finished may still name it)."""
    if tournament.kind == Tournament.Kind.INDIVIDUAL:
        return individual_tiebreaks(tournament)
    return tournament.tiebreak_order


def individual_tiebreaks(tournament: Tournament) -> tuple[str, ...]:
    """:func:`applied_tiebreaks` of an individual tournament: no ``head_to_head`` (rules.md §9)."""
    return tuple(k for k in tournament.tiebreak_order if k != "head_to_head")


def individual_standings_after(tournament: Tournament, after_round: int | None, last: int | None) -> Standings:
    """:func:`standings_after` of an individual tournament (rules.md §9): one row per
    player (``row.pair`` is the player's number), each scoring the VP and MP of the line he
    played in, rests as for pairs (§5), penalties per player; tie-breaks of §8 per player
    without head-to-head (``scoring.individual``)."""
    players = list(Player.objects.filter(tournament=tournament, number__isnull=False).order_by("number")
                   .values_list("number", "status"))
    counted, pending = split_penalties(tournament, "player", after_round, last)
    lines = game_results(tournament, after_round=after_round) if after_round is not None else []
    members: dict[int, list[int]] = defaultdict(list)
    for pair_number, player in (LineMember.objects.filter(round__tournament=tournament).order_by("pair_id", "seat")
                                .values_list("pair__number", "player__number")):
        members[pair_number].append(player)
    rows = individual_rules.individual_standings(
        [n for n, _ in players],
        individual_rules.player_results(lines, members),
        penalties=[standings_rules.Penalty(pair=p.pair, vp=p.vp, mp=p.mp, reason=p.reason, round=p.round_number)
                   for p in counted],
        tiebreaks=individual_tiebreaks(tournament),
        withdrawn=[n for n, status in players if status == "withdrawn"],
    )
    return Standings(
        after_round=after_round, last_closed=last,
        final=after_round is not None and after_round >= tournament.rounds_planned,
        rows=rows, penalties=tuple(counted), pending=tuple(pending),
    )


def entrant_names(tournament: Tournament) -> dict[int, str]:
    """Number → full name of every entrant: registered pairs ("Rossi Mario – Bianchi Luca"),
    in an individual tournament the players ("Rossi Mario"), in a team tournament the teams'
    names, for standings pages and documents."""
    if tournament.kind == Tournament.Kind.INDIVIDUAL:
        return player_names(tournament)
    if tournament.kind == Tournament.Kind.TEAMS:
        return team_names(tournament)
    return pair_names(tournament)


def player_names(tournament: Tournament) -> dict[int, str]:
    """Number → display name ("Rossi Mario") of the numbered players (rules.md §9)."""
    return {p.number: p.display_name
            for p in Player.objects.filter(tournament=tournament, number__isnull=False)}


def pair_names(tournament: Tournament) -> dict[int, str]:
    """Number → full name ("Rossi Mario – Bianchi Luca") of the registered pairs."""
    return {p.number: p.full_name for p in tournament.pairs.filter(round__isnull=True).prefetch_related(
        Prefetch("members", queryset=Player.objects.order_by("seat")))}


def standings(tournament: Tournament, *, after_round: int | None = None):
    """The rows of :func:`standings_after` (a shorthand: same read, same rules)."""
    return standings_after(tournament, after_round).rows


#: ``Tournament.Kind`` value → the reader of its standings (rules.md §8, §9, §15), each
#: called with ``(tournament, after_round, last closed round)`` from :func:`standings_window`.
_READERS = {
    Tournament.Kind.PAIRS: pair_standings_after,
    Tournament.Kind.INDIVIDUAL: individual_standings_after,
    Tournament.Kind.TEAMS: team_standings_after,
}
