"""A resting pair is shown in its own line's column (rules.md §5, §6).

5 pairs, round 1 by Mitchell: T = 3 tables, the phantom at table 3 N/S, so pair 5 sits E/W
at table 3 and rests. Every list of the round (round page, live board, printed table list,
public page, projector) puts pair 5 under E/O, "Riposo" where the N/S pair would be.
"""
from __future__ import annotations

import re
import subprocess

from django.urls import reverse

from tournaments.printing import documents


def _row(html: str, start: str) -> str:
    return html.split(start, 1)[1].split("</tr>", 1)[0]


def _cells(row: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def test_round_page_rest_row_puts_the_e_w_pair_under_e_w(arbiter_client, published):
    page = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    cells = _cells(_row(page, '<tr id="table-3"'))
    assert cells[1] == "Riposo" and cells[2].startswith("5") and "Rossi5 – Verdi5" in cells[2]


def test_printed_table_list_puts_the_e_w_pair_under_e_w(published):
    doc = documents.round_document(published, qr=False)
    rest = [t for t in doc.tables if t.bye]
    assert [(t.number, t.ns.number, t.resting_line) for t in rest] == [(3, 5, "ew")]
    html = documents.tablelist_html(doc, qr=False)
    cells = _cells(_row(html, '<tr class="rest">'))
    assert cells[:4] == ["3", "Riposo", "5", "Rossi5 Anna5 – Verdi5 Bruno5"]
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=documents.tablelist_pdf(doc, qr=False),
                          capture_output=True, check=True).stdout.decode()
    line = next(ln for ln in text.splitlines() if "Riposo" in ln and "Rossi5" in ln)
    assert line.index("Riposo") < line.index("Rossi5")  # the pair to the right, in the E/O column


def test_public_page_names_the_resting_e_w_pair(client, published):
    tournament = published.tournament
    tournament.public_enabled = True
    tournament.save()
    response = client.get(reverse("public", args=["prova"]))
    assert response.status_code == 200
    cells = _cells(_row(response.content.decode(), '<td class="num"><b>3</b></td>'))
    assert cells[0] == "Riposo" and cells[1].startswith("5")
