"""Individual tournaments in the one round cycle (rules.md §9).

A line at a table is a ``Pair``: in an individual tournament each round's partnerships are
``Pair`` rows formed for that round (``Pair.round``), their players linked by
``LineMember`` (``(round, player)`` unique: a player sits at most once per round). A
resting player is a rest table with a one-player partnership, scored like a resting pair
(rules.md §5). Seats, tables, score sheets, captains' links, corrections and validation
then work unchanged.

This module builds the pairing request of an individual round (pairing-io.md,
"Individual tournaments"), writes the engine's answer as formed pairs, line members,
tables and seats, and reads a round back in the response shape.
"""
from __future__ import annotations

import re
from collections import defaultdict

from django.db.models import Max
from django.utils.translation import gettext as _

from ... import selectors
from ...errors import ArbiterError
from ...i18n_messages import coded, message_text
from ...models import LineMember, Pair, Player, Round, Seat, Table, Tournament


def active_players(tournament: Tournament, number: int) -> list[Player]:
    """The numbered players in play in round ``number`` (not withdrawn before it), by number."""
    players = Player.objects.filter(tournament=tournament, number__isnull=False).order_by("number")
    return [p for p in players if p.is_active_in(number)]


def rested_players(tournament: Tournament, *, before_round: int, since_round: int = 1) -> set[int]:
    """Numbers of the players that rested (or had a forced rest) in rounds ``since_round`` ..
    ``before_round - 1`` (rules.md §5, §9: one rest per player per session)."""
    return set(
        LineMember.objects.filter(
            round__tournament=tournament, round__number__lt=before_round, round__number__gte=since_round,
            pair__seats__table__bye__gt="",
        ).order_by().values_list("player__number", flat=True)
    )


def partnerships(tournament: Tournament, *, before_round: int) -> list[list[int]]:
    """Every partnership of two players before round ``before_round``, as ``[a, b]``
    (player numbers, a < b; a repeated partnership listed again), for the request's
    ``partners`` (pairing-io.md)."""
    lines: dict[int, list[int]] = defaultdict(list)
    for pair_id, player in LineMember.objects.filter(
            round__tournament=tournament, round__number__lt=before_round).order_by(
            "round__number", "pair_id", "seat").values_list("pair_id", "player__number"):
        lines[pair_id].append(player)
    return [sorted(members) for members in lines.values() if len(members) == 2]


def line_players(tournament: Tournament) -> dict[int, list[int]]:
    """Pair number of each formed partnership → its players' numbers, seat 1 first."""
    out: dict[int, list[int]] = defaultdict(list)
    for pair_number, player in LineMember.objects.filter(round__tournament=tournament).order_by(
            "pair_id", "seat").values_list("pair__number", "player__number"):
        out[pair_number].append(player)
    return dict(out)


def player_ranking(tournament: Tournament, number: int, members: set[int]) -> list[int]:
    """Player numbers of ``members``, best first, by the per-player standings after round
    ``number - 1`` (rules.md §9); number order before any round and for players missing."""
    ranking: list[int] = []
    if tournament.rounds.filter(number__lt=number).exists():
        ranking = [row.pair for row in selectors.standings_after(tournament, number - 1).rows
                   if row.pair in members]
    seen = set(ranking)
    return ranking + sorted(n for n in members if n not in seen)


def build_individual_request(tournament: Tournament, number: int, *, seed: int | None = None) -> dict:
    """The pairing request (pairing-io.md, "Individual tournaments") for round ``number``.

    First round (no round yet) with ``D``: ``first_round`` with ``kind`` individual, the
    players in number order, ``method`` number or lot (with ``seed``). Danish individual
    (plan letter ``D``): ``ranking`` = the active players best first by the standings after
    the previous round, ``partners`` = every partnership so far,
    ``rested`` = players that rested in this session (rules.md §5, §9). Individual movement
    (``M``): the players in number order, the planned rounds, the round, the seed, the
    withdrawn players (``absent``), plus ranking and rested for the rest rule.
    """
    system = tournament.system_of_round(number)
    players = active_players(tournament, number)
    numbers = {p.number for p in players}
    first = number == 1 or not tournament.rounds.filter(number__lt=number).exists()
    ranking = sorted(numbers) if first else player_ranking(tournament, number, numbers)
    rested = rested_players(tournament, before_round=number, since_round=tournament.session_start(number))
    if system == Round.System.INDIVIDUAL_MOVEMENT:
        everyone = list(Player.objects.filter(tournament=tournament, number__isnull=False)
                        .order_by("number").values_list("number", flat=True))
        previous = tournament.rounds.filter(number__lt=number,
                                            system=Round.System.INDIVIDUAL_MOVEMENT).count()
        request = {
            "system": "individual-movement",
            "players": everyone,
            "rounds": sum(1 for r in tournament.planned_rounds() if r.system == "M") or 1,
            "round": previous + 1,
            "seed": seed or 0,
            "ranking": ranking,
            "rested": sorted(rested & numbers),
            "partners": partnerships(tournament, before_round=number),
        }
        absent = [n for n in everyone if n not in numbers]
        if absent:
            request["absent"] = absent
        return request
    if first:
        # The first round (rules.md §9): by number, or by lot with the round's seed; "by
        # hand" starts from the order by number and the arbiter changes the draft.
        request = {"system": "first_round", "kind": "individual", "players": sorted(numbers),
                   "method": "lot" if tournament.first_round == Tournament.FirstRound.LOT else "number"}
        if request["method"] == "lot" and seed is not None:
            request["seed"] = seed
        return request
    return {
        "system": "danish-individual",
        "ranking": ranking,
        "partners": partnerships(tournament, before_round=number),
        "rested": sorted(rested & numbers),
    }


def write_individual_tables(rnd: Round, response: dict) -> None:
    """Create the round's formed partnerships (``Pair`` with ``round``), line members,
    tables and seats from a response (pairing-io.md: ``tables`` with ``ns``/``ew`` player
    lists, ``rest``, optional ``forced_rest``). Each resting player gets a rest table of his
    own after the last playing table, with a one-player partnership (rules.md §5, §9).
    Formed pairs are numbered after the tournament's highest pair number, so they never
    clash with anything."""
    tournament = rnd.tournament
    by_number = {p.number: p for p in Player.objects.filter(tournament=tournament, number__isnull=False)}
    next_pair = (Pair.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1

    def form(players: list[int]) -> Pair:
        nonlocal next_pair
        pair = Pair.objects.create(tournament=tournament, number=next_pair, round=rnd)
        next_pair += 1
        for seat, n in enumerate(players, start=1):
            if int(n) not in by_number:
                raise ArbiterError(_("Il giocatore %(player)s non è iscritto al torneo.") % {"player": n})
            LineMember.objects.create(round=rnd, pair=pair, player=by_number[int(n)], seat=seat)
        return pair

    used = 0
    for t in response.get("tables", []):
        lines = [line for line in ("ns", "ew") if t.get(line)]
        bye = Table.Bye.NONE if len(lines) == 2 else Table.Bye.FORCED
        table = Table.objects.create(round=rnd, number=t["table"], bye=bye)
        used = max(used, t["table"])
        for line in lines:
            Seat.objects.create(round=rnd, table=table, pair=form(list(t[line])), line=line)
    rests = [(p, Table.Bye.REST) for p in response.get("rest") or []]
    rests += [(p, Table.Bye.FORCED) for p in response.get("forced_rest") or []]
    for player, kind in rests:
        used += 1
        table = Table.objects.create(round=rnd, number=used, bye=kind)
        Seat.objects.create(round=rnd, table=table, pair=form([player]), line=Seat.Line.NS)


def individual_response_from_round(rnd: Round) -> dict:
    """The round's current tables in the individual response shape (pairing-io.md):
    ``tables`` with ``ns``/``ew`` player lists, ``rest`` and ``forced_rest`` players."""
    tables, rest, forced = [], [], []
    for table in rnd.tables.prefetch_related("seats__pair__line_members__player").order_by("number"):
        lines = {s.line: [p.number for p in s.pair.players] for s in table.seats.all()}
        if table.bye == Table.Bye.REST:
            rest += [n for members in lines.values() for n in members]
        elif table.bye == Table.Bye.FORCED and len(lines) == 1 and len(next(iter(lines.values()))) == 1:
            forced += [n for members in lines.values() for n in members]
        else:
            tables.append({"table": table.number, "ns": lines.get("ns"), "ew": lines.get("ew")})
    response = {"tables": tables, "rest": rest, "repeated_partners": [], "warnings": []}
    if forced:
        response["forced_rest"] = forced
    return response


def seated_players(rnd: Round) -> list[int]:
    """Numbers of the players seated in ``rnd`` (rest tables included)."""
    return list(LineMember.objects.filter(round=rnd).values_list("player__number", flat=True))


def repeated_partner_messages(response: dict) -> list:
    """One message per repeated partnership of an individual response (``repeated_partners``
    ``[[a, b], …]``, pairing-io.md; rules.md §9: only when unavoidable; code
    ``round.ind_partners_again``), and one per rest exchange of the individual movement
    (``adjustments`` ``{"rests": S, "plays": R, "table": t}``: S rests instead of R, who
    already rested, rules.md §5; code ``round.ind_exchange``). Each is an
    ``i18n_messages.Coded`` (Italian text, shown in the reader's language once stored)."""
    out = [coded("round.ind_partners_again", a=a, b=b)
           for a, b, *_rest in response.get("repeated_partners") or []]
    for a in response.get("adjustments") or []:
        if "line" not in a:  # the pair movement's exchanges are told by rounds.adjustment_messages
            out.append(coded("round.ind_exchange", rests=a["rests"], plays=a["plays"], table=a["table"]))
    return out


def repeated_partner_sentences(response: dict) -> list[str]:
    """The :func:`repeated_partner_messages` of ``response`` in the active language."""
    return [message_text(m) for m in repeated_partner_messages(response)]


def swap_players_in_draft(rnd: Round, a: int, b: int) -> None:
    """Exchange the places of players ``a`` and ``b`` (numbers) in the draft ``rnd``: each
    takes the other's line and seat (a first round by hand, rules.md §9). Three statements
    so that ``(round, player)`` stays unique at each one. Raises ``ArbiterError`` when a
    player is not seated in the round."""
    members = {m.player.number: m for m in LineMember.objects.filter(
        round=rnd, player__number__in=[a, b]).select_related("player")}
    for n in (a, b):
        if n not in members:
            raise ArbiterError(_("Il giocatore %(n)s non è in questo turno.") % {"n": n})
    ma, mb = members[a], members[b]
    player_a, player_b = ma.player, mb.player
    pair_a, seat_a = ma.pair, ma.seat
    ma.delete()
    LineMember.objects.filter(pk=mb.pk).update(player=player_a)
    LineMember.objects.create(round=rnd, pair=pair_a, player=player_b, seat=seat_a)


_HAND_LINE = re.compile(r"^\s*(\d+)\s*\+\s*(\d+)\s*(?:v|vs|contro|-)\s*(\d+)\s*\+\s*(\d+)\s*$", re.IGNORECASE)


def parse_hand_tables(text: str) -> list[dict]:
    """The arbiter's first round by hand (rules.md §9): one table a line, ``"1+2 v 3+4"``
    (N/S first; ``v``, ``vs``, ``contro`` or ``-`` between the lines), tables numbered in
    order; blank lines are skipped. Returns ``[{"table": 1, "ns": [1, 2], "ew": [3, 4]}, …]``.
    Raises ``ArbiterError`` naming the first line that does not read."""
    tables = []
    for index, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        match = _HAND_LINE.match(line)
        if match is None:
            raise ArbiterError(_("Riga %(row)s: «%(text)s» non è un tavolo: scrivi per esempio 1+2 v 3+4.")
                               % {"row": index, "text": line.strip()[:60]})
        a, b, c, d = (int(x) for x in match.groups())
        tables.append({"table": len(tables) + 1, "ns": [a, b], "ew": [c, d]})
    if not tables:
        raise ArbiterError(_("Scrivi almeno un tavolo, per esempio 1+2 v 3+4."))
    return tables
