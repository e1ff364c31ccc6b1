"""The printed score sheet keeps the line's number apart from its names (rules.md §10).

The partnership number, printed in a box of fixed width, must not run into the players'
names ("10+13Greco Elena"). An individual tournament of 13 players by number
(rules.md §9: 1+2 v 3+4 at table 1, 5+6 v 7+8, 9+10 v 11+12, player 13 rests) gives the
five-character "11+12"; laid out with WeasyPrint, every number's box must end before its
names' box begins, on A4 and on the A5 halves.
"""
from __future__ import annotations

import weasyprint

from tests.documents.helpers import boxes_by_class, rect
from tournaments import services
from tournaments.printing import documents

from ..tournaments.individual_helpers import register


def _boxes(html: str, name: str) -> list:
    pages = weasyprint.HTML(string=html).render().pages
    return [box for page in pages for box in boxes_by_class(page, name)]


def _check(doc, a5: bool):
    html = documents.scoresheets_html(doc, a5=a5)
    numbers, names = _boxes(html, "pn"), _boxes(html, "nm")
    assert len(numbers) == len(names) == 6  # 3 tables, two lines each
    texts = []
    for pn, nm in zip(numbers, names, strict=True):
        p, n = rect(pn), rect(nm)
        assert p[2] <= n[0], (p, n)  # the number ends before the names start
        # and the number's text fits its own box
        for child in pn.descendants():
            if child is not pn and hasattr(child, "border_box_x"):
                assert rect(child)[2] <= n[0] + 0.01
        texts.append("".join(pn.element.itertext()))
    assert "11+12" in texts


def test_individual_sheet_number_does_not_run_into_the_names(indiv, arbiter):
    indiv.first_round = "number"
    indiv.save()
    register(indiv, arbiter, 13)
    rnd = services.generate_round(tournament=indiv, by=arbiter)
    doc = documents.round_document(rnd, qr=False)
    _check(doc, a5=False)
    _check(doc, a5=True)
