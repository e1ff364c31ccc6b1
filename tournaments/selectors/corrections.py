"""Corrections of a closed round (rules.md §3, §13; art. 31): which tables were corrected
after their round closed (marked on the round page, the live board and the sheet page, with
a link to their audit entries) and what a correction moved in the standings (the message
the arbiter reads after it). Reads only."""
from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.vp import format_vp

from ..models import AuditAction, AuditEntry, Round, Tournament
from .rankings import standings_after

#: The audit actions that change a stored result (a correction of any kind, art. 31).
CORRECTION_ACTIONS = (AuditAction.SHEET_CORRECTED, AuditAction.SHEET_LINES_SWAPPED, AuditAction.ARBITRAL_SCORE)


def corrected_tables(rnd: Round) -> set[int]:
    """Table numbers of ``rnd`` with a correction recorded after the round closed (its
    latest ``closed_at``); empty for a round not closed."""
    if rnd.state != Round.State.CLOSED or rnd.closed_at is None:
        return set()
    return set(AuditEntry.objects.filter(
        tournament_id=rnd.tournament_id, round_number=rnd.number, action__in=CORRECTION_ACTIONS,
        at__gte=rnd.closed_at).values_list("table_number", flat=True))


def table_audit_url(tournament: Tournament, round_number: int, table_number: int) -> str:
    """The Registro filtered on one table of one round (its audit entries)."""
    return reverse("audit", args=[tournament.slug]) + f"?round={round_number}&table={table_number}"


def standings_snapshot(tournament: Tournament) -> dict[int, tuple[str, object]]:
    """Entrant number → (position text "3°" or "3°=" when shared, VP) in the standings after the last
    closed round (``rankings.standings_after``)."""
    out = {}
    for row in standings_after(tournament).rows:
        out[row.pair] = (f"{row.position}°{'=' if row.tied else ''}", row.vp)
    return out


def standings_moves(tournament: Tournament, before: dict, after: dict) -> list[str]:
    """One sentence per entrant whose position or VP changed between two
    :func:`standings_snapshot` ("coppia 3: 2° → 1°, VP 31 → 33"), by entrant number."""
    label = {"pairs": _("coppia %(n)s"), "individual": _("giocatore %(n)s"),
             "teams": _("squadra %(n)s")}.get(tournament.kind, _("coppia %(n)s"))
    out = []
    for number in sorted(set(before) | set(after)):
        old, new = before.get(number), after.get(number)
        if old == new or old is None or new is None:
            continue
        parts = []
        if old[0] != new[0]:
            parts.append(_("%(old)s → %(new)s") % {"old": old[0], "new": new[0]})
        if old[1] != new[1]:
            parts.append(_("VP %(old)s → %(new)s") % {"old": format_vp(old[1]), "new": format_vp(new[1])})
        out.append(label % {"n": number} + ": " + ", ".join(parts))
    return out


def closed_correction_message(tournament: Tournament, rnd: Round, table_number: int, kind_label: str,
                              before: dict, old_vp: tuple, new_vp: tuple) -> str:
    """The message after a correction of closed round ``rnd``: its kind, the table's VP old →
    new and what moved in the standings (:func:`standings_moves`), or that nothing moved."""
    moves = standings_moves(tournament, before, standings_snapshot(tournament))
    text = _("Correzione (%(kind)s) del tavolo %(t)s, turno %(r)s chiuso: VP %(old)s → %(new)s.") % {
        "kind": kind_label, "t": table_number, "r": rnd.number,
        "old": "–".join(format_vp(v) for v in old_vp), "new": "–".join(format_vp(v) for v in new_vp)}
    if moves:
        return text + " " + _("Classifica: %(moves)s.") % {"moves": "; ".join(moves)}
    return text + " " + _("La classifica non cambia.")
