"""The reads of a round: who met whom and who rested (the pairing request's history),
the tables with their seats and sheets for the arbiter's round page and live board, the
groups a round was drawn in."""
from __future__ import annotations

import dataclasses
from collections import defaultdict
from decimal import Decimal

from ..models import LineMember, Player, Round, Seat, Table, Tournament


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


def last_published_round(tournament: Tournament) -> int:
    """The highest round number published or closed (0 before any): a withdrawal from a later
    round can still be undone (the entrants pages offer it)."""
    numbers = tournament.rounds.exclude(state=Round.State.DRAFT).values_list("number", flat=True)
    return max(numbers, default=0)


def round_tables(rnd: Round):
    """The round's tables with seats, pairs, players and sheets loaded in a few queries."""
    return (
        Table.objects.filter(round=rnd)
        .select_related("sheet")
        .prefetch_related("seats__pair__members", "seats__pair__line_members__player")
        .order_by("number")
    )


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
