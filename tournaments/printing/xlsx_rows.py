"""A one-sheet XLSX written straight into the zip stream: for files too large for openpyxl.

Why it exists: the federation's download of a year (300 clubs, 360,000 rows, 5.8 million
cells; docs/speed.md, "Many clubs on one server") must take at most 30 s, and openpyxl's write-only sheet spends about 9 µs
a cell serialising (52 s of cells alone; lxml or XlsxWriter measured only ~25 % faster).
A sheet of plain values needs none of that machinery: this module writes the sheet's XML
rows as text into a deflated zip member (level 1), one row at a time, so memory stays flat.
Every other spreadsheet of the app keeps openpyxl.

What it writes (ECMA-376, the smallest package Excel, LibreOffice and openpyxl open): one
worksheet; the first row (the headings) bold through a two-format ``styles.xml``; a text
as an inline string (``t="inlineStr"``: always text, never a formula, so ``=cmd`` stays
the literal text ``=cmd``, as openpyxl's text cells of the other XLSX files); an ``int``,
``float`` or ``Decimal`` as a number (``<v>``, a ``Decimal`` without trailing zeros); ``None``
and ``""`` as no cell. A text loses what :func:`members.text.visible_text` removes (control
characters, lone surrogates, bidirectional overrides, as every XLSX of the app) and the two
noncharacters U+FFFE and U+FFFF that XML 1.0 forbids, is XML-escaped and is cut at
32,767 characters (the most a spreadsheet cell holds).
"""
from __future__ import annotations

import math
import zipfile
from decimal import Decimal
from xml.sax.saxutils import escape, quoteattr

from members.text import visible_text

#: The most characters an Excel cell holds.
CELL_MAX = 32_767
#: Distinct texts whose escaped form is remembered (names and tournaments repeat on every
#: row); the memory is emptied when full, so it stays bounded.
_CACHE_MAX = 50_000

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/styles.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    '</Types>')
_ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="xl/workbook.xml"/></Relationships>')
_WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name={name} sheetId="1" r:id="rId1"/></sheets></workbook>')
_WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
    'Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" '
    'Target="styles.xml"/></Relationships>')
# cell format 0 the default, 1 the bold font (the headings)
_STYLES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font>'
    '<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    '</styleSheet>')
_SHEET_START = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
_SHEET_END = '</sheetData></worksheet>'

_NONCHARACTERS = str.maketrans({"\ufffe": None, "\uffff": None})
_NOT_IN_SHEET_NAMES = str.maketrans({ch: " " for ch in "[]:*?/\\"})


def _column_letters(index: int) -> str:
    """The column name of the 0-based ``index``: 0 → A, 25 → Z, 26 → AA."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def xml_text(value: str) -> str:
    """``value`` as the content of an inline string: what :func:`visible_text` removes and
    U+FFFE/U+FFFF dropped, cut at :data:`CELL_MAX` characters, ``& < >`` escaped."""
    return escape(visible_text(value).translate(_NONCHARACTERS)[:CELL_MAX])


def _sheet_name(title: str) -> str:
    """``title`` as a sheet's name: what :func:`xml_text` drops dropped, the characters a
    sheet name may not hold (``[ ] : * ? / \\``) as spaces, cut at 31 characters."""
    name = visible_text(title).translate(_NONCHARACTERS).translate(_NOT_IN_SHEET_NAMES)[:31]
    return name or "1"


def _text_tail(value: str) -> str:
    """The end of a text cell after its reference and style: ``t="inlineStr"`` and the
    escaped text, its spaces kept when it starts or ends with one."""
    text = xml_text(value)
    space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
    return f' t="inlineStr"><is><t{space}>{text}</t></is></c>'


def write_xlsx(target, title: str, headings: list[str], rows) -> None:
    """Write a one-sheet XLSX to ``target`` (a path, or a binary file opened for writing;
    it need not be seekable): the sheet ``title`` (cut at 31 characters, a spreadsheet's
    limit), ``headings`` (texts) as the bold first row, then ``rows`` (an iterable of
    sequences of ``str``, ``int``, ``float``, ``Decimal`` or ``None``) one row each, read one
    at a time. Raises ``TypeError`` for a value of another type (a date is given as text) or a
    number that is not finite."""
    cache: dict[str, str] = {}
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as package:
        package.writestr("[Content_Types].xml", _CONTENT_TYPES)
        package.writestr("_rels/.rels", _ROOT_RELS)
        package.writestr("xl/workbook.xml", _WORKBOOK.format(name=quoteattr(_sheet_name(title))))
        package.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        package.writestr("xl/styles.xml", _STYLES)
        with package.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            sheet.write(_SHEET_START.encode())
            letters: list[str] = []
            out: list[str] = [_row(1, headings, letters, cache, ' s="1"')]
            for number, row in enumerate(rows, start=2):
                out.append(_row(number, row, letters, cache, ""))
                if len(out) >= 500:
                    sheet.write("".join(out).encode())
                    out.clear()
            out.append(_SHEET_END)
            sheet.write("".join(out).encode())


def _row(number: int, values, letters: list[str], cache: dict[str, str], style: str) -> str:
    """One ``<row>`` element: row ``number`` (1-based) of ``values``; ``letters`` the column
    names made so far (extended as needed), ``cache`` text → :func:`_text_tail`, ``style`` the
    cells' ``s`` attribute or ``""``."""
    while len(letters) < len(values):
        letters.append(_column_letters(len(letters)))
    cells = []
    for column, value in enumerate(values):
        if value is None or value == "":  # an empty text is no cell, as openpyxl reads it back
            continue
        ref = f"{letters[column]}{number}"
        kind = type(value)
        if kind is str:
            tail = cache.get(value)
            if tail is None:
                if len(cache) >= _CACHE_MAX:
                    cache.clear()
                tail = cache[value] = _text_tail(value)
            cells.append(f'<c r="{ref}"{style}{tail}')
        elif kind is int:
            cells.append(f'<c r="{ref}"{style}><v>{value}</v></c>')
        elif isinstance(value, Decimal) and value.is_finite():  # 15 or 12.5, never 15.00 nor 1.5E+1
            cells.append(f'<c r="{ref}"{style}><v>{value.normalize():f}</v></c>')
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            cells.append(f'<c r="{ref}"{style}><v>{float(value)!r}</v></c>')
        else:
            raise TypeError(f"cell {ref}: {value!r} is not a text, a finite number or None")
    return f'<row r="{number}">{"".join(cells)}</row>'


__all__ = ["CELL_MAX", "write_xlsx", "xml_text"]
