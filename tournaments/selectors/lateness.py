"""The latenesses of a tournament (*ritardo*, rules.md §22) as the standings list them, and
the MP difference each line of a forfeited table keeps: read from the audit trail
(``services.lateness`` writes ``lateness`` and ``lateness_undone``)."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from ..models import AuditAction, AuditEntry, ScoreSheet, Tournament
from ..wording import by_kind

#: How lateness is written in penalties, arbitral notes and the Registro (Italian, the source
#: language, as every reason the software writes); a forfeit's note starts with it.
LATE_WORD = "ritardo"


@dataclass(frozen=True)
class Lateness:
    """One lateness still in force: ``round``, ``pair`` (the entrant's number: pair, player or
    team), ``minutes``, ``kind`` (``"penalty"``: ``mp`` deducted; ``"forfeit"``: the match at
    ``table`` lost, ``tables`` every table lost: a team's two)."""

    round: int
    pair: int
    minutes: int
    kind: str
    mp: int | None = None
    table: int | None = None
    tables: tuple[int, ...] = ()
    #: the entrant in words, in the active language: "coppia 2", "giocatore 7", "squadra 3"
    who: str = ""


def entrant_of(data: dict):
    """The entrant's number in a ``lateness`` audit entry's data (``entrant``; ``pair`` in the
    entries written before the other kinds had lateness)."""
    return data.get("entrant", data.get("pair"))


def _in_force(tournament: Tournament) -> dict[tuple[int, int], dict]:
    """``(round, entrant) → the lateness entry's data`` of the latenesses not undone."""
    entries = (AuditEntry.objects
               .filter(tournament=tournament, action__in=(AuditAction.LATENESS, AuditAction.LATENESS_UNDONE))
               .order_by("id").values_list("action", "round_number", "new", "old"))
    return _in_force_of(entries)


def _in_force_of(entries) -> dict[tuple[int, int], dict]:
    """:func:`_in_force` of one tournament's lateness entries ``(action, round number, new,
    old)`` in the order written."""
    current: dict[tuple[int, int], dict | None] = {}
    for action, number, new, old in entries:
        data = new if action == AuditAction.LATENESS else old
        if not isinstance(data, dict) or number is None:
            continue
        current[(number, entrant_of(data))] = data if action == AuditAction.LATENESS else None
    return {key: data for key, data in current.items() if data is not None}


def latenesses(tournament: Tournament, after_round: int | None = None) -> list[Lateness]:
    """The latenesses not undone, of rounds up to ``after_round`` (None: every round), by
    round then entrant."""
    who = by_kind(tournament, pairs=_("coppia %(n)s"), individual=_("giocatore %(n)s"), teams=_("squadra %(n)s"))
    out = [Lateness(round=r, pair=p, minutes=d.get("minutes", 0), kind=d.get("kind", ""), mp=d.get("mp"),
                    table=d.get("table"), tables=tuple(d.get("tables") or ([d["table"]] if d.get("table") else [])),
                    who=who % {"n": p})
           for (r, p), d in _in_force(tournament).items() if after_round is None or r <= after_round]
    return sorted(out, key=lambda x: (x.round, x.pair))


def forfeit_differences(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """``table id → (N/S MP difference, E/W MP difference)`` of the tables forfeited for
    lateness (rules.md §22) whose sheet is still that forfeit (an arbitral score whose note
    starts «ritardo»; one the arbiter changed by hand is his score, with the ordinary
    difference). The present line keeps the lower edge of its VP's band, the late line minus
    the lower edge of its own band (``services.lateness``): in four-hand rounds +305 and
    −705. Empty (one query) when no forfeit is in force."""
    return _differences(tournament, _in_force(tournament))


def forfeit_differences_of(tournaments) -> dict[int, dict[int, tuple[int, int]]]:
    """Tournament id → :func:`forfeit_differences` of each of ``tournaments`` (a list of
    ``Tournament``): the lateness entries of all of them in one query, then one query a
    tournament only where a forfeit is in force (the federation's download of a period,
    rules.md §20, §22)."""
    entries: dict[int, list[tuple]] = {t.pk: [] for t in tournaments}
    if entries:
        for tid, *entry in (AuditEntry.objects
                            .filter(tournament_id__in=list(entries),
                                    action__in=(AuditAction.LATENESS, AuditAction.LATENESS_UNDONE))
                            .order_by("id").values_list("tournament_id", "action", "round_number", "new", "old")):
            entries[tid].append(entry)
    return {t.pk: _differences(t, _in_force_of(entries[t.pk])) for t in tournaments}


def _differences(tournament: Tournament, in_force: dict) -> dict[int, tuple[int, int]]:
    """:func:`forfeit_differences` of ``tournament`` from its latenesses ``in_force``
    (:func:`_in_force`)."""
    wanted: dict[tuple[int, int], tuple[int, int]] = {}
    for (rnd, _entrant), data in in_force.items():
        if data.get("kind") != "forfeit":
            continue
        for table in data.get("forfeits") or ():
            difference = table.get("difference")
            if difference:
                wanted[(rnd, table["table"])] = (int(difference[0]), int(difference[1]))
    return {table_id: wanted[key] for key, table_id in _still_forfeited(tournament, wanted).items()}


def _still_forfeited(tournament: Tournament, keys) -> dict[tuple[int, int], int]:
    """``(round, table number) → table id`` of the ``keys`` whose sheet is still the lateness
    forfeit (an arbitral score whose note starts «ritardo»). No query when ``keys`` is empty."""
    if not keys:
        return {}
    where = Q()
    for rnd, table in keys:
        where |= Q(table__round__number=rnd, table__number=table)
    sheets = (ScoreSheet.objects.filter(where, table__round__tournament=tournament, arbitral=True,
                                        arbitral_note__startswith=LATE_WORD)
              .order_by().values_list("table_id", "table__round__number", "table__number"))
    return {(rnd, number): table_id for table_id, rnd, number in sheets}


def forfeit_matches(tournament: Tournament) -> dict[int, dict]:
    """``table id → the match's forfeit`` for the team matches of a summed-margin tournament
    lost for lateness (rules.md §22, §15) whose two sheets are still that forfeit: the match's
    VP and margins come from the team scale, not from converting the tables' MP. Each value is
    ``{"late": the late team's number, "vp": (present, late) Decimal, "mp": (present, late)
    MP scored, "margin": (present, late) MP}``; both tables' ids map to the same value. Empty
    (one query) when no such forfeit is in force."""
    from decimal import Decimal

    wanted: dict[tuple[int, int], dict] = {}
    for (rnd, entrant), data in _in_force(tournament).items():
        match = data.get("match") if data.get("kind") == "forfeit" else None
        if not match:
            continue
        value = {"late": entrant, "vp": (Decimal(match["vp"][0]), Decimal(match["vp"][1])),
                 "mp": (int(match["mp"][0]), int(match["mp"][1])),
                 "margin": (int(match["margin"][0]), int(match["margin"][1])), "tables": []}
        for table in data.get("tables") or ():
            wanted[(rnd, table)] = value
    out: dict[int, dict] = {}
    for key, table_id in _still_forfeited(tournament, wanted).items():
        wanted[key]["tables"].append(table_id)
        out[table_id] = wanted[key]
    # a match counts as forfeited only while both its tables are: one the arbiter changed by
    # hand leaves the match to the ordinary conversion (his score counts as entered)
    return {table_id: value for table_id, value in out.items() if len(value["tables"]) == 2}
