"""Reads of a player's own page (``/p/<slug>/coppia|giocatore|squadra/<n>/``): his next
table, every round he played, his place and VP, for each kind of tournament.

What counts (rules.md §8, as the public page): the rounds played are the **closed** rounds
(their current, corrected results; a round still in play never shows half-entered results);
the next round is the round **published and not yet closed** (a draft stays private); the
place and VP are the standings after the last closed round (``selectors.standings_after``,
penalties included). A rest scores the rest VP and the MP credited to a rest (0 by default,
rules.md §5); a team's rest or its opponent's forfeit scores the team rest VP (§15).
A table of a closed round that the arbiter corrected after the round closed (a correction,
swapped lines or an arbitral score in the audit trail, later than the round's closing) is
marked ``corrected``.

Nothing here reads a captain's link or PIN: the page never shows them.

One function per kind (:func:`pair_rounds`, :func:`player_rounds`, :func:`team_rounds`),
each a few flat queries; :func:`entrant_page` picks one. The page's ETag and the shared
standings are in :mod:`.tag`; :func:`search` finds an entrant for the page's search box.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from decimal import Decimal

from django.db.models import Q

from scoring.vp import format_vp

from .. import selectors
from ..kinds import KINDS, kind_of
from ..models import (
    AuditAction,
    AuditEntry,
    LineMember,
    Match,
    Pair,
    Player,
    Round,
    ScoreSheet,
    Seat,
    Table,
    Team,
    Tournament,
)
from ..selectors.lateness import LATE_WORD, forfeit_differences
from ..text import clean_note
from .tag import VISIBLE, register_tag_part, results_tag, standings_for

#: Audit actions that change a closed round's results (a correction after closing).
CORRECTIONS = (AuditAction.SHEET_CORRECTED, AuditAction.SHEET_LINES_SWAPPED, AuditAction.ARBITRAL_SCORE)
#: URL word of each kind (``/p/<slug>/<word>/<n>/``): :attr:`tournaments.kinds.base.KindData.url_word`.
KIND_WORDS = {name: kind.data.url_word for name, kind in KINDS.items()}


@dataclass
class RoundLine:
    """One round of the entrant. ``line`` "ns"/"ew" (a team: its first pair's line at its
    first table); ``opponent``: pair or team number, or ``[a, b]`` player numbers in an
    individual tournament; None for a rest. MP for and against, VP: None while unknown (a
    round in play); a rest has ``mp_against`` None. ``partner`` (individual): the partner's
    number; ``tables`` (teams): the match's two tables."""

    round: int
    table: int | None
    line: str | None
    opponent: object
    opponent_names: str
    mp_for: int | None = None
    mp_against: int | None = None
    vp: Decimal | None = None
    rest: bool = False
    forced: bool = False
    corrected: bool = False
    late: bool = False  # the match was forfeited for lateness (rules.md §22)
    partner: int | None = None
    partner_names: str = ""
    tables: list = field(default_factory=list)
    clock: dict | None = None

    @property
    def vp_text(self) -> str:
        """VP as every page prints them ("14", "17.5"); "" while unknown."""
        return "" if self.vp is None else format_vp(self.vp)


@dataclass
class EntrantPage:
    """Everything the page shows: ``kind`` (Tournament.Kind value), ``number``, ``names``,
    ``position`` (int or None before the first closed round), ``position_label`` ("3="),
    ``vp`` (Decimal or None), ``after_round``, ``next`` (RoundLine or None), ``rounds`` (the
    closed rounds, RoundLine), ``withdrawn``, ``championship`` (:func:`championship_standing`),
    ``penalties`` (``selectors.penalties.PenaltyEntry`` of this entrant counted by the standings),
    ``final``: every round of the plan is closed and none is in play, so the place is the final
    one and there is no next round to wait for (rules.md §8: the standings after the last round)."""

    kind: str
    number: int
    names: str
    position: int | None
    position_label: str
    vp: Decimal | None
    after_round: int | None
    next: RoundLine | None
    rounds: list[RoundLine]
    withdrawn: bool
    championship: object = None
    # the entrant's penalties the standings count (rules.md §3, art. 23): PenaltyEntry rows,
    # so that VP that do not add up to the rounds' VP say why
    penalties: tuple = ()
    final: bool = False

    @property
    def vp_text(self) -> str:
        return "" if self.vp is None else format_vp(self.vp)


# --------------------------------------------------------------------------- shared reads


def corrected_tables(tournament: Tournament) -> set[tuple[int, int]]:
    """(round number, table number) of the closed rounds' tables corrected after their round
    closed (:data:`CORRECTIONS` in the audit trail later than the round's ``closed_at``)."""
    closed_at = dict(Round.objects.filter(tournament=tournament, state=Round.State.CLOSED)
                     .values_list("number", "closed_at"))
    out = set()
    for rnd, table, at in (AuditEntry.objects.filter(tournament=tournament, action__in=CORRECTIONS)
                           .order_by().values_list("round_number", "table_number", "at")):
        closed = closed_at.get(rnd)
        if closed is not None and at > closed:
            out.add((rnd, table))
    return out


# Who answers "where does this entrant stand in the season": the championships app registers
# itself here when it loads (championships sit above tournaments, which never import them).
_CHAMPIONSHIP_PROVIDERS: list = []


def register_championship_provider(provider, tag_part=None) -> None:
    """Add ``provider(tournament, kind, number) -> str | None``: the entrant's championship
    standing as a sentence (names, positions, points only: rules.md §16's personal data).
    ``tag_part(tournament) -> str``: what those sentences depend on, folded into the page's
    ETag (``tag.register_tag_part``), so a polling phone sees a change of them."""
    if provider not in _CHAMPIONSHIP_PROVIDERS:
        _CHAMPIONSHIP_PROVIDERS.append(provider)
    if tag_part is not None:
        register_tag_part(tag_part)


def championship_standing(tournament: Tournament, kind: str, number: int) -> str | None:
    """The entrant's standing in the championships ``tournament`` belongs to (rules.md §17),
    as the registered provider words it, or None (no championship, or none public). ``kind``:
    the tournament's kind; ``number``: the pair, player or team number."""
    for provider in _CHAMPIONSHIP_PROVIDERS:
        answer = provider(tournament, kind, number)
        if answer:
            return answer
    return None


def _sheets(tournament: Tournament, table_ids) -> dict[int, dict]:
    """Table id → its entered sheet's values; a table forfeited for lateness also carries
    ``difference`` (N/S, E/W MP differences, rules.md §22: each line its own band's edge)."""
    sheets = {s["table_id"]: s for s in ScoreSheet.objects.filter(table_id__in=list(table_ids))
              .exclude(state=ScoreSheet.State.EMPTY).order_by()
              .values("table_id", "mp_ns", "mp_ew", "vp_ns", "vp_ew", "arbitral", "arbitral_note")}
    for table_id, difference in forfeit_differences(tournament).items():
        if table_id in sheets:
            sheets[table_id]["difference"] = difference
    return sheets


def _is_late(sheet: dict | None) -> bool:
    """Whether ``sheet`` is a forfeit for lateness (rules.md §22): an arbitral score whose
    note starts «ritardo»."""
    return bool(sheet and sheet.get("arbitral")) and (sheet.get("arbitral_note") or "").startswith(LATE_WORD)


def _result(line: RoundLine, sheet: dict | None) -> None:
    """Fill MP and VP of ``line`` from its table's sheet (``line.line`` is the entrant's side)."""
    if sheet is None:
        return
    own, other = ("ns", "ew") if line.line == "ns" else ("ew", "ns")
    line.mp_for, line.mp_against = sheet[f"mp_{own}"], sheet[f"mp_{other}"]
    line.vp = Decimal(str(sheet[f"vp_{own}"]))
    line.late = _is_late(sheet)
    if "difference" in sheet:
        # for − against is the line's own difference (the late line: −705 in four hands)
        line.mp_against = line.mp_for - sheet["difference"][0 if own == "ns" else 1]


def _rest(line: RoundLine, rest_vp: Decimal, rest_mp: int) -> None:
    line.rest, line.opponent, line.opponent_names = True, None, ""
    line.mp_for, line.mp_against, line.vp = rest_mp, None, rest_vp


def _split(tournament: Tournament, lines: list[tuple[str, RoundLine, int | None]]) -> tuple[RoundLine | None,
                                                                                           list[RoundLine]]:
    """(the published round's line, the closed rounds' lines) from ``(state, line, table id)``;
    the next round gets its table's clock."""
    nxt, played = None, []
    for state, line, _table_id in sorted(lines, key=lambda item: item[1].round):
        if state == Round.State.CLOSED:
            played.append(line)
        else:
            nxt = line
    return nxt, played


def _clock(tournament: Tournament, number: int, table_id: int | None) -> dict | None:
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        return None
    table = rnd.tables.filter(pk=table_id).first() if table_id else None
    return selectors.clock.clock_json(rnd, table)


# --------------------------------------------------------------------------- pairs


def pair_rounds(tournament: Tournament, pair: Pair) -> tuple[RoundLine | None, list[RoundLine]]:
    """The registered ``pair``'s next round and closed rounds (rules.md §5–§8)."""
    seats = list(Seat.objects.filter(pair=pair, round__state__in=VISIBLE).order_by().values_list(
        "round__number", "round__state", "table_id", "table__number", "table__bye", "line"))
    table_ids = [s[2] for s in seats]
    opponents = {t: p for t, p in Seat.objects.filter(table_id__in=table_ids).exclude(pair=pair)
                 .order_by().values_list("table_id", "pair_id")}
    names = {p.pk: p for p in Pair.objects.filter(pk__in=opponents.values()).prefetch_related("members")}
    sheets = _sheets(tournament, table_ids)
    rest_vp, rest_mp = selectors.scales.rest_values(tournament)
    corrected = corrected_tables(tournament)
    lines = []
    for number, state, table_id, table, bye, side in seats:
        line = RoundLine(round=number, table=table, line=side, opponent=None, opponent_names="")
        if bye:
            _rest(line, rest_vp, rest_mp)
            line.forced = bye == "forced"
        else:
            other = names.get(opponents.get(table_id))
            line.opponent = other.number if other else None
            line.opponent_names = other.full_name if other else ""
            if state == Round.State.CLOSED:
                _result(line, sheets.get(table_id))
        line.corrected = (number, table) in corrected
        lines.append((state, line, table_id))
    nxt, played = _split(tournament, lines)
    if nxt is not None:
        nxt.clock = _clock(tournament, nxt.round, next(t for s, ln, t in lines if ln is nxt))
    return nxt, played


@dataclass(frozen=True)
class SharedPairRounds:
    """Every registered pair's rounds, read at once for all the pairs' pages of one
    :func:`results_tag`: ``entrants`` number → Pair (members loaded); ``lines`` pair id →
    ``(next round's line without its clock, closed rounds' lines, the next round's table id)``;
    ``rounds`` number → the next rounds (Round); ``tables`` id → the next rounds' tables. The
    lines are read-only: a page copies the next one to give it its clock."""
    entrants: dict
    lines: dict
    rounds: dict
    tables: dict


_SHARED_PAIRS: dict[tuple[int, str], SharedPairRounds] = {}


def all_pair_rounds(tournament: Tournament) -> SharedPairRounds:
    """:func:`pair_rounds` of every registered pair of ``tournament`` in a few flat queries
    (about as many as one pair's): what a round's 500 players' pages share."""
    entrants = kind_of(tournament).entrants_by_number(tournament)
    by_pk = {p.pk: p for p in entrants.values()}
    seats = list(Seat.objects.filter(round__tournament=tournament, round__state__in=VISIBLE).order_by().values_list(
        "pair_id", "round__number", "round__state", "table_id", "table__number", "table__bye", "line"))
    at_table: dict[int, list[int]] = defaultdict(list)
    for pair_id, _number, _state, table_id, *_ in seats:
        at_table[table_id].append(pair_id)
    missing = {p for pairs in at_table.values() for p in pairs} - by_pk.keys()
    names = {**by_pk, **{p.pk: p for p in Pair.objects.filter(pk__in=missing).prefetch_related("members")}}
    sheets = _sheets(tournament, list(at_table))
    rest_vp, rest_mp = selectors.scales.rest_values(tournament)
    corrected = corrected_tables(tournament)
    per_pair: dict[int, list] = defaultdict(list)
    for pair_id, number, state, table_id, table, bye, side in seats:
        if pair_id not in by_pk:
            continue
        line = RoundLine(round=number, table=table, line=side, opponent=None, opponent_names="")
        if bye:
            _rest(line, rest_vp, rest_mp)
            line.forced = bye == "forced"
        else:
            others = [p for p in at_table[table_id] if p != pair_id]
            other = names.get(others[-1]) if others else None
            line.opponent = other.number if other else None
            line.opponent_names = other.full_name if other else ""
            if state == Round.State.CLOSED:
                _result(line, sheets.get(table_id))
        line.corrected = (number, table) in corrected
        per_pair[pair_id].append((state, line, table_id))
    lines = {}
    for pair_id, items in per_pair.items():
        nxt, played = _split(tournament, items)
        lines[pair_id] = (nxt, played, next(t for s, ln, t in items if ln is nxt) if nxt is not None else None)
    numbers = {nxt.round for nxt, _played, _t in lines.values() if nxt is not None}
    rounds = {r.number: r for r in Round.objects.filter(tournament=tournament, number__in=numbers)}
    tables = Table.objects.in_bulk([t for _n, _p, t in lines.values() if t])
    return SharedPairRounds(entrants=entrants, lines=lines, rounds=rounds, tables=tables)


def shared_pair_rounds(tournament: Tournament, tag: str) -> SharedPairRounds:
    """:func:`all_pair_rounds` computed once per :func:`results_tag` ``tag`` in this process
    (as ``tag.standings_for``): the tag changes with everything a player's page shows, so the
    pages of one tag share one read instead of a dozen queries a phone."""
    key = (tournament.pk, tag)
    shared = _SHARED_PAIRS.get(key)
    if shared is None:
        shared = all_pair_rounds(tournament)
        if len(_SHARED_PAIRS) > 16:
            _SHARED_PAIRS.clear()
        _SHARED_PAIRS[key] = shared
    return shared


def _shared_rounds(tournament: Tournament, pair: Pair, tag: str) -> tuple[RoundLine | None, list[RoundLine]]:
    """:func:`pair_rounds` of ``pair`` from the shared read of ``tag``; the next round's clock
    computed now (its remaining seconds run)."""
    shared = shared_pair_rounds(tournament, tag)
    nxt, played, table_id = shared.lines.get(pair.pk, (None, [], None))
    if nxt is not None:
        rnd = shared.rounds.get(nxt.round)
        nxt = replace(nxt, clock=selectors.clock.clock_json(rnd, shared.tables.get(table_id)) if rnd else None)
    return nxt, list(played)


# --------------------------------------------------------------------------- individual


def player_rounds(tournament: Tournament, player: Player) -> tuple[RoundLine | None, list[RoundLine]]:
    """The ``player``'s next round and closed rounds in an individual tournament (rules.md §9):
    his partner of the round, the opposing partnership as ``[a, b]`` player numbers; a rest
    (also a forced rest, when his partner or an opponent withdrew) scores as for pairs (§5)."""
    mine = dict(LineMember.objects.filter(player=player, round__state__in=VISIBLE).order_by()
                .values_list("pair_id", "round_id"))
    seats = list(Seat.objects.filter(pair_id__in=mine).order_by().values_list(
        "pair_id", "round__number", "round__state", "table_id", "table__number", "table__bye", "line"))
    table_ids = [s[3] for s in seats]
    members: dict[int, list[tuple[int, int, str]]] = defaultdict(list)   # pair id -> (seat, number, name)
    side_of: dict[tuple[int, str], int] = {}                              # (table id, line) -> pair id
    for table_id, line, pair_id, seat, number, last, first in (
            LineMember.objects.filter(pair__seats__table_id__in=table_ids).order_by().values_list(
                "pair__seats__table_id", "pair__seats__line", "pair_id", "seat", "player__number",
                "player__last_name", "player__first_name")):
        members[pair_id].append((seat, number, f"{last} {first}"))
        side_of[(table_id, line)] = pair_id
    sheets = _sheets(tournament, table_ids)
    rest_vp, rest_mp = selectors.scales.rest_values(tournament)
    corrected = corrected_tables(tournament)
    lines = []
    for pair_id, number, state, table_id, table, bye, side in seats:
        line = RoundLine(round=number, table=table, line=side, opponent=None, opponent_names="")
        partner = [m for m in sorted(members[pair_id]) if m[1] != player.number]
        if partner:
            line.partner, line.partner_names = partner[0][1], partner[0][2]
        if bye:
            _rest(line, rest_vp, rest_mp)
            line.forced = bye == "forced"
        else:
            other = sorted(members.get(side_of.get((table_id, "ew" if side == "ns" else "ns")), []))
            line.opponent = [m[1] for m in other]
            line.opponent_names = " + ".join(m[2] for m in other)
            if state == Round.State.CLOSED:
                _result(line, sheets.get(table_id))
        line.corrected = (number, table) in corrected
        lines.append((state, line, table_id))
    nxt, played = _split(tournament, lines)
    if nxt is not None:
        nxt.clock = _clock(tournament, nxt.round, next(t for s, ln, t in lines if ln is nxt))
    return nxt, played


# --------------------------------------------------------------------------- teams


def team_rounds(tournament: Tournament, team: Team) -> tuple[RoundLine | None, list[RoundLine]]:
    """The ``team``'s next match and closed matches (rules.md §15). Round-level ``table`` and
    ``line`` are where the team's first pair sits (the match's first table: N/S for team A,
    E/W for team B); ``tables`` lists both tables with the team's pair ("3A"), the opposing
    pair and their MP; MP for/against and VP are the match's (the two tables together).
    A rest, a forced rest or the opponent's forfeit scores the team rest VP; a forfeit by the
    team itself scores nothing."""
    matches = list(Match.objects.filter(Q(team_a=team) | Q(team_b=team), round__state__in=VISIBLE)
                   .select_related("round", "team_a", "team_b", "table_1", "table_2").order_by("round__number"))
    round_ids = [m.round_id for m in matches]
    scores = {(s.round, s.number): s for s in selectors.teams.match_scores(tournament, rounds=round_ids)}
    table_ids = [t for m in matches for t in (m.table_1_id, m.table_2_id) if t]
    seats = defaultdict(dict)
    for table_id, line, team_number, team_line in (Seat.objects.filter(table_id__in=table_ids).order_by()
                                                   .values_list("table_id", "line", "pair__team__number",
                                                                "pair__team_line")):
        seats[table_id][line] = (team_number, f"{team_number}{'AB'[(team_line or 1) - 1]}")
    sheets = _sheets(tournament, table_ids)
    rest_vp = selectors.teams.team_rest_vp(tournament)
    corrected = corrected_tables(tournament)
    lines = []
    for m in matches:
        state, number = m.round.state, m.round.number
        is_a = m.team_a_id == team.pk
        other = m.team_b if is_a else m.team_a
        line = RoundLine(round=number, table=m.table_1.number if m.table_1 else None,
                         line=("ns" if is_a else "ew") if m.table_1 else None,
                         opponent=other.number if other else None, opponent_names=other.name if other else "")
        if m.bye in (Match.Bye.REST, Match.Bye.FORCED) or (m.bye == Match.Bye.FORFEIT and m.forfeit_by_id != team.pk):
            line.rest, line.forced = True, m.bye != Match.Bye.REST
            line.mp_for, line.vp = 0, rest_vp
            if m.bye != Match.Bye.FORFEIT:
                line.opponent, line.opponent_names = None, ""
        elif m.bye == Match.Bye.FORFEIT:
            line.mp_for, line.vp = 0, Decimal(0)
        else:
            for table in (m.table_1, m.table_2):
                line.tables.append(_team_table(table, team.number, seats[table.pk], sheets.get(table.pk), state))
                line.corrected |= (number, table.number) in corrected
            score = scores.get((number, m.number))
            if state == Round.State.CLOSED and score is not None and score.result is not None:
                r = score.result
                line.mp_for, line.mp_against = (r.mp_a, r.mp_b) if is_a else (r.mp_b, r.mp_a)
                line.vp = Decimal(str(r.vp_a if is_a else r.vp_b))
                margin = score.margin_a if is_a else score.margin_b
                if margin is not None:  # a table forfeited for lateness (rules.md §22)
                    line.mp_against = line.mp_for - margin
            line.late = state == Round.State.CLOSED and any(
                _is_late(sheets.get(t.pk)) for t in (m.table_1, m.table_2))
        lines.append((state, line, m.table_1_id))
    nxt, played = _split(tournament, lines)
    if nxt is not None:
        nxt.clock = _clock(tournament, nxt.round, next(t for s, ln, t in lines if ln is nxt))
    return nxt, played


def _team_table(table, team_number: int, seats: dict, sheet: dict | None, state: str) -> dict:
    """One table of a team's match: ``{"table", "line", "pair", "opponent_pair", "mp_for",
    "mp_against"}`` (MP None until the round is closed)."""
    line = next((side for side, (number, _label) in seats.items() if number == team_number), "ns")
    other = "ew" if line == "ns" else "ns"
    row = {"table": table.number, "line": line, "pair": seats.get(line, (None, ""))[1],
           "opponent_pair": seats.get(other, (None, ""))[1], "mp_for": None, "mp_against": None}
    if sheet is not None and state == Round.State.CLOSED:
        row["mp_for"], row["mp_against"] = sheet[f"mp_{line}"], sheet[f"mp_{other}"]
        if "difference" in sheet:  # forfeited for lateness: the line's own difference (§22)
            row["mp_against"] = row["mp_for"] - sheet["difference"][0 if line == "ns" else 1]
    return row


#: The rounds of an entrant's page, per kind (``Tournament.Kind`` value → function): these
#: reads use the round clock of the services, which the kinds (below the services) cannot.
#: A new kind adds its function here (tests/architecture/test_kinds.py checks every kind has one).
ROUNDS_OF_KIND = {Tournament.Kind.PAIRS: pair_rounds, Tournament.Kind.INDIVIDUAL: player_rounds,
                  Tournament.Kind.TEAMS: team_rounds}


# --------------------------------------------------------------------------- the page


def find_entrant(tournament: Tournament, word: str, number: int, *, shared_tag: str | None = None):
    """The entrant behind ``/<word>/<number>/`` (``word`` from :data:`KIND_WORDS`): a registered
    Pair, a numbered Player or a Team; None when the word is not the tournament's kind or no
    entrant has that number. ``shared_tag``: a pair tournament's :func:`results_tag`, to find
    the pair in the read the pages of that tag share (:func:`shared_pair_rounds`)."""
    kind = kind_of(tournament)
    if kind.data.url_word != word:
        return None
    if shared_tag and kind.data.name == Tournament.Kind.PAIRS:
        return shared_pair_rounds(tournament, shared_tag).entrants.get(number)
    return kind.entrants_by_number(tournament, [number]).get(number)


def entrant_page(tournament: Tournament, entrant, tag: str | None = None, *, shared: bool = False) -> EntrantPage:
    """The page of ``entrant`` (from :func:`find_entrant`); ``tag``: :func:`results_tag`, for
    the shared standings (read when None). ``shared`` (a pair tournament, with ``tag``): the
    rounds from the read every pair's page of that tag shares (:func:`shared_pair_rounds`),
    the same lines :func:`pair_rounds` reads for one pair."""
    kind = kind_of(tournament)
    if shared and tag and kind.data.name == Tournament.Kind.PAIRS:
        nxt, played = _shared_rounds(tournament, entrant, tag)
    else:
        nxt, played = ROUNDS_OF_KIND[kind.data.name](tournament, entrant)
    names = entrant.full_name
    view = standings_for(tournament, tag or results_tag(tournament))
    row = next((r for r in view.rows if r.pair == entrant.number), None) if view.after_round else None
    return EntrantPage(
        kind=tournament.kind, number=entrant.number, names=names,
        position=row.position if row else None, position_label=row.position_label if row else "",
        vp=row.vp if row else None, after_round=view.after_round, next=nxt, rounds=played,
        withdrawn=entrant.status == "withdrawn",
        championship=championship_standing(tournament, tournament.kind, entrant.number),
        penalties=tuple(p for p in view.penalties if p.pair == entrant.number) if view.after_round else (),
        # the plan's last round closed (view.final) and no round published again after it
        # (a reopened round is in play again): the evening is over
        final=view.final and nxt is None,
    )


def _number(value):
    """A VP as JSON: 14 for 14.00, 17.5 for 17.50, None for None."""
    if value is None:
        return None
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else float(value)


def round_json(line: RoundLine, kind: str, *, next_round: bool = False) -> dict:
    """One round as the page's JSON answers it (README, "The players' phones")."""
    data = {"round": line.round, "table": line.table, "line": line.line, "opponent": line.opponent,
            "opponent_names": line.opponent_names or None, "rest": line.rest}
    if not next_round:
        data.update(mp_for=line.mp_for, mp_against=line.mp_against, vp=_number(line.vp), corrected=line.corrected,
                    late=line.late)
    fields = KINDS[kind].data.page_round_fields
    if "partner" in fields:  # an individual tournament's partner
        data["partner"] = line.partner
        data["partner_names"] = line.partner_names or None
    if "tables" in fields:  # a team's match of two tables (no MP before the round is played)
        data["tables"] = line.tables if not next_round else [
            {k: v for k, v in t.items() if not k.startswith("mp_")} for t in line.tables]
    return data


def page_json(page: EntrantPage) -> dict:
    """``{"entrant", "names", "position", "vp", "next": {...} | null, "rounds": [...]}`` plus
    ``"withdrawn"``, ``"after_round"``, ``"final"`` (true once every round of the plan is closed:
    the standings are the final ones) and ``"championship"`` (a sentence, or null)."""
    return {
        "entrant": page.number, "names": page.names, "position": page.position, "vp": _number(page.vp),
        "after_round": page.after_round, "final": page.final, "withdrawn": page.withdrawn,
        "next": round_json(page.next, page.kind, next_round=True) if page.next else None,
        "rounds": [round_json(line, page.kind) for line in page.rounds],
        "championship": page.championship,
    }


def search(tournament: Tournament, query: str) -> list[tuple[int, str]]:
    """The page's search box: entrants whose number is ``query`` or whose players' surname or
    name (or the team's name) contains it (case-insensitive): ``[(number, names)]``, at most
    20, by number; [] for a query left empty once cleaned."""
    # a NUL (PostgreSQL refuses it in a query: a 500) and other control characters removed
    query = clean_note(query or "", max_length=60)
    if not query:
        return []
    return kind_of(tournament).search(tournament, query, query.isdecimal())
