"""The championship's printed standings (PDF, A4, WeasyPrint) and spreadsheet (XLSX).

Both take :class:`championships.selectors.ChampionshipStandings`; each row shows the
total, the evenings played and which counted (rules.md §17): in the PDF as the evenings'
numbers with their points, counted ones in bold, the others in brackets, and a legend of the
evenings; in the XLSX one column per evening (points) and a column of the counted ones.
"""
from __future__ import annotations

import io

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from scoring import championship as rules
from tournaments.printing.documents import html_to_pdf, long_date
from tournaments.printing.spreadsheets import append_row

from .selectors import ChampionshipStandings


def evening_cells(view: ChampionshipStandings, row, *, public: bool = False) -> list[dict]:
    """One dict per evening the member played, in date order: ``number`` (1-based position
    of the evening in the championship), ``points`` (text), ``counted``."""
    out = []
    for i, evening in enumerate(view.evenings, start=1):
        if evening.slug in row.points:
            out.append({"number": i, "slug": evening.slug, "points": rules.points_text(row.points[evening.slug]),
                        "counted": evening.slug in row.counted})
    return out


def table_rows(view: ChampionshipStandings) -> list[dict]:
    """The rows as templates show them: position label, name, total text, evenings played,
    the cells of :func:`evening_cells`, ``club`` (the member's club's name, shown in a
    circuit: rules.md §20)."""
    return [{"position": r.position_label, "name": r.name, "number": r.membership_number or "",
             "total": r.total_text, "played": r.played, "cells": evening_cells(view, r),
             "ranked": r.position is not None, "club": r.club_name} for r in view.rows]


def context(view: ChampionshipStandings) -> dict:
    c = view.championship
    return {"championship": c, "view": view, "rows": table_rows(view),
            "evenings": [{"number": i, "evening": e, "date_text": long_date(e.date)}
                         for i, e in enumerate(view.evenings, start=1)],
            "best": c.best, "min_evenings": c.min_evenings, "rule": view.rule, "circuit": view.circuit}


def standings_pdf(view: ChampionshipStandings) -> bytes:
    """PDF (A4) of the championship's standings: names, total, evenings, counted ones."""
    return html_to_pdf(render_to_string("championships/print_standings.html", context(view)))


def standings_xlsx(view: ChampionshipStandings) -> bytes:
    """XLSX: header row in bold, then one row per member: Posizione (integer, empty below
    the minimum), Pari merito ("="), Socio, Tessera, [Circolo: a circuit's, the member's club
    slug, rules.md §20], Punti (number, 2 decimals), Serate, Contate (the counted evenings'
    slugs), then one column per evening (its slug) with the points of that evening (empty
    when not played)."""
    # lazy: openpyxl is slow to import and only the spreadsheet files need it
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = _("Campionato")[:31]
    head = [_("Posizione"), _("Pari merito"), _("Socio"), _("Tessera")] + ([_("Circolo")] if view.circuit else []) + [
        _("Punti"), _("Serate"), _("Contate")]
    append_row(ws, head + [e.slug for e in view.evenings])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.freeze_panes = "A2"
    for r in view.rows:
        per = [float(rules.rounded(r.points[e.slug])) if e.slug in r.points else None for e in view.evenings]
        club = [r.club_slug] if view.circuit else []
        append_row(ws, [r.position, "=" if r.position_label.endswith("=") else "", r.name,
                        r.membership_number or ""] + club + [float(rules.rounded(r.total)), r.played,
                                                             ", ".join(r.counted)] + per)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
