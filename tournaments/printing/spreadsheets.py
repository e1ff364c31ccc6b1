"""The spreadsheets (XLSX, openpyxl) of the standings and of a round's score sheets, from the
plain documents of :mod:`tournaments.printing.documents`."""
from __future__ import annotations

import io

from django.utils.translation import gettext as _

from members.text import visible_text

from .. import wording
from ..models import Table
from .documents import RoundDocument, StandingsDocument, vp_number


def _workbook():
    # lazy: openpyxl is slow to import and only the spreadsheet files need it
    from openpyxl import Workbook

    return Workbook()


def append_row(ws, values) -> None:
    """Append one row to an openpyxl worksheet with every text cell stored as text.

    openpyxl turns a string starting with ``=`` into a formula, so a player named ``=1+1`` or
    ``=HYPERLINK(...)`` would run in the arbiter's spreadsheet. Every XLSX
    writer appends its rows through here: strings get ``data_type = "s"`` (a string cell),
    numbers stay numbers.

    Strings also lose control characters and bidirectional overrides
    (:func:`members.text.visible_text`): every door removes them before storing, but a text
    stored before that rule would make openpyxl raise ``IllegalCharacterError`` and the
    download answer 500.
    """
    values = [visible_text(v) if isinstance(v, str) else v for v in values]
    ws.append(values)
    row = ws.max_row
    for column, value in enumerate(values, start=1):
        if isinstance(value, str):
            cell = ws.cell(row=row, column=column)
            cell.value = value
            cell.data_type = "s"


def _header(ws, titles: list[tuple[str, int]]) -> None:
    # lazy: openpyxl is slow to import and only the spreadsheet files need it
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    append_row(ws, [t for t, _w in titles])
    for i, (_t, width) in enumerate(titles, start=1):
        ws.cell(row=1, column=i).font = Font(bold=True)
        ws.column_dimensions[get_column_letter(i)].width = width
    ws.freeze_panes = "A2"


def _save(wb) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def standings_xlsx(doc: StandingsDocument) -> bytes:
    """XLSX of the standings: one sheet, header row in bold, then one row per pair; with
    groups (rules.md §14) one more sheet per group ("Girone 1", …), positions within it.

    Columns: Posizione (an integer: 3), Pari merito ("=" when the position is shared, else
    empty), Coppia, Giocatori (individual: N., Giocatore; teams: N., Squadra), VP, Penalità (VP
    deducted), Scarto MP, MP fatti, Turni, Riposi, Ritirata (individual: Ritirato), Penalità MP (MP deducted, already off Scarto MP and MP fatti). Positions, VP
    and MP are numbers, so a spreadsheet sorts them as numbers.

    When the plan has several sessions (rules.md §11) a last column "Sessione" holds, on
    every row, the session (an integer, 2) of the last round counted, as the PDF's title
    names it; a column rather than a title line, so row 1 stays the header and the rows
    still sort (and standings of two sessions pasted together keep their session). A
    one-session tournament's file is unchanged.
    """
    wb = _workbook()
    ws = wb.active
    ws.title = _("Classifica")[:31]
    kind = doc.kind_data.name
    session = doc.session if doc.session_text else None
    _standings_sheet(ws, doc.rows, kind, session)
    for group, rows in doc.groups:  # rules.md §14: one sheet per group after the overall one
        _standings_sheet(wb.create_sheet((_("Girone %(g)s") % {"g": group})[:31]), rows, kind, session)
    return _save(wb)


def _session_column(session: int | None) -> list[tuple[str, int]]:
    """The "Sessione" heading (with its width) when ``session`` is given, else nothing."""
    return [(_("Sessione"), 10)] if session else []


def _standings_sheet(ws, rows, kind: str = wording.PAIRS, session: int | None = None) -> None:
    entrant, names = wording.standings_headings(kind)
    _header(ws, [(_("Posizione"), 10), (_("Pari merito"), 11), (entrant, 8), (names, 44), ("VP", 8),
                 (_("Penalità"), 9), (_("Scarto MP"), 11), (_("MP fatti"), 10), (_("Turni"), 7),
                 (_("Riposi"), 7), (wording.withdrawn_heading(kind), 9), (_("Penalità MP"), 12)]
            + _session_column(session))
    tail = [session] if session else []
    for r in rows:
        tied = r.position.endswith("=")
        position = r.position.rstrip("=")
        append_row(ws, [int(position) if position.isdigit() else r.position, "=" if tied else "", r.pair, r.names, vp_number(r.vp), vp_number(r.penalty) or 0,
                   r.mp_difference, r.mp_scored, r.played, r.rests, _("sì") if r.withdrawn else "",
                   r.penalty_mp] + tail)


def scoresheets_xlsx(doc: RoundDocument) -> bytes:
    """XLSX of every score sheet of the round.

    Sheet "Smazzate": one row per hand (Tavolo, Smazzata, Coppia N/S, Base N/S, Carte N/S,
    Totale N/S, Coppia E/O, Base E/O, Carte E/O, Totale E/O). Sheet "Tavoli": one row per
    table with players, MP totals, difference, VP, state; rests listed with their pair and
    the rest VP in its own line's columns (a resting E/W pair under "Coppia E/O" and "VP
    E/O", ``selectors.rest_values``, rules.md §5), as the round page shows.
    Blank sheets appear in "Tavoli" with empty results.

    When the plan has several sessions (rules.md §11) both sheets end with a column
    "Sessione": the round's session as an integer on every row (see :func:`standings_xlsx`
    for why a column); a one-session tournament's file is unchanged.
    """
    session = doc.session if doc.session_text else None
    tail = [session] if session else []
    wb = _workbook()
    ws = wb.active
    ws.title = _("Smazzate")
    _header(ws, [(_("Tavolo"), 8), (_("Smazzata"), 10), (_("Coppia N/S"), 11), (_("Base N/S"), 10),
                 (_("Carte N/S"), 10), (_("Totale N/S"), 11), (_("Coppia E/O"), 11), (_("Base E/O"), 10),
                 (_("Carte E/O"), 10), (_("Totale E/O"), 11)] + _session_column(session))
    for t in doc.playing_tables:
        for h in t.hands:
            append_row(ws, [t.number, h.number, t.ns.number, h.ns.base, h.ns.cards, h.ns.score,
                       t.ew.number, h.ew.base, h.ew.cards, h.ew.score] + tail)
    ws2 = wb.create_sheet(_("Tavoli"))
    _header(ws2, [(_("Tavolo"), 8), (_("Coppia N/S"), 11), (_("Giocatori N/S"), 36), (_("Coppia E/O"), 11),
                  (_("Giocatori E/O"), 36), ("MP N/S", 9), ("MP E/O", 9), (_("Differenza"), 11),
                  ("VP N/S", 8), ("VP E/O", 8), (_("Stato"), 14)] + _session_column(session))
    for t in doc.tables:
        if t.bye:
            label = _("Riposo forzato") if t.bye == Table.Bye.FORCED else _("Riposo")
            if t.resting_line == "ew":  # a resting E/W pair in the E/O columns
                append_row(ws2, [t.number, None, label, t.ns.number, t.ns.names, None, None, None,
                            None, vp_number(doc.rest_vp), label] + tail)
            else:
                append_row(ws2, [t.number, t.ns.number, t.ns.names, None, label, None, None, None,
                            vp_number(doc.rest_vp), None, label] + tail)
            continue
        append_row(ws2, [t.number, t.ns.number, t.ns.names, t.ew.number, t.ew.names, t.mp_ns, t.mp_ew,
                    t.difference, vp_number(t.vp_ns), vp_number(t.vp_ew),
                    t.state or _("Da inserire")] + tail)
    return _save(wb)
