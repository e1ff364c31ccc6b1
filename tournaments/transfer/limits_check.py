"""Before a tournament file's values are read: its nesting and the length of every list
against the caps of :mod:`tournaments.registrations.limits` (a 100,000-pair file, 1000-hand sheets,
nesting 400 deep). Nothing here reads the database.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..registrations import limits


def _bad_text(text: str) -> bool:
    """A NUL or an unpaired surrogate (``\\ud800``): no database column stores them."""
    return "\x00" in text or any("\ud800" <= c <= "\udfff" for c in text)


def json_depth_refusal(doc, limit: int = limits.MAX_JSON_DEPTH) -> str | None:
    """``path: problem`` for the first value of ``doc`` (parsed JSON) nested deeper than
    ``limit`` containers, or a text (value or key) holding a NUL or an unpaired surrogate;
    None when there is none. Iterative: a deep file never reaches Python's recursion limit."""
    stack = [(doc, 1, "")]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, str):
            if _bad_text(value):
                return f"{path or '$'}: " + _("carattere non ammesso (NUL o surrogato)")
            continue
        if isinstance(value, (dict, list)):
            if depth > limit:
                return f"{path or '$'}: " + _("annidamento oltre %(n)s livelli") % {"n": limit}
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, child in items:
                step = (f"{path}.{key}" if path else key) if isinstance(key, str) else f"{path}[{key}]"
                if isinstance(key, str) and _bad_text(key):
                    return f"{step}: " + _("carattere non ammesso (NUL o surrogato)")
                if isinstance(child, (dict, list, str)):
                    stack.append((child, depth + 1, step))
    return None


def _len(value) -> int:
    return len(value) if isinstance(value, list) else 0


def size_refusals(doc: dict) -> list[str]:
    """``path: problem`` for every list of ``doc`` (a tournament file's object) longer than
    its cap (:mod:`tournaments.registrations.limits`); [] when all fit. Lists of the wrong type are left
    to the reader."""
    errors = []

    def cap(path: str, value, most: int, what: str) -> None:
        if _len(value) > most:
            errors.append(f"{path}: " + _("%(n)s %(what)s, al massimo %(max)s") % {
                "n": _len(value), "what": what, "max": most})

    pairs = doc.get("pairs")
    registered = [p for p in pairs if isinstance(p, dict) and p.get("round") is None] if isinstance(pairs, list) else []
    cap("pairs", registered, limits.MAX_PAIRS, _("coppie iscritte"))
    cap("pairs", pairs, limits.MAX_PAIRS + limits.MAX_ROUNDS * limits.MAX_FORMED_PAIRS, _("coppie"))
    cap("players", doc.get("players"), limits.MAX_PLAYERS, _("giocatori"))
    cap("teams", doc.get("teams"), limits.MAX_TEAMS, _("squadre"))
    cap("lineups", doc.get("lineups"), limits.MAX_TEAMS * limits.MAX_ROUNDS, _("formazioni"))
    cap("penalties", doc.get("penalties"), limits.MAX_PENALTIES, _("penalità"))
    cap("audit", doc.get("audit"), limits.MAX_AUDIT_ENTRIES, _("voci del registro"))
    cap("tournament.mitchell_order", (doc.get("tournament") or {}).get("mitchell_order")
        if isinstance(doc.get("tournament"), dict) else None, limits.MAX_PAIRS, _("coppie"))
    rounds = doc.get("rounds")
    cap("rounds", rounds, limits.MAX_ROUNDS, _("turni"))
    for i, rnd in enumerate(rounds[:limits.MAX_ROUNDS] if isinstance(rounds, list) else []):
        if not isinstance(rnd, dict):
            continue
        cap(f"rounds[{i}].tables", rnd.get("tables"), limits.MAX_TABLES, _("tavoli"))
        cap(f"rounds[{i}].line_members", rnd.get("line_members"), limits.MAX_PLAYERS, _("giocatori"))
        cap(f"rounds[{i}].matches", rnd.get("matches"), limits.MAX_TEAMS, _("incontri"))
        tables = rnd.get("tables")
        for j, table in enumerate(tables[:limits.MAX_TABLES] if isinstance(tables, list) else []):
            sheet = table.get("sheet") if isinstance(table, dict) else None
            if isinstance(sheet, dict):
                cap(f"rounds[{i}].tables[{j}].sheet.hands", sheet.get("hands"), limits.MAX_HANDS, _("smazzate"))
    return errors


def check_shape(doc: dict) -> None:
    """Raise :class:`ArbiterError` (``details``: the paths) when ``doc`` nests deeper than
    :data:`limits.MAX_JSON_DEPTH`, holds a NUL or an unpaired surrogate, or a list is beyond
    its cap; nothing else is read."""
    deep = json_depth_refusal(doc)
    if deep is not None:
        raise ArbiterError(_("Il file del torneo contiene errori: nulla è stato importato."),
                           details=[deep])
    errors = size_refusals(doc)
    if errors:
        raise ArbiterError(_("Il file del torneo supera i limiti di Arbitro: nulla è stato importato."),
                           details=errors[:30])
