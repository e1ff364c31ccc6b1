"""Member lists (rules.md §16): CSV or XLSX with the columns
``tessera,cognome,nome,circolo,categoria,scadenza``, imported all or nothing.

Header names are case-insensitive and in any order; ``tessera``, ``cognome`` and ``nome`` are
required columns, ``circolo``, ``categoria`` and ``scadenza`` optional (a column the file lacks
leaves that field of an existing member as it is; a blank cell blanks it). ``scadenza`` is
``YYYY-MM-DD`` or ``DD/MM/YYYY`` (an XLSX date cell too). Row numbers are the sheet's (header =
row 1). Importing again updates names, club, category and expiry by membership number; a number
new to the registry creates a member. Every member of an imported list is marked ``listed``:
a registration's number absent from every imported list is *unknown*.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import default_club

from . import files
from .models import MAX_MEMBERS, Member
from .names import name_key
from .numbers import membership_number_refusal, normal_membership_number
from .services import record as record_event
from .text import TextRefused, clean_line, visible_text

REQUIRED = ("tessera", "cognome", "nome")
OPTIONAL = ("circolo", "categoria", "scadenza")
LIMITS = {"tessera": 30, "cognome": 80, "nome": 80, "circolo": 120, "categoria": 60}
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?: 00:00:00)?$", re.ASCII)  # ASCII digits, as every number
_ITALIAN = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$", re.ASCII)


@dataclass(frozen=True)
class MemberRow:
    """One member as read from a list; ``row`` is the sheet's row number (header = 1).
    ``values`` holds only the columns the file has (``registered_club``, ``category``,
    ``expires_on``)."""

    row: int
    membership_number: str
    last_name: str
    first_name: str
    values: dict


@dataclass
class ParsedList:
    rows: list[MemberRow] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    new_numbers: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def updated_numbers(self) -> int:
        return len(self.rows) - self.new_numbers


def parse_date(text: str) -> dt.date:
    """``YYYY-MM-DD`` or ``DD/MM/YYYY`` (also an XLSX date cell, ``YYYY-MM-DD 00:00:00``).
    Raises ValueError for anything else or an impossible date (31/02/2026)."""
    if m := _ISO.match(text):
        year, month, day = (int(g) for g in m.groups())
    elif m := _ITALIAN.match(text):
        day, month, year = (int(g) for g in m.groups())
    else:
        raise ValueError(text)
    return dt.date(year, month, day)


def _cells(row: int, header: list[str], record: list[str], errors: list[str]) -> dict[str, str]:
    """Row ``row``'s cells as ``{column: text}`` ("" for a cell the row lacks), each made
    storable and printable by :func:`members.text.clean_line` (control characters and
    bidirectional overrides removed, spaces trimmed: a name with ``\x1b`` broke every
    championship XLSX naming the member). A cell with a NUL is refused: its sentence, with
    the row and column, goes to ``errors``."""
    cells = {}
    for i, column in enumerate(header):
        raw = record[i] if i < len(record) else ""
        try:
            # lengths are checked by the caller, with the row's other errors
            cells[column] = clean_line(raw, label=column, max_length=len(raw))
        except TextRefused:
            errors.append(_("Riga %(row)s, colonna %(column)s: %(problem)s.") % {
                "row": row, "column": column,
                "problem": _("contiene un carattere di controllo (%(code)s)") % {"code": "U+0000"}})
            cells[column] = " ".join(visible_text(raw).split())
    return cells


def parse(filename: str, data: bytes, *, club=None) -> ParsedList:
    """Read and check a member list for ``club``'s registry (a ``clubs.models.Club``; None =
    the default club; rules.md §20: numbers are matched within the club); nothing is saved.

    Errors, each with its row number: unreadable or empty file, more rows than
    :data:`members.models.MAX_MEMBERS`, missing columns, a missing number, surname or name, a
    NUL, a text longer than the registry keeps (after control characters and bidirectional
    overrides are removed, :func:`_cells`), a date neither ``YYYY-MM-DD`` nor ``DD/MM/YYYY``, the
    same number twice in the file, and a list that would take the registry past its cap.
    """
    parsed = ParsedList()
    try:
        records = files.read_records(filename, data, max_rows=MAX_MEMBERS)
    except files.TooManyRows:
        parsed.errors.append(_("Il file ha più di %(max)s soci: è il massimo dell'anagrafica. Nulla è stato "
                               "importato.") % {"max": MAX_MEMBERS})
        return parsed
    except Exception as exc:  # a corrupt file: a sentence, never a 500
        parsed.errors.append(_("File illeggibile: %(error)s") % {"error": exc})
        return parsed
    if not records:
        parsed.errors.append(_("Il file è vuoto."))
        return parsed
    header = [h.strip().lower().lstrip("\ufeff") for h in records[0]]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        parsed.errors.append(_("Riga 1: mancano le colonne %(columns)s (servono tessera, cognome, nome, circolo, "
                               "categoria, scadenza).") % {"columns": ", ".join(missing)})
        return parsed
    seen: dict[str, int] = {}
    for index, record in enumerate(records[1:], start=2):
        errors: list[str] = []
        cells = _cells(index, header, record, errors)
        number, last, first = cells["tessera"], cells["cognome"], cells["nome"]
        for column, label in (("tessera", _("la tessera")), ("cognome", _("il cognome")), ("nome", _("il nome"))):
            if not cells[column]:
                errors.append(_("Riga %(row)s: manca %(what)s.") % {"row": index, "what": label})
        for column, limit in LIMITS.items():
            if len(cells.get(column, "")) > limit:
                errors.append(_("Riga %(row)s, colonna %(column)s: al massimo %(max)s caratteri.")
                              % {"row": index, "column": column, "max": limit})
        refusal = membership_number_refusal(number)
        if refusal:  # one rule for every door (members.numbers): «８８０００７» is 880007, «①②» refused
            errors.append(_("Riga %(row)s, colonna %(column)s: %(problem)s.")
                          % {"row": index, "column": "tessera", "problem": refusal.rstrip(".")})
            number = ""
        else:
            number = normal_membership_number(number)
        if number in seen:
            errors.append(_("Riga %(row)s: la tessera %(number)s compare già alla riga %(first_row)s.")
                          % {"row": index, "number": number, "first_row": seen[number]})
        elif number:
            seen[number] = index
        values: dict = {}
        if "circolo" in header:
            values["registered_club"] = cells["circolo"]
        if "categoria" in header:
            values["category"] = cells["categoria"]
        if "scadenza" in header:
            values["expires_on"] = None
            if cells["scadenza"]:
                try:
                    values["expires_on"] = parse_date(cells["scadenza"])
                except ValueError:
                    errors.append(_("Riga %(row)s: scadenza «%(value)s» non valida (AAAA-MM-GG o GG/MM/AAAA).")
                                  % {"row": index, "value": cells["scadenza"]})
        if errors:
            parsed.errors.extend(errors)
            continue
        parsed.rows.append(MemberRow(row=index, membership_number=number, last_name=last, first_name=first,
                                     values=values))
    if not parsed.rows and not parsed.errors:
        parsed.errors.append(_("Nessun socio nel file."))
    if parsed.errors:
        return parsed
    members = Member.objects.filter(club=club or default_club())
    known = set(members.filter(membership_number__in=list(seen)).values_list("membership_number", flat=True))
    parsed.new_numbers = len(seen) - len(known)
    total = members.count() + parsed.new_numbers
    if total > MAX_MEMBERS:
        parsed.errors.append(_("Con questo elenco l'anagrafica avrebbe %(n)s soci: il massimo è %(max)s. Nulla è "
                               "stato importato.") % {"n": total, "max": MAX_MEMBERS})
    return parsed


@transaction.atomic
def save(parsed: ParsedList, *, club=None, by=None, filename: str = "") -> tuple[int, int]:
    """Write a checked list (:func:`parse`, for the same ``club``; None = the default club)
    into ``club``'s registry all or nothing: its members updated by membership number, new
    numbers created in it (``source`` list); every row marked ``listed``; one entry in
    the registry's audit trail (``by``: a user, None from the shell; ``filename``). Returns
    ``(created, updated)``. Erased members are never brought back by a list: their number
    was removed, so the same number creates a new member."""
    club = club or default_club()
    by_number = {m.membership_number: m for m in
                 Member.objects.select_for_update().filter(club=club).filter(
                     membership_number__in=[r.membership_number for r in parsed.rows])}
    new, changed, now = [], [], timezone.now()
    fields = {"last_name", "first_name", "name_key", "listed"}
    for row in parsed.rows:
        member = by_number.get(row.membership_number)
        if member is None:
            member = Member(club=club, membership_number=row.membership_number, source=Member.Source.LIST)
            new.append(member)
        else:
            member.updated_at = now
            changed.append(member)
        member.last_name, member.first_name = row.last_name, row.first_name
        member.name_key = name_key(row.last_name, row.first_name)
        member.listed = True
        for name, value in row.values.items():
            setattr(member, name, value)
            fields.add(name)
    Member.objects.bulk_create(new, batch_size=1000)
    if changed:
        Member.objects.bulk_update(changed, sorted(fields | {"updated_at"}), batch_size=1000)
    record_event(by=by, action="list_imported", details={"created": len(new), "updated": len(changed), "file": filename})
    return len(new), len(changed)
