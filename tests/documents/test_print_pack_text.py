"""The print pack's PDF keeps its text and its QR codes whatever renders it (docs/speed.md, the print pack).

The fixture ``tests/data/print-pack-text.json`` was written from the pack renderer of
``main`` before the score sheets were stamped from one rendered form: for a deterministic
29-pair tournament (14 playing tables and a rest, rules.md §6), the pack of round 1 closed
(every sheet filled and confirmed) and of round 2 in play (three sheets entered, the others
blank), it holds every page's text as pypdf extracts it, by line, and the links its QR codes carry.

Compared here:
- per page, its text line by line at the same height (:func:`text_lines`): names, table and
  pair numbers, PINs, hands, totals, VP and the URLs printed under the QR codes; the order
  in which the page draws them is not compared (the stamped sheets draw the form first,
  then the values);
- per page, the links of its QR codes: each image is read module by module (1-bit PNG,
  4 pixels a module, a 2-module border: ``links.qr_png_uri``) and matched with segno's
  code of every link the round prints (captains, players' pages, PIN page, players'
  search), i.e. decoded for the one encoder the app uses.

``ARBITRO_PRINT_PACK_COPY=<folder>`` keeps the two PDFs there, to look at them. Regenerate (only from a renderer known to be right): ``ARBITRO_WRITE_PRINT_FIXTURE=1
.venv/bin/python -m pytest -q -p no:xdist tests/documents/test_print_pack_text.py``.
"""
from __future__ import annotations

import datetime
import json
import os
from pathlib import Path

import pytest

from tests.documents.helpers import PUBLIC_URL, compare_pages, read_pack
from tournaments import services
from tournaments.demo import simulation
from tournaments.models import Round, Table
from tournaments.printing import pack as printpack

DATA = Path(__file__).resolve().parents[1] / "data"
FIXTURE = DATA / "print-pack-text.json"

#: Round 2's sheets entered while it is in play: table → N/S hand scores (E/W the same minus
#: 100, 4 hands: the tournament plays 4 hands a round).
IN_PLAY_HANDS = {1: [400, 300, 200, 100], 4: [1200, -100, 600, 50], 9: [0, 0, 0, 0]}


def build(arbiter) -> tuple[Round, Round]:
    """The deterministic tournament: round 1 closed, round 2 published with three sheets
    entered. Tokens and PINs (random in the app) are set by table, so links are fixed."""
    t = simulation.simulate(registrations=DATA / "registrations-29.csv", plan="MMMD", hands=4, seed=7,
                            stop_after=1, name="Prova di stampa", slug="prova-stampa",
                            date=datetime.date(2026, 11, 30))
    t.public_enabled = True
    t.save(update_fields=["public_enabled"])
    closed = t.rounds.get(number=1)
    in_play = services.publish_round(round=t.rounds.get(number=2), by=arbiter)
    for table in Table.objects.filter(round__tournament=t):
        Table.objects.filter(pk=table.pk).update(token=f"tok{table.round.number}x{table.number:03d}",
                                                 pin=f"{(table.round.number * 1000 + table.number * 37) % 10000:04d}")
    for number, ns in IN_PLAY_HANDS.items():
        table = in_play.tables.get(number=number)
        hands = [services.HandInput(ns=a, ew=a - 100) for a in ns]
        services.save_score_sheet(table=table, hands=hands, by=arbiter)
    return closed, in_play


def render(rnd: Round) -> bytes:
    pack = printpack.prepare(rnd)
    state = printpack.start(pack, background=False)
    assert state["state"] == "done", state
    return printpack.pdf_path(pack.key).read_bytes()


@pytest.fixture
def public_url(monkeypatch):
    monkeypatch.setenv("ARBITRO_PUBLIC_URL", PUBLIC_URL)


@pytest.fixture
def rounds(db, arbiter, public_url):
    return build(arbiter)


@pytest.mark.slow  # three print packs rendered and read back, QR codes decoded
def test_pack_text_and_qr_codes_match_the_fixture(rounds):
    closed, in_play = rounds
    pdfs = {"closed": render(closed), "in_play": render(in_play)}
    if os.environ.get("ARBITRO_PRINT_PACK_COPY"):  # a folder: keep the PDFs to look at them
        for name, pdf in pdfs.items():
            (Path(os.environ["ARBITRO_PRINT_PACK_COPY"]) / f"pack-{name}.pdf").write_bytes(pdf)
    got = {"closed": read_pack(pdfs["closed"], closed), "in_play": read_pack(pdfs["in_play"], in_play)}
    if os.environ.get("ARBITRO_WRITE_PRINT_FIXTURE"):
        FIXTURE.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    want = json.loads(FIXTURE.read_text(encoding="utf-8"))
    # the fixture covers what it should: 14 sheets a round, every captain's code decoded
    assert all("?" not in p["qr"] for p in want["closed"] + want["in_play"])
    compare_pages(got["closed"], want["closed"])
    compare_pages(got["in_play"], want["in_play"])
