"""XLSX registration files that expand to gigabytes or hold a million blank rows are refused
before openpyxl expands them; the confirmation imports the preview's rows without reading the
file again. The bombs are built here, small (a few hundred KB)."""
import html
import io
import zipfile

import pytest
from django.urls import reverse
from openpyxl import Workbook

from tournaments.models import Pair
from tournaments.registrations import limits, reading

HEADER = ["coppia", "cognome_1", "nome_1", "tessera_1", "cognome_2", "nome_2", "tessera_2", "circolo"]


@pytest.fixture(autouse=True)
def var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    return tmp_path


def small_xlsx(rows=2) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.append(HEADER)
    for k in range(1, rows + 1):
        ws.append([k, f"Rossi{k}", "Anna", f"A{k}", f"Verdi{k}", "Bruno", f"B{k}", "Circolo"])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def replace_part(data: bytes, name: str, content: bytes) -> bytes:
    """``data`` (an XLSX) with part ``name`` replaced by ``content`` (deflated)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, content if info.filename == name else src.read(info.filename))
        if name not in src.namelist():
            dst.writestr(name, content)
    return out.getvalue()


def test_a_valid_xlsx_is_read():
    parsed = reading.parse("iscritti.xlsx", small_xlsx(3))
    assert parsed.ok and [r.number for r in parsed.rows] == [1, 2, 3]


def test_a_huge_shared_string_is_refused_from_the_archive_directory(monkeypatch):
    """One shared string of 60 MB (declared size) compresses to about 60 KB: refused from the
    zip's declared sizes; openpyxl is never asked to load the workbook."""
    bomb_text = b"A" * (60 * 1024 * 1024)
    shared = (b'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
              b'count="1" uniqueCount="1"><si><t>' + bomb_text + b"</t></si></sst>")
    bomb = replace_part(small_xlsx(), "xl/sharedStrings.xml", shared)
    del bomb_text, shared
    assert len(bomb) < 1024 * 1024

    import openpyxl

    def never(*args, **kwargs):
        raise AssertionError("openpyxl opened the bomb")

    monkeypatch.setattr(openpyxl, "load_workbook", never)
    parsed = reading.parse("iscritti.xlsx", bomb)
    assert parsed.errors == ["Il file XLSX si espande oltre 40 MB: non è un foglio di iscrizioni. Nulla è stato "
                             "importato."]


def sheet_with_blank_rows(n: int) -> bytes:
    rows = [b'<row r="1"><c r="A1" t="inlineStr"><is><t>cognome_1</t></is></c></row>']
    rows += [b'<row r="%d"/>' % k for k in range(2, n + 2)]
    return (b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            b"<sheetData>" + b"".join(rows) + b"</sheetData></worksheet>")


def test_a_million_blank_rows_stop_after_the_blank_row_cap(monkeypatch):
    """A million empty rows (about 15 MB of XML, 2.5 MB zipped: under the upload and archive caps): reading stops at
    blank row 1001 instead of walking through them all."""
    bomb = replace_part(small_xlsx(), "xl/worksheets/sheet1.xml", sheet_with_blank_rows(1_000_000))
    assert len(bomb) < 5 * 1024 * 1024
    walked = []
    original = reading._xlsx_records

    def counting(data):
        for record in original(data):
            walked.append(1)
            yield record

    monkeypatch.setattr(reading, "_xlsx_records", counting)
    parsed = reading.parse("iscritti.xlsx", bomb)
    assert parsed.errors == ["Il file ha più di 1000 righe vuote: togli le righe vuote e caricalo di nuovo. "
                             "Nulla è stato importato."]
    assert len(walked) == 1 + limits.MAX_BLANK_ROWS + 1


def test_a_cell_beyond_the_cell_cap_is_refused_with_its_row():
    wb = Workbook()
    ws = wb.active
    ws.append(HEADER)
    ws.append([1, "Rossi", "Anna", "", "Verdi", "Bruno", "", "C" * 501])
    out = io.BytesIO()
    wb.save(out)
    parsed = reading.parse("iscritti.xlsx", out.getvalue())
    assert parsed.errors == ["Riga 2: una cella ha 501 caratteri (al massimo 500). Nulla è stato importato."]


def test_too_many_archive_parts_are_refused():
    data = small_xlsx()
    for k in range(limits.XLSX_MAX_MEMBERS):
        data = replace_part(data, f"extra/{k}.xml", b"x") if k % 50 == 0 else data
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info.filename, src.read(info.filename))
        for k in range(limits.XLSX_MAX_MEMBERS):
            dst.writestr(f"extra/more{k}.xml", b"")
    parsed = reading.parse("iscritti.xlsx", out.getvalue())
    assert "si espande oltre" in parsed.errors[0]


def test_the_confirmation_imports_the_preview_rows_without_parsing_again(arbiter_client, tournament, monkeypatch):
    url = reverse("import", args=[tournament.slug])
    upload = io.BytesIO(small_xlsx(3))
    upload.name = "iscritti.xlsx"
    resp = arbiter_client.post(url, {"file": upload})
    assert resp.status_code == 200 and "3 coppie pronte" in resp.content.decode()

    def never(*args, **kwargs):
        raise AssertionError("the file was parsed again")

    monkeypatch.setattr(reading, "parse", never)
    monkeypatch.setattr(reading, "read_records", never)
    resp = arbiter_client.post(url, {"confirm": "1"})
    assert resp.status_code == 302
    assert sorted(Pair.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1, 2, 3]


def test_the_confirmation_refuses_a_number_entered_by_hand_after_the_preview(arbiter_client, tournament):
    from tournaments import services

    url = reverse("import", args=[tournament.slug])
    upload = io.BytesIO(small_xlsx(2))
    upload.name = "iscritti.xlsx"
    arbiter_client.post(url, {"file": upload})
    services.add_pair(tournament=tournament, number=2, players=[
        services.PlayerData("Mario", "Bianchi"), services.PlayerData("Luca", "Neri")], by=None)
    resp = arbiter_client.post(url, {"confirm": "1"})
    assert resp.status_code == 200
    assert "Riga 3: il numero 2 è stato usato nel torneo dopo l'anteprima." in html.unescape(resp.content.decode())
    assert Pair.objects.filter(tournament=tournament).count() == 1
