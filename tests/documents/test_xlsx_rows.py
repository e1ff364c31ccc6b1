"""The one-sheet XLSX written straight into the zip (``tournaments.printing.xlsx_rows``): read
back with openpyxl, every cell as expected by hand, hostile text included; the federation's
period XLSX holds, cell for cell, what its CSV holds."""
import csv
import datetime
import io
import shutil
import subprocess
from decimal import Decimal

import pytest
from django.utils import timezone
from openpyxl import load_workbook

from tests.championships.helpers import pairs_evening
from tournaments.models import Player, Tournament
from tournaments.printing import federation as federation_file
from tournaments.printing.xlsx_rows import CELL_MAX, write_xlsx

LONG = "x" * (CELL_MAX + 100)

# (value written, value openpyxl reads back)
CASES = [
    ("=cmd|' /C calc'!A0", "=cmd|' /C calc'!A0"),  # text, never a formula
    ("+1", "+1"), ("-2", "-2"), ("@SUM(A1)", "@SUM(A1)"),
    ("a < b & c > d", "a < b & c > d"),
    ("</t></is></c><c><v>1</v></c>", "</t></is></c><c><v>1</v></c>"),
    ('"quoted" \'single\'', '"quoted" \'single\''),
    ("Ros\x07si\x1b\x00", "Rossi"),  # control characters removed, as visible_text does
    ("riga\nnuova\ttab\r", "riganuovatab"),
    ("Rossi\u202e02 IV", "Rossi02 IV"),  # bidirectional override removed
    ("X\ufffeY\uffff", "XY"),  # noncharacters XML 1.0 forbids
    ("Παπαδόπουλος", "Παπαδόπουλος"), ("山田 太郎", "山田 太郎"), ("Ørsted Ñúñez", "Ørsted Ñúñez"),
    ("carte 🂡🃏", "carte 🂡🃏"),
    ("  spazi  ", "  spazi  "),
    (LONG, "x" * CELL_MAX),
    (Decimal("12.50"), 12.5), (Decimal("15.00"), 15), (Decimal("-3"), -3), (Decimal("1E+1"), 10),
    (0, 0), (-7, -7), (123456789, 123456789), (0.1, 0.1), (2.5, 2.5),
    (None, None), ("", None),
]


def read_back(data: bytes):
    return load_workbook(io.BytesIO(data))


def test_every_cell_reads_back_as_written():
    out = io.BytesIO()
    rows = [[value, k] for k, (value, _expected) in enumerate(CASES)]
    write_xlsx(out, "Risultati", ["Valore", "N."], iter(rows))
    wb = read_back(out.getvalue())
    ws = wb.active
    assert ws.title == "Risultati" and wb.sheetnames == ["Risultati"]
    got = [list(r) for r in ws.iter_rows(values_only=True)]
    assert got[0] == ["Valore", "N."]
    assert len(got) == 1 + len(CASES)
    for k, (value, expected) in enumerate(CASES):
        assert got[k + 1] == [expected, k], (k, value)
    for k, (value, _expected) in enumerate(CASES):
        cell = ws.cell(row=k + 2, column=1)
        if isinstance(value, str) and value:
            assert cell.data_type == "s", value  # a text cell, never a formula ("f")
        assert not cell.font.b
    assert ws["A1"].font.b and ws["B1"].font.b  # the headings in bold


def test_a_title_with_markup_and_a_long_title():
    out = io.BytesIO()
    write_xlsx(out, "Risultati <&> [di]: un anno intero e oltre", ["A"], [])
    assert read_back(out.getvalue()).sheetnames == ["Risultati <&>  di   un anno int"]  # 31 characters


def test_ragged_rows_and_many_columns():
    out = io.BytesIO()
    write_xlsx(out, "S", ["A"], [[1], list(range(30)), [None, None, "z"]])
    got = [list(r) for r in read_back(out.getvalue()).active.iter_rows(values_only=True)]
    assert got[2] == list(range(30))
    assert got[1][:2] == [1, None] and got[3][:3] == [None, None, "z"]
    assert read_back(out.getvalue()).active.cell(row=3, column=28).coordinate == "AB3"


@pytest.mark.parametrize("bad", [datetime.date(2026, 1, 1), True, float("nan"), Decimal("Infinity"), [1]])
def test_a_value_neither_text_nor_finite_number_is_refused(bad, tmp_path):
    with pytest.raises(TypeError):
        write_xlsx(tmp_path / "bad.xlsx", "S", ["A"], [[bad]])


class OnlyWrites(io.RawIOBase):
    """A stream that cannot seek (a pipe, a socket)."""

    def __init__(self):
        self.data = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.data += b
        return len(b)


def test_a_stream_that_cannot_seek():
    stream = OnlyWrites()
    write_xlsx(stream, "S", ["A", "B"], [["uno", 1], ["due", Decimal("2.5")]])
    got = [list(r) for r in read_back(bytes(stream.data)).active.iter_rows(values_only=True)]
    assert got == [["A", "B"], ["uno", 1], ["due", 2.5]]


@pytest.mark.skipif(not shutil.which("soffice"), reason="LibreOffice is not installed")
def test_libreoffice_opens_it(tmp_path):
    path = tmp_path / "r.xlsx"
    write_xlsx(path, "S", ["A", "B"], [["uno <&>", 1], ["=cmd", Decimal("2.5")]])
    subprocess.run(["soffice", "--headless", "--convert-to", "csv", "--outdir", str(tmp_path), str(path)],
                   check=True, capture_output=True, timeout=120)
    assert (tmp_path / "r.csv").read_text().splitlines() == ["A,B", "uno <&>,1", "=cmd,2.5"]


def csv_of(value) -> str:
    """What the period's CSV holds for a cell the XLSX holds as ``value`` (read back): the
    formula guard's apostrophe on a text starting with = + - @, numbers as written."""
    if value is None:
        return ""
    if isinstance(value, str):
        return "'" + value if value[:1] in "=+-@" else value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@pytest.mark.django_db
def test_period_xlsx_holds_what_the_period_csv_holds(arbiter):
    day = timezone.localdate() - datetime.timedelta(days=2)
    first = pairs_evening(arbiter, "uno", day, [(("Serra", "Anna", "402616"), ("=cmd", "Marta", "")),
                                                (("Neri <b>", "Ugo & C", "1"), ("Παπαδόπουλος", "山田", "2"))],
                          {1: 12, 2: 8})
    second = pairs_evening(arbiter, "due", day, [(("Blu", "Eva", "3"), ("Rosa", "Ivo", "4")),
                                                 (("Riva", "Rita", "9"), ("Pace", "Gino", ""))], {1: 10, 2: 10})
    Tournament.objects.filter(pk=second.pk).update(name="+SUM(1) <serata> & co")
    # a text stored before the text rule (a control character), as the XLSX writers expect
    Player.objects.filter(tournament=first, last_name="Serra").update(last_name="Ser\x07ra")
    ids = [first.pk, second.pk]
    out = io.BytesIO()
    federation_file.period_xlsx_file(ids, out)
    xlsx = [list(r) for r in read_back(out.getvalue()).active.iter_rows(values_only=True)]
    text = b"".join(federation_file.period_csv_chunks(ids)).decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text)))
    assert len(xlsx) == len(lines) == 1 + 8
    assert xlsx[0] == lines[0] == federation_file.period_headings()
    assert lines[1][1] == "Ser\x07ra" and xlsx[1][1] == "Serra"  # the XLSX drops it, the CSV keeps it
    lines[1][1] = "Serra"
    for row, line in zip(xlsx[1:], lines[1:], strict=True):
        assert [csv_of(v) for v in row] == line
    # by hand: pair 1 of «uno» first with 12 VP, «due» 10–10 shared
    assert xlsx[2][:10] == [None, "=cmd", "Marta", None, 1, None, 1, 12, 0, 2]
    assert xlsx[3][:3] == ["1", "Neri <b>", "Ugo & C"] and xlsx[4][1:3] == ["Παπαδόπουλος", "山田"]
    assert xlsx[5][4:6] == [1, "="] and xlsx[5][10] == "+SUM(1) <serata> & co"
