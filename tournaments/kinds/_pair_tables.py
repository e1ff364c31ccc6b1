"""The tables of a pair round (pairing-io.md), the groups' refusals naming pairs and the
preview's player JSON: the pairs' behaviour of :class:`tournaments.kinds.base.Kind` and the
kinds that reuse a pair's way share them."""
from __future__ import annotations

from django.db import connection
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import ArbiterError
from ..models import Round, Seat, Table


def write_pair_tables(rnd: Round, response: dict) -> None:
    """Create the round's tables and seats from a pairing response (pairing-io.md).

    A listed table with one empty seat (Mitchell, opponent withdrawn) is a forced rest
    at its movement table number; the ordinary rest and any other forced rest get a
    table of their own after the last one (the Mitchell phantom's table T when free).
    """
    # Two INSERTs (tables, then seats), not one a row: a 250-table round is generated while
    # 1000 phones poll the same server (bench/busiest_minute.py).
    pairs = {p.number: p for p in rnd.tournament.pairs.all()}
    used_numbers: set[int] = set()
    seated: set[int] = set()
    tables: list[Table] = []
    seats: list[tuple[Table, int, str]] = []   # (table, pair number, line)
    for t in response["tables"]:
        present = [line for line in ("ns", "ew") if t.get(line) is not None]
        bye = Table.Bye.NONE if len(present) == 2 else Table.Bye.FORCED
        table = Table(round=rnd, number=t["table"], bye=bye)
        tables.append(table)
        used_numbers.add(t["table"])
        for line in present:
            seats.append((table, int(t[line]), line))
            seated.add(int(t[line]))
    byes = []
    if response.get("byes") is not None:  # round robin in groups: one rest per odd group
        byes += [(int(p), Table.Bye.REST) for p in response["byes"]]
    elif response.get("bye") is not None:
        byes.append((int(response["bye"]), Table.Bye.REST))
    byes += [(int(p), Table.Bye.FORCED) for p in response.get("forced_byes") or [] if int(p) not in seated]
    for pair_number, kind in byes:
        number = max(used_numbers, default=0) + 1
        used_numbers.add(number)
        table = Table(round=rnd, number=number, bye=kind)
        tables.append(table)
        line = _rest_line(rnd, response, pair_number) if kind == Table.Bye.REST else Seat.Line.NS
        seats.append((table, pair_number, line))
    if connection.features.can_return_rows_from_bulk_insert:  # PostgreSQL, SQLite ≥ 3.35
        Table.objects.bulk_create(tables)  # sets each table's pk
    else:  # an older SQLite returns no pks from a bulk insert: one INSERT a table
        for table in tables:
            table.save(force_insert=True)
    Seat.objects.bulk_create([Seat(round=rnd, table=table, pair=pairs[number], line=line)
                              for table, number, line in seats])


def _rest_line(rnd: Round, response: dict, pair_number: int) -> str:
    """The line a resting pair belongs to. Mitchell (rules.md §6, pairing-io.md): the phantom
    is the N/S pair of table T, so the pair that meets it is an E/W pair; when a second-rest
    exchange made another pair rest, that pair's own line (the ``line`` of its adjustment,
    the seat the movement's pair took). Other systems have no lines: N/S."""
    if rnd.system != Round.System.MITCHELL:
        return Seat.Line.NS
    for a in response.get("adjustments") or []:
        if a.get("rests") is not None and int(a["rests"]) == pair_number and a.get("line") in ("ns", "ew"):
            return a["line"]
    return Seat.Line.EW


def _byes_in_group_order(groups: list[list], byes: list) -> list:
    """The resting pairs of a round robin in groups, group 1 first (the response order)."""
    where = {p: k for k, members in enumerate(groups) for p in members}
    return sorted(byes, key=lambda p: (where.get(p, len(groups)), p))


def pair_response_from_round(rnd: Round) -> dict:
    """The round's current tables in the pairing-io.md response shape (for the checker).

    A forced rest at a movement table is listed as a table with an empty seat and in
    ``forced_byes`` (the Mitchell shape, see ``pairing.mitchell``).
    """
    tables, bye, forced, byes = [], None, [], []
    for table in rnd.tables.prefetch_related("seats__pair").order_by("number"):
        ns, ew = table.ns, table.ew
        if table.bye == Table.Bye.REST:
            byes.append(table.resting_pair.number)
            bye = bye if bye is not None else table.resting_pair.number
            continue
        if table.bye == Table.Bye.FORCED:
            forced.append(table.resting_pair.number)
        tables.append({"table": table.number, "ns": ns.number if ns else None, "ew": ew.number if ew else None})
    response = {"tables": tables, "bye": bye, "rematches": [], "warnings": []}
    if forced or rnd.system in (Round.System.MITCHELL, Round.System.ROUND_ROBIN):
        response["forced_byes"] = forced
    if "groups" in (rnd.pairing_request or {}):
        response["byes"] = _byes_in_group_order(rnd.pairing_request["groups"], byes)
    return response


def swap_pair_seats(rnd: Round, a: int, b: int) -> dict:
    """Exchange the seats of pairs ``a`` and ``b`` (numbers) in the draft ``rnd``; returns
    the audit's ``new``. Raises ``Seat.DoesNotExist`` for a pair not seated."""
    seat_a = rnd.seats.select_related("table").get(pair__number=a)
    seat_b = rnd.seats.select_related("table").get(pair__number=b)
    pa, pb = seat_a.pair_id, seat_b.pair_id
    # Three steps so the unique (round, pair) constraint holds at every statement.
    Seat.objects.filter(pk=seat_a.pk).delete()
    Seat.objects.filter(pk=seat_b.pk).update(pair_id=pa)
    Seat.objects.create(round=rnd, table=seat_a.table, line=seat_a.line, pair_id=pb)
    return {"pairs": [a, b]}


def resting_pair_number(rnd: Round) -> int:
    """The number of the pair at the rest table of ``rnd``. Raises ``ArbiterError`` for none."""
    rest_table = rnd.tables.filter(bye=Table.Bye.REST).first()
    if rest_table is None:
        raise ArbiterError(_("In questo turno non riposa nessuno (numero pari di coppie)."))
    return rest_table.seats.get().pair.number


def keep_pair_findings(response: dict, engine: dict) -> None:
    """The engine's repeated meetings still at a table, its round-robin group summary and its
    second-rest exchanges, copied into ``response`` (the current tables)."""
    current = {frozenset((t["ns"], t["ew"])) for t in response["tables"]}
    response["rematches"] = [m for m in engine.get("rematches", []) if frozenset(m) in current]
    if "groups" in engine:  # the round robin's per-group summary: judged by the tables
        response["groups"] = engine["groups"]
    if "adjustments" in engine:
        # The exchanges are the engine's decision, not a seat: judged against the tables.
        response["adjustments"] = engine["adjustments"]


#: the groups' refusals naming pairs (:attr:`tournaments.kinds.base.KindData.groups_refusals`);
#: the individual kind has no groups and keeps them
PAIR_GROUPS_REFUSALS = {
    "no_group": gettext_lazy("Le coppie %(pairs)s non hanno un girone: dividi di nuovo le coppie nei gironi."),
    "too_small": gettext_lazy("Il girone %(group)s ha meno di 2 coppie: dividi di nuovo le coppie nei gironi."),
    "too_many": gettext_lazy("Con %(pairs)s coppie si fanno al massimo %(max)s gironi (almeno 2 "
                             "coppie per girone)."),
    "hand_missing": gettext_lazy("Manca il girone delle coppie %(pairs)s."),
    "hand_range": gettext_lazy("Il girone della coppia %(pair)s deve essere tra 1 e %(max)s."),
    "hand_small": gettext_lazy("Il girone %(group)s ha meno di 2 coppie: ogni girone ne vuole "
                               "almeno 2."),
}


def player_json(p) -> dict:
    """A ``PlayerData`` as the registration preview's JSON."""
    return {"first_name": p.first_name, "last_name": p.last_name, "membership_number": p.membership_number,
            "club": p.club}
