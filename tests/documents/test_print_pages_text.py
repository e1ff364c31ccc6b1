"""The table list's pages by table and the standings keep their text over several pages,
whatever renders them (docs/speed.md, the print pack).

``tests/documents/test_print_pack_text.py`` prints 29 pairs: one page of standings, one and a
bit of the table list. Here 77 pairs (38 playing tables and a rest, rules.md §6) make the
pages by table run over three pages with the captains' QR codes (and two without) and the
standings over two pages, with what changes a row: a pair whose names wrap onto a second
line, a withdrawn pair (rules.md §5, art. 32), a VP and an MP penalty listed under the table,
and the same pages with pair 20's names short (every row on one line). The fixture ``tests/data/print-pages-text.json`` was written
from the renderer that laid these pages out whole with WeasyPrint (commit a23d669); compared
per page: the text line by line at the same height (``helpers.text_lines``) and the links of
the QR codes (``test_print_pack_text.read_pack``).

``ARBITRO_PRINT_PACK_COPY=<folder>`` keeps the PDFs there. Regenerate (only from a renderer
known to be right): ``ARBITRO_WRITE_PRINT_FIXTURE=1 .venv/bin/python -m pytest -q -p no:xdist
tests/documents/test_print_pages_text.py``.
"""
from __future__ import annotations

import dataclasses
import datetime
import json
import os
from pathlib import Path

import pytest

from tests.documents.helpers import PUBLIC_URL, compare_pages, read_pack
from tournaments import services
from tournaments.demo import simulation
from tournaments.models import Pair, Table
from tournaments.printing import documents
from tournaments.printing import pack as printpack

DATA = Path(__file__).resolve().parents[1] / "data"
FIXTURE = DATA / "print-pages-text.json"
PAIRS = 77
#: Pair 20's names: long enough to wrap in the table list's and the standings' name columns.
LONG = ("Dell'Acqua Bartolomeo-Fiorentini", "Massimiliano Gianfranco", "Santangelo Buonarroti", "Maria Antonietta")


def _registrations(folder: Path) -> Path:
    last = ["Rossi", "Bianchi", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno",
            "Gallo", "Conti", "De Luca", "Mancini", "Costa", "Giordano", "Rizzo", "Lombardi", "Moretti"]
    first = ["Anna", "Marco", "Giulia", "Luca", "Sara", "Paolo", "Elena", "Giorgio", "Chiara", "Franco"]
    lines = ["coppia,cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2,circolo"]
    for k in range(1, PAIRS + 1):
        names = (last[k % len(last)], first[k % len(first)], last[(3 * k + 5) % len(last)],
                 first[(7 * k + 1) % len(first)])
        if k == 20:
            names = LONG
        lines.append(f"{k},{names[0]},{names[1]},{300000 + 2 * k},{names[2]},{names[3]},{300001 + 2 * k},"
                     "Circolo del Ponte")
    path = folder / "registrations-77.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def played(db, arbiter, monkeypatch, tmp_path):
    """Round 1 closed, round 2 published; pair 12 withdrawn from round 2, pairs 5 and 9
    penalised; tokens and PINs (random in the app) set by table, so the links are fixed."""
    monkeypatch.setenv("ARBITRO_PUBLIC_URL", PUBLIC_URL)
    t = simulation.simulate(registrations=_registrations(tmp_path), plan="MM", hands=4, seed=11,
                            stop_after=1, name="Prova di stampa lunga", slug="prova-stampa-lunga",
                            date=datetime.date(2026, 12, 3))
    t.public_enabled = True
    t.save(update_fields=["public_enabled"])
    in_play = services.publish_round(round=t.rounds.get(number=2), by=arbiter)
    services.add_penalty(reason="Ritardo", by=arbiter, pair=Pair.objects.get(tournament=t, number=5), vp=1,
                         round_number=1)
    services.add_penalty(reason="Cellulare", by=arbiter, pair=Pair.objects.get(tournament=t, number=9), mp=100,
                         round_number=1)
    services.withdraw_pair(pair=Pair.objects.get(tournament=t, number=12), from_round=2, by=arbiter)
    for table in Table.objects.filter(round__tournament=t):
        Table.objects.filter(pk=table.pk).update(token=f"tok{table.round.number}x{table.number:03d}",
                                                 pin=f"{(table.round.number * 1000 + table.number * 37) % 10000:04d}")
    return t, in_play


def _short(in_play, t):
    """The round's and the standings' documents with pair 20's players renamed short, so
    every row of every page takes one line."""
    people = (("Neri", "Ugo"), ("Verdi", "Ida"))
    doc = documents.round_document(in_play, qr=False)
    tables = tuple(
        dataclasses.replace(
            table,
            ns=dataclasses.replace(table.ns, people=people) if table.ns and table.ns.number == 20 else table.ns,
            ew=dataclasses.replace(table.ew, people=people) if table.ew and table.ew.number == 20 else table.ew)
        for table in doc.tables)
    standings = documents.standings_document(t, after_round=1)
    rows = tuple(dataclasses.replace(r, players=("Neri Ugo", "Verdi Ida")) if r.pair == 20 else r
                 for r in standings.rows)
    return dataclasses.replace(doc, tables=tables), dataclasses.replace(standings, rows=rows)


def _render(pack) -> bytes:
    state = printpack.start(pack, background=False)
    assert state["state"] == "done", state
    return printpack.pdf_path(pack.key).read_bytes()


@pytest.mark.slow  # 77 pairs' pages rendered whole and stamped, compared page by page
def test_pages_by_table_and_standings_match_the_fixture(played):
    t, in_play = played
    round_doc, standings_doc = _short(in_play, t)
    pdfs = {
        "tablelist": _render(printpack.prepare_document("tablelist", rnd=in_play)),
        "tablelist_noqr": _render(printpack.prepare_document("tablelist", rnd=in_play, qr=False)),
        "standings": _render(printpack.prepare_document("standings", tournament=t, after_round=1)),
        "tablelist_short": _render(printpack.prepare_document("tablelist", rnd=in_play, round_doc=round_doc)),
        "standings_short": _render(printpack.prepare_document("standings", tournament=t, after_round=1,
                                                              standings_doc=standings_doc)),
    }
    if os.environ.get("ARBITRO_PRINT_PACK_COPY"):
        for name, pdf in pdfs.items():
            (Path(os.environ["ARBITRO_PRINT_PACK_COPY"]) / f"pages-{name}.pdf").write_bytes(pdf)
    got = {name: read_pack(pdf, in_play) for name, pdf in pdfs.items()}
    if os.environ.get("ARBITRO_WRITE_PRINT_FIXTURE"):
        FIXTURE.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    want = json.loads(FIXTURE.read_text(encoding="utf-8"))
    # the fixture covers what it should: several pages by table and of standings, the long
    # names wrapped, the withdrawn pair, the penalties and the ties' legend
    table_pages = [p for p in want["tablelist"] if "Linea N/S" in p["text"]]
    assert len(table_pages) >= 3 and all("?" not in p["qr"] for p in table_pages)
    assert sum(len(p["qr"]) for p in table_pages) == 37 + 1  # 37 playing tables (one forced rest): the captains' and the players' search
    standings = "".join(p["text"] for p in want["standings"])
    assert len(want["standings"]) >= 2
    assert "Ritardo" in standings and "Cellulare" in standings
    assert "Santangelo" in standings and "(ritirata)" in standings.replace("\n", " ")
    assert not any("Santangelo" in p["text"] for p in want["tablelist_short"] + want["standings_short"])
    for name in pdfs:
        compare_pages(got[name], want[name])
