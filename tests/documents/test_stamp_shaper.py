"""The stamped values' shaper (``printing.stamp._Shaper``): a value is shaped by Pango in the
style it has on the form, as wide as WeasyPrint lays it out, and what it cannot reproduce
(a CSS text transform) is refused, so the page is laid out whole instead."""
from __future__ import annotations

import pytest
import weasyprint

from tournaments.printing import stamp

FORM = ('<!DOCTYPE html><html><head><meta charset="utf-8"><style>html { font: 9pt "DejaVu Sans"; } '
        '.up { text-transform: uppercase; }</style></head><body>'
        '<p><span class="v"><b>Rossi</b> Anna</span></p><p><span class="up v">Bianchi</span></p></body></html>')


def _slots():
    page = weasyprint.HTML(string=stamp._numbered(FORM)).render().pages[0]
    return page, stamp._slots(page._page_box, 2)


def test_a_value_is_as_wide_as_weasyprint_lays_it_out():
    page, (name, _upper) = _slots()
    runs = stamp._Shaper().value(name, "<b>Rossi</b> Anna")
    assert [r[0] == 0 for r in runs] == [True, False]  # the bold part, then the plain one after it
    assert runs[-1][0] + runs[-1][2] == pytest.approx(name.width, abs=0.01)
    assert all(b"TJ" in b"".join(ops) for _x, ops, _w in runs)
    # each run is in its own font: the bold surname, the regular name
    fonts = {op.split()[0] for _x, ops, _w in runs for op in ops if op.endswith(b"Tf")}
    assert len(fonts) == 2


def test_a_transformed_text_is_not_stamped():
    _page, (_name, upper) = _slots()
    assert stamp._Shaper().value(upper, "Bianchi") is None
