"""Reads shared by services, views, documents and commands.

They turn rows into the plain values of ``scoring`` and ``pairing`` with a handful
of flat queries (no per-table queries), so standings for 500 pairs × 10 rounds stay
fast (``bench/standings.py``).
"""
from __future__ import annotations

import dataclasses
from collections import defaultdict
from decimal import Decimal

from django.db.models import CharField
from django.db.models.functions import Cast

from scoring import standings as standings_rules

from .models import AuditEntry, LineMember, Pair, Player, Round, ScoreSheet, Seat, Table, Tournament
from .lateness_selectors import forfeit_differences
# Reads kept in their own modules (the team selectors use them too); callers keep asking
# ``selectors`` for them.
from .penalty_selectors import PenaltyEntry, split_penalties  # noqa: F401
from .scale_selectors import (  # noqa: F401
    builtin_scales, rest_values, scale_by_id, scale_choices, scale_of, team_scale_choices)


#: ``Tournament.Kind`` value → its kind (:class:`tournaments.kinds.base.Kind`). The selectors
#: sit below the kinds, so the app hands them the kinds when it is ready (:func:`use_kinds`)
#: instead of importing them; the standings, names and tie-breaks then ask the kind.
_KINDS: dict = {}


def use_kinds(kinds: dict) -> None:
    """Hand the selectors the tournament kinds (``tournaments.kinds.KINDS``: kind value →
    kind); ``TournamentsConfig.ready`` calls it once."""
    _KINDS.update(kinds)


def _kind(tournament: Tournament):
    """The kind of ``tournament`` (:func:`use_kinds`). Raises ``ValueError`` for a kind not
    handed in (an unknown kind, or the app not ready)."""
    try:
        return _KINDS[tournament.kind]
    except KeyError:
        raise ValueError(f"unknown tournament kind: {tournament.kind!r}") from None


def tournaments_of(user):
    """The tournaments ``user`` may open: those he directs
    (``Tournament.arbiters``), every tournament for a superuser, none when anonymous."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(arbiters=user)


def directs(user, tournament: Tournament) -> bool:
    """Whether ``user`` may open and change ``tournament`` (one of its arbiters, or a superuser)."""
    return tournaments_of(user).filter(pk=tournament.pk).exists()


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
    ``lateness_selectors.forfeit_differences``).

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
    by_table: dict[int, dict] = defaultdict(dict)
    for table_id, round_id, pair_id, line in seats:
        entry = by_table[table_id]
        entry["round"] = round_numbers[round_id]
        entry[line] = pair_numbers[pair_id]
    sheets = (
        ScoreSheet.objects.filter(table__round_id__in=round_numbers)
        .exclude(state=ScoreSheet.State.EMPTY)
        .order_by()
        .annotate(vp_ns_text=Cast("vp_ns", CharField()), vp_ew_text=Cast("vp_ew", CharField()))
        .values_list("table_id", "mp_ns", "mp_ew", "vp_ns_text", "vp_ew_text")
    )
    sheet_by_table = {row[0]: row[1:] for row in sheets}
    rest_vp, rest_mp = rest_values(tournament)
    # a match forfeited for lateness: each line its own band's edge (rules.md §22)
    late = forfeit_differences(tournament)
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
    to it (never a half-played round); 0 gives the empty standings before round 1.

    Raises ``ValueError`` for a negative ``after_round``.
    """
    return _kind(tournament).standings_after(tournament, after_round)


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
    from .team_selectors import team_standings_rows
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


def applied_tiebreaks(tournament: Tournament) -> tuple[str, ...]:
    """The tie-break keys the standings really apply, in order: the tournament's order,
    without ``head_to_head`` in an individual tournament (rules.md §9: it has no meaning per
    player; a tournament stored before the individual kind was finished may still name it)."""
    return _kind(tournament).applied_tiebreaks(tournament)


def individual_tiebreaks(tournament: Tournament) -> tuple[str, ...]:
    """:func:`applied_tiebreaks` of an individual tournament: no ``head_to_head`` (rules.md §9)."""
    return tuple(k for k in tournament.tiebreak_order if k != "head_to_head")


def individual_standings_after(tournament: Tournament, after_round: int | None, last: int | None) -> Standings:
    """:func:`standings_after` of an individual tournament (rules.md §9): one row per
    player (``row.pair`` is the player's number), each scoring the VP and MP of the line he
    played in, rests as for pairs (§5), penalties per player; tie-breaks of §8 per player
    without head-to-head (``scoring.individual``)."""
    from scoring import individual as individual_rules

    from .models import LineMember, Player

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
    return _kind(tournament).names(tournament)


def player_names(tournament: Tournament) -> dict[int, str]:
    """Number → display name ("Rossi Mario") of the numbered players (rules.md §9)."""
    return {p.number: p.display_name
            for p in Player.objects.filter(tournament=tournament, number__isnull=False)}


def team_names(tournament: Tournament) -> dict[int, str]:
    """Number → name of the teams (rules.md §15)."""
    return dict(tournament.teams.values_list("number", "name"))


def pair_names(tournament: Tournament) -> dict[int, str]:
    """Number → full name ("Rossi Mario – Bianchi Luca") of the registered pairs."""
    from django.db.models import Prefetch
    return {p.number: p.full_name for p in tournament.pairs.filter(round__isnull=True).prefetch_related(
        Prefetch("members", queryset=Player.objects.order_by("seat")))}


def standings(tournament: Tournament, *, after_round: int | None = None):
    """The rows of :func:`standings_after` (a shorthand: same read, same rules)."""
    return standings_after(tournament, after_round).rows


def meetings(tournament: Tournament, *, before_round: int) -> tuple[list[list], list[list]]:
    """(every meeting ``[a, b, round]`` before ``before_round``, the previous round's meetings ``[a, b]``)."""
    rows = Seat.objects.filter(
        round__tournament=tournament, round__number__lt=before_round, table__bye=""
    ).order_by().values_list("table_id", "round__number", "pair__number")
    tables: dict[int, list] = defaultdict(list)
    round_of: dict[int, int] = {}
    for table_id, number, pair in rows:
        tables[table_id].append(pair)
        round_of[table_id] = number
    met, last = [], []
    for table_id, members in tables.items():
        if len(members) != 2:
            continue
        a, b = sorted(members)
        met.append([a, b, round_of[table_id]])
        if round_of[table_id] == before_round - 1:
            last.append([a, b])
    met.sort(key=lambda m: (m[2], m[0]))
    last.sort()
    return met, last


def rested_pairs(tournament: Tournament, *, before_round: int, since_round: int = 1) -> set[int]:
    """Pair numbers that rested (or had a forced rest) in rounds ``since_round`` ..
    ``before_round - 1`` (art. 33; ``since_round``: the first round of the session, since
    the rest rule counts within a session, rules.md §5 and §11)."""
    return set(
        Seat.objects.filter(
            round__tournament=tournament, round__number__lt=before_round,
            round__number__gte=since_round,
        ).exclude(table__bye="").order_by().values_list("pair__number", flat=True)
    )


def round_tables(rnd: Round):
    """The round's tables with seats, pairs, players and sheets loaded in a few queries."""
    return (
        Table.objects.filter(round=rnd)
        .select_related("sheet")
        .prefetch_related("seats__pair__members", "seats__pair__line_members__player")
        .order_by("number")
    )


@dataclasses.dataclass(frozen=True)
class GroupStandings:
    """The standings of one group (*girone*, rules.md §14): ``group`` (1..G) and ``rows``
    (``scoring.standings.StandingRow``, best first) with ``position`` and ``tied`` counted
    within the group."""

    group: int
    rows: list


def standings_by_group(tournament: Tournament, view: Standings | None = None) -> list[GroupStandings]:
    """The standings per group (rules.md §14: "standings per group and overall"), from the
    overall standings ``view`` (:func:`standings_after`, read when None), so both agree.

    A pair's group position is 1 + the number of pairs of its group ranked strictly above it
    overall; pairs sharing an overall position share the group position ("2="). The order
    and tie-breaks are those of the overall standings (rules.md §8; head-to-head among tied
    pairs is the same games either way). Empty when the field is not split into groups.
    """
    if tournament.groups <= 1:
        return []
    view = view if view is not None else standings_after(tournament)
    group_of = dict(_kind(tournament).group_entrants(tournament).order_by().values_list("number", "group"))
    out = []
    for g in range(1, tournament.groups + 1):
        members = [r for r in view.rows if group_of.get(r.pair) == g]
        rows = []
        for r in members:
            above = sum(1 for o in members if o.position < r.position)
            shared = sum(1 for o in members if o.position == r.position) > 1
            rows.append(dataclasses.replace(r, position=above + 1, tied=shared))
        out.append(GroupStandings(group=g, rows=rows))
    return out


@dataclasses.dataclass(frozen=True)
class SheetSummary:
    """What the round page shows of a table's score sheet (MP, VP as stored)."""

    state: str
    sum_error: bool
    entered_by_captain: bool
    arbitral: bool
    dispute_note: str
    mp_ns: int
    mp_ew: int
    vp_ns: Decimal
    vp_ew: Decimal
    entered_clock_seconds: int | None
    version: int
    entered_by: str
    confirmed_by: str
    updated_at: object  # datetime
    entry_device: str
    entry_agent: str
    confirm_device: str
    confirm_agent: str
    draft: object  # the arbiter's incomplete draft or None

    @property
    def is_draft(self) -> bool:
        return self.draft is not None


_SHEET_FIELDS = tuple(field.name for field in dataclasses.fields(SheetSummary))


def round_page_tables(rnd: Round) -> list[dict]:
    """The round's tables for the arbiter's round page and live board, ascending by table number, in three
    flat queries (tables with sheets, seats, players) and no model instances (a
    250-table round page within the room's load).

    Each item: ``{"number": table number, "bye": "" | "rest" | "forced",
    "clock_extra_seconds": int, "sheet": SheetSummary | None (none for a rest or before
    publication), "ns": {"number", "display_number", "name"} | None, "ew": … | None}``; the
    name is the players' surnames, seat 1 first, as ``Pair.name``; ``display_number`` is
    ``Pair.display_number`` (the pair number, or "3+7" for an individual partnership). A resting pair sits in ``ns`` (or
    ``ew`` when only that seat exists).
    """
    rows = list(
        Table.objects.filter(round=rnd).order_by("number")
        .values("id", "number", "bye", "clock_extra_seconds", "sheet__id", *(f"sheet__{f}" for f in _SHEET_FIELDS))
    )
    surnames: dict[int, list[tuple[int, str]]] = defaultdict(list)
    players = (Player.objects.filter(pair__seats__round=rnd).order_by()
               .values_list("pair_id", "seat", "last_name"))
    for pair_id, seat, last_name in players:
        surnames[pair_id].append((seat or 0, last_name))
    # Individual tournaments (rules.md §9): a line is a partnership formed for the round, shown
    # by its players' numbers ("3+7") and surnames ("Rossi + Bianchi"), as Pair.display_number.
    formed: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for pair_id, seat, number, last_name in (LineMember.objects.filter(round=rnd).order_by()
                                             .values_list("pair_id", "seat", "player__number", "player__last_name")):
        formed[pair_id].append((seat, number, last_name))
    seats: dict[int, dict[str, dict]] = defaultdict(dict)
    for table_id, line, pair_id, number, team, team_line, team_name in (
            Seat.objects.filter(round=rnd).order_by().values_list(
                "table_id", "line", "pair_id", "pair__number", "pair__team__number", "pair__team_line",
                "pair__team__name")):
        if team is not None:  # rules.md §15: a team's pair, "3A" and "Team: Rossi + Bianchi"
            members = sorted(formed[pair_id])
            label = f"{team}{'AB'[(team_line or 1) - 1]}"
            seats[table_id][line] = {"number": number, "display_number": label,
                                     "name": f"{team_name}: " + " + ".join(name for _s, _n, name in members)}
            continue
        if pair_id in formed:
            members = sorted(formed[pair_id])
            seats[table_id][line] = {"number": number, "display_number": "+".join(str(n) for _s, n, _l in members),
                                     "name": " + ".join(name for _s, _n, name in members)}
            continue
        names = " – ".join(name for _seat, name in sorted(surnames.get(pair_id, ())))
        seats[table_id][line] = {"number": number, "display_number": str(number), "name": names}
    tables = []
    for row in rows:
        sheet = None
        if row["sheet__id"] is not None:
            sheet = SheetSummary(**{f: row[f"sheet__{f}"] for f in _SHEET_FIELDS})
        lines = seats.get(row["id"], {})
        tables.append({"number": row["number"], "bye": row["bye"], "clock_extra_seconds": row["clock_extra_seconds"],
                       "sheet": sheet, "ns": lines.get(Seat.Line.NS), "ew": lines.get(Seat.Line.EW)})
    return tables


def table_groups(rnd: Round) -> dict[int, int]:
    """``{table number: group}`` (groups from 1) of a round drawn in groups, ``{}`` for any
    other round (rules.md §14, §19: a round-robin, Danish or Mitchell round of a split field;
    its pairing request carries the group lists it was drawn from, pair numbers or, in a team
    tournament, team numbers). A table's group is its entrants' (a table never holds two
    groups); a rest table's, its resting entrant's. One query, only for a grouped round."""
    request = rnd.pairing_request if isinstance(rnd.pairing_request, dict) else {}
    groups = request.get("groups")
    if not groups:
        return {}
    group_of = {n: g for g, members in enumerate(groups, start=1) for n in members}
    found: dict[int, int] = {}
    for table, pair, team in (Seat.objects.filter(round=rnd).order_by()
                              .values_list("table__number", "pair__number", "pair__team__number")):
        group = group_of.get(team if team is not None else pair)
        if group is not None:
            found.setdefault(table, group)
    return found


def last_dispute(rnd: Round, table_number: int) -> AuditEntry | None:
    """The latest ``sheet_disputed`` audit entry of table ``table_number`` of round ``rnd``
    (who disputed, when, the note as ``reason``), or ``None``. The arbiter's decision page
    and the audit entry of its validation name it (rules.md §3, trust)."""
    return (AuditEntry.objects.filter(tournament_id=rnd.tournament_id, round_number=rnd.number,
                                      table_number=table_number, action="sheet_disputed")
            .order_by("-at", "-id").first())
