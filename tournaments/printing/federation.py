"""The final results for the federation: one row per player, as XLSX and CSV.

The federation's own upload format is not public, so the layout is ours, one flat table
with self-explaining Italian headings that map one to one onto any form (docs/season.md,
"Results for the federation"): per player the membership number, surname, name, club,
the entrant's position (shared places carry «=» in a column of their own), its number, VP,
MP difference, the number of entrants, and on every row the tournament's name, date
(ISO), organising club and arbiter (two text settings of the tournament).
"""
from __future__ import annotations

import csv
import io
from decimal import Decimal

from django.utils.translation import gettext as _

from .. import selectors
from ..kinds import kind_of
from ..models import Player, Tournament
from . import xlsx_rows
from .spreadsheets import append_row


def headings() -> list[str]:
    return [_("Tessera"), _("Cognome"), _("Nome"), _("Circolo"), _("Posizione"), _("Pari merito"),
            _("Numero"), "VP", _("Scarto MP"), _("Partecipanti"), _("Torneo"), _("Data"),
            _("Circolo organizzatore"), _("Nome dell'arbitro")]


def _players_by_entrant(tournament: Tournament) -> dict[int, list[Player]]:
    out: dict[int, list[Player]] = {}
    for p in kind_of(tournament).entrant_players(tournament):
        out.setdefault(p.entrant_number, []).append(p)
    return out


def result_rows(tournament: Tournament) -> list[list]:
    """The rows (without headings) after the last closed round, standings order, a pair's
    players seat 1 first, a team's players in registration order. The membership number is
    the player's, else his member's (rules.md §16); the club likewise. VP a ``Decimal``
    (penalties deducted), positions integers."""
    players = {number: [_cells(p.membership_number, p.last_name, p.first_name, p.club, p.member)
                        for p in group] for number, group in _players_by_entrant(tournament).items()}
    return _rows(tournament, selectors.standings_after(tournament), players)


def _cells(number, last_name, first_name, club, member) -> tuple:
    """A player's (membership number, surname, name, club): the number and club the
    player's, else his member's (rules.md §16); ``member`` a ``Member`` or None."""
    if member is None:
        return (number or "", last_name, first_name, club or "")
    return (number or member.membership_number or "", last_name, first_name, club or member.registered_club)


def _rows(tournament: Tournament, view, players: dict[int, list[tuple]]) -> list[list]:
    """:func:`result_rows` of the standings ``view`` and ``players`` (entrant number → its
    players' :func:`_cells` in order) already read."""
    entrants = len(view.rows)
    common = [tournament.name, tournament.date.isoformat(), tournament.organising_club, tournament.arbiter_name]
    out = []
    for r in view.rows:
        for cells in players.get(r.pair, []):
            out.append([*cells, r.position, "=" if r.tied else "", r.pair, r.vp, r.mp_difference, entrants] + common)
    return out


def _pair_players_of(tournament_ids) -> dict[int, dict[int, list[tuple]]]:
    """Tournament id → entrant number → its players' :func:`_cells`, for the pair
    tournaments ``tournament_ids`` in one query of plain values (the pair kind's
    ``entrant_players``: registered pairs' players, pair number then seat)."""
    out: dict[int, dict[int, list[tuple]]] = {}
    for tid, number, seat_number, last, first, club, member_id, m_number, m_club in (
            Player.objects.filter(tournament_id__in=list(tournament_ids), pair__isnull=False,
                                  pair__round__isnull=True)
            .order_by("tournament_id", "pair__number", "seat")
            .values_list("tournament_id", "pair__number", "membership_number", "last_name", "first_name", "club",
                         "member_id", "member__membership_number", "member__registered_club")):
        # _cells of the player and his member's two values, without a dict a player
        if member_id is None:
            cells = (seat_number or "", last, first, club or "")
        else:
            cells = (seat_number or m_number or "", last, first, club or m_club)
        out.setdefault(tid, {}).setdefault(number, []).append(cells)
    return out


def results_xlsx(tournament: Tournament) -> bytes:
    """XLSX of :func:`result_rows`: one sheet, the headings in bold, every text as text."""
    # lazy: openpyxl is slow to import and only the spreadsheet files need it
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = _("Risultati")[:31]
    append_row(ws, headings())
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in result_rows(tournament):
        append_row(ws, [float(v) if isinstance(v, Decimal) else v for v in row])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _csv_safe(value):
    """A text cell starting with = + - @ gets a leading apostrophe, so a spreadsheet opening
    the CSV never runs it as a formula; numbers stay numbers."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    if isinstance(value, Decimal):  # 15 or 12.5, never 15.00
        return f"{value.normalize():f}"
    return value


def results_csv(tournament: Tournament) -> bytes:
    """CSV (UTF-8 with BOM, comma-separated, decimal point) of :func:`result_rows`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(headings())
    for row in result_rows(tournament):
        writer.writerow([_csv_safe(v) for v in row])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


# The federation's download of a period (rules.md §20): every club's closed tournaments, the
# file's columns above plus the owning club's name and federation code. Written row by row
# (CSV streamed, XLSX by :mod:`.xlsx_rows` into a temporary file) and the
# tournaments read in chunks, so a year of 300 clubs never sits in memory.

#: Tournaments read from the database at a time by :func:`period_result_rows`.
PERIOD_CHUNK = 100


def period_headings() -> list[str]:
    """:func:`headings` plus the owning club's name and federation code."""
    return headings() + [_("Circolo del torneo"), _("Codice federale del circolo")]


def period_result_rows(tournament_ids):
    """Yield the rows (without headings) of :func:`period_headings` for the tournaments
    ``tournament_ids`` (ids, in the order given; an id no longer found is skipped): each
    tournament's :func:`result_rows` plus its club's name and federation code. The
    standings and players of a chunk's pair tournaments are read together
    (``selectors.latest_standings_of``), the same rows as one by one."""
    ids = list(tournament_ids)
    for start in range(0, len(ids), PERIOD_CHUNK):
        chunk = ids[start:start + PERIOD_CHUNK]
        found = Tournament.objects.select_related("club").in_bulk(chunk)
        views = selectors.latest_standings_of(list(found.values()))
        pair_players = _pair_players_of(pk for pk, t in found.items() if t.kind == Tournament.Kind.PAIRS)
        for pk in chunk:
            tournament = found.get(pk)
            if tournament is None:
                continue
            club = [tournament.club.name, tournament.club.federation_code]
            players = pair_players.get(pk, {}) if tournament.kind == Tournament.Kind.PAIRS else {
                number: [_cells(p.membership_number, p.last_name, p.first_name, p.club, p.member) for p in group]
                for number, group in _players_by_entrant(tournament).items()}
            for row in _rows(tournament, views[pk], players):
                yield row + club


def period_csv_chunks(tournament_ids):
    """Yield the CSV (UTF-8 with BOM, as :func:`results_csv`) of :func:`period_result_rows`
    in pieces of bytes, the headings first: for a streamed response."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(period_headings())
    yield ("\ufeff" + buffer.getvalue()).encode("utf-8")
    lines = 0
    buffer.seek(0)
    buffer.truncate()
    for row in period_result_rows(tournament_ids):
        writer.writerow([_csv_safe(v) for v in row])
        lines += 1
        if lines % 500 == 0:
            yield buffer.getvalue().encode("utf-8")
            buffer.seek(0)
            buffer.truncate()
    if buffer.tell():
        yield buffer.getvalue().encode("utf-8")


def period_xlsx_file(tournament_ids, target) -> None:
    """Write the XLSX of :func:`period_result_rows` (one sheet, headings in bold, every text
    as text) to ``target``, a path or a binary file opened for writing, one row in memory
    at a time. Written by :mod:`.xlsx_rows`, not openpyxl: a year of 300 clubs is 5.8
    million cells, which openpyxl's cell writer alone takes 52 s to serialise (docs/clubs.md:
    the download ≤ 30 s)."""
    xlsx_rows.write_xlsx(target, _("Risultati"), period_headings(), period_result_rows(tournament_ids))


__all__ = ["headings", "result_rows", "results_xlsx", "results_csv", "period_headings", "period_result_rows",
           "period_csv_chunks", "period_xlsx_file"]
