"""The final results for the federation (XLSX and CSV): one row per player, by hand."""
import csv
import datetime
import io

from openpyxl import load_workbook

from tests.championships.helpers import pairs_evening
from tournaments.services import update_tournament

SERRA, SANTORO = ("Serra", "Anna", "402616"), ("Santoro", "Marta", "402617")
BIANCHI, VERDI = ("Bianchi", "Carla", ""), ("=Verdi", "Dario", "402619")


def test_xlsx_and_csv_rows(arbiter_client, arbiter):
    t = pairs_evening(arbiter, "fed", datetime.date(2026, 11, 5), [(SERRA, SANTORO), (BIANCHI, VERDI)],
                      {1: 15, 2: 5})
    update_tournament(tournament=t, by=arbiter, organising_club="Circolo Burraco Roma", arbiter_name="Rossi Mario")
    head = ["Tessera", "Cognome", "Nome", "Circolo", "Posizione", "Pari merito", "Numero", "VP", "Scarto MP",
            "Partecipanti", "Torneo", "Data", "Circolo organizzatore", "Nome dell'arbitro"]
    common = ["Serata fed", "2026-11-05", "Circolo Burraco Roma", "Rossi Mario"]
    ws = load_workbook(io.BytesIO(arbiter_client.get("/tornei/fed/documenti/federazione.xlsx").content)).active
    rows = [list(r) for r in ws.values]
    assert rows[0] == head
    # arbitral scores with MP 0: MP difference 0; two entrants
    assert rows[1] == ["402616", "Serra", "Anna", None, 1, None, 1, 15, 0, 2] + common
    assert rows[3] == [None, "Bianchi", "Carla", None, 2, None, 2, 5, 0, 2] + common
    assert rows[4][1] == "=Verdi" and ws.cell(row=5, column=2).data_type == "s"  # text, never a formula
    text = arbiter_client.get("/tornei/fed/documenti/federazione.csv").content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0] == head and len(lines) == 5
    assert lines[1] == ["402616", "Serra", "Anna", "", "1", "", "1", "15", "0", "2"] + common
    assert lines[4][1] == "'=Verdi"


def test_settings_page_has_the_two_fields(arbiter_client, tournament):
    body = arbiter_client.get("/tornei/prova/impostazioni/").content.decode()
    assert 'name="organising_club"' in body and 'name="arbiter_name"' in body
