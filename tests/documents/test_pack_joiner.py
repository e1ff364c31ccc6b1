"""The print pack's parts are joined in print order as they arrive (``pack.Joiner``): a part
that finished before the ones printed ahead of it waits for them, and the file holds every
page in print order (rules.md §10: table list, score sheets, standings)."""
from __future__ import annotations

import io

import weasyprint
from pypdf import PdfReader

from tournaments.printing import pack as printpack


def _pdf(*texts: str) -> bytes:
    body = "".join(f'<p style="break-before: page">{t}</p>' for t in texts)
    return weasyprint.HTML(string=f"<html><body>{body}</body></html>").write_pdf()


def test_parts_are_joined_in_print_order_as_they_arrive(tmp_path):
    table_list = (_pdf("tabellone"), _pdf("dove siedo"))  # pages by table, then the seat finder
    sheets, standings = _pdf("score 1", "score 2"), _pdf("classifica")
    joiner = printpack.Joiner()
    results = [None, None, (standings, 0.1)]  # the standings finish first
    joiner.add_ready(results)
    assert joiner.joined == 0 and len(joiner.writer.pages) == 0
    results[0] = (table_list, 0.2)
    joiner.add_ready(results)
    assert joiner.joined == 1 and len(joiner.writer.pages) == 2
    results[1] = (sheets, 0.3)
    joiner.add_ready(results)
    assert joiner.writer is not None and joiner.joined == 3
    target = tmp_path / "pack.pdf"
    assert joiner.write(target) == 5
    pages = [p.extract_text().strip() for p in PdfReader(io.BytesIO(target.read_bytes())).pages]
    assert pages == ["tabellone", "dove siedo", "score 1", "score 2", "classifica"]
    assert not list(tmp_path.glob("*.part"))  # written atomically
