"""The latenesses of a tournament (*ritardo*, rules.md §22) as the standings list them: read
from the audit trail (``services.lateness`` writes ``lateness`` and ``lateness_undone``)."""
from __future__ import annotations

from dataclasses import dataclass

from .models import AuditEntry, Tournament


@dataclass(frozen=True)
class Lateness:
    """One lateness still in force: ``round``, ``pair`` (number), ``minutes``, ``kind``
    (``"penalty"``: ``mp`` deducted; ``"forfeit"``: the match at ``table`` lost)."""

    round: int
    pair: int
    minutes: int
    kind: str
    mp: int | None = None
    table: int | None = None


def latenesses(tournament: Tournament, after_round: int | None = None) -> list[Lateness]:
    """The latenesses not undone, of rounds up to ``after_round`` (None: every round), by
    round then pair."""
    current: dict[tuple[int, int], dict | None] = {}
    entries = (AuditEntry.objects.filter(tournament=tournament, action__in=("lateness", "lateness_undone"))
               .order_by("id").values_list("action", "round_number", "new", "old"))
    for action, number, new, old in entries:
        data = new if action == "lateness" else old
        if not isinstance(data, dict) or number is None:
            continue
        current[(number, data.get("pair"))] = data if action == "lateness" else None
    out = [Lateness(round=r, pair=p, minutes=d.get("minutes", 0), kind=d.get("kind", ""), mp=d.get("mp"),
                    table=d.get("table"))
           for (r, p), d in current.items() if d is not None and (after_round is None or r <= after_round)]
    return sorted(out, key=lambda x: (x.round, x.pair))
