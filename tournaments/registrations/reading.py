"""Registration files: CSV or XLSX in the layout of ``shared/data/registrations-*.csv``.

Columns (header names, case-insensitive; order free):
``coppia`` (optional pair number), ``cognome_1``, ``nome_1``, ``tessera_1``,
``cognome_2``, ``nome_2``, ``tessera_2``, ``circolo`` (optional; also
``circolo_1``/``circolo_2``).

CSV may be comma- or semicolon-separated, UTF-8 with or without BOM, or
Windows-1252 as Italian Excel saves it. Names are trimmed. Row numbers in the
messages are the spreadsheet's (header = row 1).

A file holds at most :data:`MAX_PAIRS` pairs (2000 rows = 4000 players):
rows are read one at a time and counting stops at the first row beyond the cap, so a
100,000-row file is refused without being read whole. Between the preview and the
confirmation the upload waits on disk under ``var/imports/`` (a random name; only that
name goes into the session, :mod:`tournaments.registrations.previews`) and is removed after
the import or after an hour.
"""
from __future__ import annotations

import csv
import dataclasses
import io
import re
import unicodedata
import zipfile
from dataclasses import dataclass, field
from typing import Iterator

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from members.numbers import MembershipNumberError, normal_membership_number
from members.text import BIDI_CONTROLS

from . import limits
from .player_data import PlayerData

REQUIRED = ("cognome_1", "nome_1", "cognome_2", "nome_2")

#: The most pairs one registration file may hold (one pair a row: 2000 rows = 4000 players).
MAX_PAIRS = limits.MAX_PAIRS
#: Seconds an uploaded file waits for its confirmation before it is removed.
_DIGITS = re.compile(r"^[0-9]+$")

#: The model's lengths of the texts a registration file writes (``Player``, ``Team.name``).
TEXT_LIMITS = {"last_name": 80, "first_name": 80, "membership_number": 30, "club": 120, "team_name": 120}


def text_refusal(value: str) -> str | None:
    """Why ``value`` (a name, membership number, club) cannot be stored as it is, or None:
    a control character (``\\x07``, ``\\x1b``, a NUL: the spreadsheets and PDFs of the
    tournament could not be written), an unpaired surrogate or a bidirectional override
    (U+202A–U+202E, U+2066–U+2069: it reverses what follows it on every page; the other doors
    remove them, a file's are shown to the arbiter, as its control characters). The caller
    adds the row."""
    for char in value:
        if unicodedata.category(char) in ("Cc", "Cs") or char in BIDI_CONTROLS:
            return _("contiene un carattere di controllo (%(code)s)") % {"code": f"U+{ord(char):04X}"}
    return None


def check_membership_text(row: int, label: str, value: str, errors: list[str]) -> str:
    """``value`` (the cell of column ``label``, a membership number) in its stored form
    (:func:`members.numbers.normal_membership_number`: «８８０００７» is 880007), or ``""``
    after putting the row's refusal in ``errors`` («①②», a control character, a space)."""
    try:
        return normal_membership_number(value)
    except MembershipNumberError as exc:
        errors.append(_("Riga %(row)s, colonna %(column)s: %(problem)s.")
                      % {"row": row, "column": label, "problem": exc.message.rstrip(".")})
        return ""


def check_text(row: int, label: str, value: str, limit: int, errors: list[str]) -> None:
    """Refuse ``value`` (the cell of column ``label``, already stripped) when it holds a
    control character (:func:`text_refusal`) or more than ``limit`` characters (the model's
    field); the message, with ``row``, goes to ``errors``."""
    problem = text_refusal(value)
    if problem is None and len(value) > limit:
        problem = _("ha %(n)s caratteri (al massimo %(max)s)") % {"n": len(value), "max": limit}
    if problem is not None:
        errors.append(_("Riga %(row)s, colonna %(column)s: %(problem)s.")
                      % {"row": row, "column": label, "problem": problem})


class TooManyRows(ValueError):
    """The file has more than :data:`MAX_PAIRS` data rows (counting stopped there)."""


class FileRefused(ValueError):
    """A registration file refused before its rows are checked, with the sentence to show
    (an XLSX that expands beyond :data:`limits.XLSX_MAX_UNCOMPRESSED`, a cell longer than
    :data:`limits.MAX_CELL_CHARS`, more than :data:`limits.MAX_BLANK_ROWS` blank rows)."""


@dataclass(frozen=True)
class RegistrationRow:
    """One pair as read from the file; ``row`` is the sheet's row number (header = 1)."""

    row: int
    number: int | None
    players: tuple[PlayerData, PlayerData]


@dataclass
class ParsedFile:
    rows: list[RegistrationRow] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    raw: list[tuple[int, dict]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def decode(data: bytes) -> str:
    """Text of a CSV file: UTF-8 (BOM or not), else Windows-1252."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def _csv_records(data: bytes) -> Iterator[list[str]]:
    text = decode(data)
    first = text.split("\n", 1)[0] if text.strip() else ""
    delimiter = ";" if first.count(";") > first.count(",") else ","
    yield from csv.reader(io.StringIO(text), delimiter=delimiter)


def check_xlsx_archive(data: bytes) -> None:
    """Refuse (:class:`FileRefused`) an XLSX whose archive declares more than
    :data:`limits.XLSX_MAX_UNCOMPRESSED` bytes once expanded, or more than
    :data:`limits.XLSX_MAX_MEMBERS` parts: read from the zip's directory
    (``zipfile.ZipFile.infolist``) before openpyxl expands anything, which it does whole
    for the shared strings even in read-only mode. The declared sizes are binding:
    ``zipfile`` never hands out more bytes than a part declares. Not a zip: left to openpyxl."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        return
    too_big = _("Il file XLSX si espande oltre %(mb)s MB: non è un foglio di iscrizioni. Nulla è stato "
                "importato.") % {"mb": limits.XLSX_MAX_UNCOMPRESSED // (1024 * 1024)}
    if len(members) > limits.XLSX_MAX_MEMBERS:
        raise FileRefused(too_big)
    if sum(m.file_size for m in members) > limits.XLSX_MAX_UNCOMPRESSED:
        raise FileRefused(too_big)


def _cell_text(v) -> str:
    return "" if v is None else (str(int(v)) if isinstance(v, float) and v.is_integer() else str(v))


def _xlsx_records(data: bytes) -> Iterator[list[str]]:
    # lazy: openpyxl is slow to import and only the spreadsheet files need it
    from openpyxl import load_workbook

    check_xlsx_archive(data)
    wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        ws = wb.worksheets[0]
        # read-only: one row at a time; never more than MAX_COLUMNS cells of a row
        for values in ws.iter_rows(values_only=True, max_col=limits.MAX_COLUMNS):
            yield [_cell_text(v) for v in values]
    finally:
        wb.close()


def read_records(filename: str, data: bytes, *, max_rows: int | None = None) -> list[list[str]]:
    """Non-blank rows of cells as strings (the header first); XLSX by extension or zip
    signature, else CSV. ``max_rows``: the most data rows (after the header) accepted;
    reading stops at the next one with :class:`TooManyRows` (the rest is never parsed)."""
    if filename.lower().endswith((".xlsx", ".xlsm")) or data[:2] == b"PK":
        stream = _xlsx_records(data)
    else:
        stream = _csv_records(data)
    records: list[list[str]] = []
    blank = 0
    try:
        for number, record in enumerate(stream, start=1):
            if not any(c.strip() for c in record):
                blank += 1
                if blank > limits.MAX_BLANK_ROWS:
                    raise FileRefused(_("Il file ha più di %(n)s righe vuote: togli le righe vuote e caricalo di "
                                        "nuovo. Nulla è stato importato.") % {"n": limits.MAX_BLANK_ROWS})
                continue
            if max_rows is not None and len(records) > max_rows:  # header + max_rows already kept
                raise TooManyRows(len(records))
            long = next((c for c in record if len(c) > limits.MAX_CELL_CHARS), None)
            if long is not None:
                raise FileRefused(_("Riga %(row)s: una cella ha %(n)s caratteri (al massimo %(max)s). Nulla è "
                                    "stato importato.") % {"row": number, "n": len(long),
                                                          "max": limits.MAX_CELL_CHARS})
            records.append(record[:limits.MAX_COLUMNS])
    finally:
        if hasattr(stream, "close"):
            stream.close()
    return records


def read_table(filename: str, data: bytes, parsed: "ParsedFile", *, max_rows: int, required,
               too_many: str, missing_columns: str) -> tuple[list[str], list[list[str]]] | None:
    """The header (lower-case names, BOM stripped) and the data rows of a registration file
    (pairs, players or teams), or None after adding the refusal to ``parsed.errors``: more
    than ``max_rows`` rows (``too_many``, already formatted), an unreadable or empty file,
    a column of ``required`` missing (``missing_columns`` with ``%(columns)s``). Row k of
    the data is row k + 2 of the file."""
    try:
        records = read_records(filename, data, max_rows=max_rows)
    except TooManyRows:
        parsed.errors.append(too_many)
        return None
    except FileRefused as exc:
        parsed.errors.append(str(exc))
        return None
    except Exception as exc:  # a corrupt file: tell the arbiter, never crash
        parsed.errors.append(_("File illeggibile: %(error)s") % {"error": exc})
        return None
    if not records:
        parsed.errors.append(_("Il file è vuoto."))
        return None
    header = [h.strip().lower().lstrip("\ufeff") for h in records[0]]
    missing = [c for c in required if c not in header]
    if missing:
        parsed.errors.append(missing_columns % {"columns": ", ".join(missing)})
        return None
    return header, records[1:]


def row_cells(header: list[str], record: list[str]) -> dict[str, str]:
    """One data row as ``{column: stripped text}`` ("" for a cell the row lacks)."""
    return {h: (record[i].strip() if i < len(record) else "") for i, h in enumerate(header)}


def each_row(header: list[str], body: list[list[str]], parsed: "ParsedFile") -> Iterator[tuple[int, dict[str, str]]]:
    """``(row number, cells)`` of each data row of :func:`read_table`'s result (the header is
    row 1, so data row k is row k + 2), each also kept in ``parsed.raw`` for the preview."""
    for index, record in enumerate(body, start=2):
        cells = row_cells(header, record)
        parsed.raw.append((index, cells))
        yield index, cells


@dataclass(frozen=True)
class NumberMessages:
    """The three refusals of an entry number (pair, player or team) in a registration file,
    lazily translated: ``invalid`` (``%(row)s``, ``%(value)s``), ``twice`` (``%(row)s``,
    ``%(number)s``, ``%(first_row)s``; None where a number may stand on several rows, as a
    team's) and ``taken`` (``%(row)s``, ``%(number)s``)."""

    invalid: str
    taken: str
    twice: str | None = None


PAIR_NUMBER = NumberMessages(
    invalid=gettext_lazy("Riga %(row)s: numero di coppia «%(value)s» non valido."),
    twice=gettext_lazy("Riga %(row)s: il numero di coppia %(number)s è già usato alla riga %(first_row)s."),
    taken=gettext_lazy("Riga %(row)s: il numero di coppia %(number)s è già usato nel torneo."))
PLAYER_NUMBER = NumberMessages(
    invalid=gettext_lazy("Riga %(row)s: numero di giocatore «%(value)s» non valido."),
    twice=gettext_lazy("Riga %(row)s: il numero di giocatore %(number)s è già usato alla riga %(first_row)s."),
    taken=gettext_lazy("Riga %(row)s: il numero di giocatore %(number)s è già usato nel torneo."))


def check_entry_number(row: int, text: str, errors: list[str], messages: NumberMessages, *,
                       existing=frozenset(), seen: dict[int, int] | None = None,
                       required: bool = False) -> int | None:
    """The entry number written in one row of a registration file, checked (rules.md §1:
    a number unique within the tournament; §9 and §15 for players' and teams' files).

    ``row``: the file's row number (header = 1); ``text``: the stripped cell; ``errors``: the
    row's message list, to which at most one refusal is appended; ``messages``: which noun
    (:data:`PAIR_NUMBER`, :data:`PLAYER_NUMBER`, the teams' own); ``existing``: the numbers
    the tournament already has; ``seen``: ``{number: first row}`` of the file so far, updated
    (None: the file may repeat a number, as the rows of one team do); ``required``: a blank
    cell is refused as not valid instead of meaning "number it for me".

    Returns the number, or None for a blank optional cell or a refused text (not a positive
    integer of ASCII digits: ``messages.invalid``; above :data:`limits.MAX_ENTRY_NUMBER`). A number already used at an earlier row gives
    ``messages.twice``, one already in the tournament ``messages.taken``; both still return
    the number. Raises nothing.
    """
    if not text and not required:
        return None
    if not _DIGITS.match(text) or int(text) < 1:
        errors.append(messages.invalid % {"row": row, "value": text[:20]})
        return None
    number = int(text) if len(text) <= 12 else limits.MAX_ENTRY_NUMBER + 1
    if number > limits.MAX_ENTRY_NUMBER:
        errors.append(_("Riga %(row)s: il numero %(value)s è troppo grande (al massimo %(max)s).")
                      % {"row": row, "value": text[:20], "max": limits.MAX_ENTRY_NUMBER})
        return None
    if seen is not None and number in seen:
        errors.append(messages.twice % {"row": row, "number": number, "first_row": seen[number]})
    elif number in existing:
        errors.append(messages.taken % {"row": row, "number": number})
    if seen is not None:
        seen.setdefault(number, row)
    return number


def check_membership(row: int, membership: str, errors: list[str], *, seen: dict[str, int],
                     existing=frozenset()) -> None:
    """Refuse a membership number (``membership``, non-blank) already met at an earlier row
    of the file (``seen``: ``{membership: first row}``, updated) or already registered in the
    tournament (``existing``); the message goes to ``errors`` (one row's list). rules.md §1:
    a player appears once per tournament. When the earlier row is this row (the two players
    of one pair's row share the number), the message says so instead of pointing at itself."""
    if seen.get(membership) == row:
        errors.append(_("Riga %(row)s: i due giocatori della coppia hanno la stessa tessera %(membership)s.")
                      % {"row": row, "membership": membership})
    elif membership in seen:
        errors.append(_("Riga %(row)s: il giocatore con tessera %(membership)s compare già alla riga %(first_row)s.")
                      % {"row": row, "membership": membership, "first_row": seen[membership]})
    elif membership in existing:
        errors.append(_("Riga %(row)s: il giocatore con tessera %(membership)s è già iscritto al torneo.")
                      % {"row": row, "membership": membership})
    seen.setdefault(membership, row)


def read_player(row: int, cells: dict[str, str], errors: list[str], *, seen_members: dict[str, int],
                existing_memberships=frozenset()) -> PlayerData:
    """The player of a one-player row (players' and teams' files, rules.md §9 and §15:
    columns ``cognome``, ``nome``, ``tessera``, ``circolo``), checked: a missing surname or
    name, and the membership number through :func:`check_membership` (``seen_members``,
    ``existing_memberships``). Messages go to ``errors`` (the row's list); the player is
    returned as read (blank fields as "")."""
    last, first = cells.get("cognome", ""), cells.get("nome", "")
    membership, club = cells.get("tessera", ""), cells.get("circolo", "")
    if not last:
        errors.append(_("Riga %(row)s: manca il cognome.") % {"row": row})
    if not first:
        errors.append(_("Riga %(row)s: manca il nome.") % {"row": row})
    for label, value, limit in (("cognome", last, 80), ("nome", first, 80), ("circolo", club, 120)):
        check_text(row, label, value, limit, errors)
    membership = check_membership_text(row, "tessera", membership, errors)
    if membership:
        check_membership(row, membership, errors, seen=seen_members, existing=existing_memberships)
    return PlayerData(first_name=first, last_name=last, membership_number=membership, club=club)


def number_free_rows(rows: list, existing) -> list:
    """``rows`` (:class:`RegistrationRow` or :class:`PlayerRow`, file order) with each row
    that has no number given the lowest number free of ``existing`` (the tournament's) and
    of the numbers the file writes, in file order; numbered rows are kept as they are."""
    used = set(existing) | {r.number for r in rows if r.number is not None}
    next_free, numbered = 1, []
    for r in rows:
        if r.number is None:
            while next_free in used:
                next_free += 1
            used.add(next_free)
            r = dataclasses.replace(r, number=next_free)
        numbered.append(r)
    return numbered


def parse(filename: str, data: bytes, *, existing_numbers=(), existing_memberships=()) -> ParsedFile:
    """Read and check a registration file; nothing is saved.

    Errors, each with its row number: unreadable file, more than :data:`MAX_PAIRS` rows
    (refused before the rest is read), missing columns, a missing
    name, the same player twice in the file, a pair number used twice (in the file
    or already in the tournament), a player already registered in the tournament
    (same membership number), a pair number that is not a positive integer.
    """
    parsed = ParsedFile()
    table = read_table(
        filename, data, parsed, max_rows=MAX_PAIRS, required=REQUIRED,
        too_many=_("Il file ha più di %(max)s coppie (%(players)s giocatori): è il massimo per un torneo. "
                   "Dividi il file o controlla che non contenga righe in più; nulla è stato importato.")
        % {"max": MAX_PAIRS, "players": limits.MAX_PLAYERS},
        missing_columns=_("Riga 1: mancano le colonne %(columns)s."))
    if table is None:
        return parsed
    header, body = table
    existing_numbers = set(existing_numbers)
    existing_memberships = set(existing_memberships)
    seen_numbers: dict[int, int] = {}
    seen_members: dict[str, int] = {}
    seen_names: dict[tuple, int] = {}
    for index, cells in each_row(header, body, parsed):
        errors = []
        number = check_entry_number(index, cells.get("coppia", ""), errors, PAIR_NUMBER,
                                    existing=existing_numbers, seen=seen_numbers)
        players = []
        for k in ("1", "2"):
            last, first = cells.get(f"cognome_{k}", ""), cells.get(f"nome_{k}", "")
            membership = cells.get(f"tessera_{k}", "")
            club = cells.get(f"circolo_{k}") or cells.get("circolo", "")
            for label, value, limit in ((f"cognome_{k}", last, 80), (f"nome_{k}", first, 80),
                                        ("circolo", club, 120)):
                check_text(index, label, value, limit, errors)
            membership = check_membership_text(index, f"tessera_{k}", membership, errors)
            if not last or not first:
                message = (_("Riga %(row)s: manca il cognome del giocatore %(player)s.") if not last
                           else _("Riga %(row)s: manca il nome del giocatore %(player)s."))
                errors.append(message % {"row": index, "player": k})
            if membership:
                check_membership(index, membership, errors, seen=seen_members, existing=existing_memberships)
            elif last and first:
                key = (last.lower(), first.lower(), club.lower())
                if key in seen_names:
                    errors.append(_("Riga %(row)s: %(last_name)s %(first_name)s compare già alla riga %(first_row)s.")
                                  % {"row": index, "last_name": last, "first_name": first,
                                     "first_row": seen_names[key]})
                seen_names.setdefault(key, index)
            players.append(PlayerData(first_name=first, last_name=last, membership_number=membership, club=club))
        if errors:
            parsed.errors.extend(errors)
            continue
        parsed.rows.append(RegistrationRow(row=index, number=number, players=(players[0], players[1])))
    # A file mixing numbered and unnumbered rows: unnumbered ones take free numbers in file order.
    if not parsed.errors:
        parsed.rows = number_free_rows(parsed.rows, existing_numbers)
    if not parsed.rows and not parsed.errors:
        parsed.errors.append(_("Nessuna coppia nel file."))
    return parsed


# --------------------------------------------------------------------------- individual tournaments

PLAYER_REQUIRED = ("cognome", "nome")


@dataclass(frozen=True)
class PlayerRow:
    """One player of an individual tournament as read from the file (rules.md §9:
    columns ``giocatore,cognome,nome,tessera,circolo``); ``row``: the sheet's row number."""

    row: int
    number: int | None
    player: PlayerData


def parse_players(filename: str, data: bytes, *, existing_numbers=(), existing_memberships=()) -> ParsedFile:
    """Read and check a player registration file of an individual tournament; nothing is saved.

    Same encodings, cap and all-or-nothing preview as :func:`parse`. Columns (header names,
    case-insensitive, order free): ``giocatore`` (optional player number), ``cognome``,
    ``nome`` (required), ``tessera``, ``circolo``. Errors, each with its row number:
    missing columns, a missing name, a player number not a positive integer or used twice
    (in the file or in the tournament), the same player twice (membership number, or name
    and club when there is none), a player already registered. Unnumbered rows take the
    free numbers in file order. ``rows`` holds :class:`PlayerRow`.
    """
    parsed = ParsedFile()
    table = read_table(
        filename, data, parsed, max_rows=limits.MAX_PLAYERS, required=PLAYER_REQUIRED,
        too_many=_("Il file ha più di %(max)s giocatori: è il massimo per un torneo. Nulla è stato "
                   "importato.") % {"max": limits.MAX_PLAYERS},
        missing_columns=_("Riga 1: mancano le colonne %(columns)s (servono giocatore, cognome, nome, "
                          "tessera, circolo)."))
    if table is None:
        return parsed
    header, body = table
    existing_numbers, existing_memberships = set(existing_numbers), set(existing_memberships)
    seen_numbers: dict[int, int] = {}
    seen_members: dict[str, int] = {}
    seen_names: dict[tuple, int] = {}
    for index, cells in each_row(header, body, parsed):
        errors = []
        number = check_entry_number(index, cells.get("giocatore", ""), errors, PLAYER_NUMBER,
                                    existing=existing_numbers, seen=seen_numbers)
        player = read_player(index, cells, errors, seen_members=seen_members,
                             existing_memberships=existing_memberships)
        last, first, club = player.last_name, player.first_name, player.club
        if not player.membership_number and last and first:
            key = (last.lower(), first.lower(), club.lower())
            if key in seen_names:
                errors.append(_("Riga %(row)s: %(last_name)s %(first_name)s compare già alla riga %(first_row)s.")
                              % {"row": index, "last_name": last, "first_name": first, "first_row": seen_names[key]})
            seen_names.setdefault(key, index)
        if errors:
            parsed.errors.extend(errors)
            continue
        parsed.rows.append(PlayerRow(row=index, number=number, player=player))
    if not parsed.errors:
        parsed.rows = number_free_rows(parsed.rows, existing_numbers)
    if not parsed.rows and not parsed.errors:
        parsed.errors.append(_("Nessun giocatore nel file."))
    return parsed
