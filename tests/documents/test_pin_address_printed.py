"""The PIN page's address is printed on the score sheets and the table list (the README
promises it "printed under the QR codes")."""
from tournaments.printing import documents


def test_score_sheets_and_table_list_print_the_pin_page_address(published, monkeypatch):
    """tests/conftest.py ``published``: tournament "prova", round 1 with two playing tables."""
    monkeypatch.setenv("ARBITRO_PUBLIC_URL", "http://192.168.1.10:8000")
    doc = documents.round_document(published, qr=False)
    assert doc.pin_url == "http://192.168.1.10:8000/t/prova/pin/"
    sheets = documents.scoresheets_html(doc)
    assert sheets.count("http://192.168.1.10:8000/t/prova/pin/") == 2   # one per playing table
    assert "http://192.168.1.10:8000/t/prova/pin/" in documents.tablelist_html(doc, qr=False)
