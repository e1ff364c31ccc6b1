"""Layout of the round clock's controls (polish – wording): the extra-minutes input and its
"Aggiungi" button sit in one non-wrapping box, each label names its input; the QR codes of
the captain links page scale as a whole (a viewBox), so CSS centres them in their cards.
The rendered geometry is checked in a browser by tests/e2e/test_layout_polish.py."""
import re

import pytest
from django.urls import reverse

from tests.captain.helpers import inline_problems
from tournaments.captains import links
from tournaments.models import Round


@pytest.fixture
def rnd(published):
    return Round.objects.get(pk=published.pk)


def test_add_minutes_input_and_button_share_one_no_wrap_box(arbiter_client, rnd, fake_now):
    html = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    box = re.search(r'<span class="input-button">(.*?)</span>', html, re.S).group(1)
    assert 'id="clock-add-minutes"' in box and 'id="clock-add"' in box and "Aggiungi" in box
    assert '<label for="clock-add-minutes">Minuti a tutta la sala</label>' in html
    for name in ("clock-table", "clock-table-minutes"):
        assert f'<label for="{name}">' in html
    # the box never wraps; the page's stylesheet says so
    assert re.search(r"\.clock-adjust \.input-button \{[^}]*flex-wrap:nowrap", html)
    assert inline_problems(html) == []


def test_captain_links_qr_codes_scale_whole_with_a_viewbox(arbiter_client, rnd):
    html = arbiter_client.get(reverse("captain_links", args=["prova", 1])).content.decode()
    codes = re.findall(r"<svg[^>]*>", html)
    assert len(codes) == 2   # 5 pairs: tables 1 and 2 play, pair 5 rests
    for svg in codes:
        # width = height = (modules + 2×2 border) × 3 px, and the viewBox the same square
        size = int(re.search(r'width="(\d+)"', svg).group(1))
        assert re.search(rf'viewBox="0 0 {size} {size}"', svg) and f'height="{size}"' in svg


def test_qr_svg_keeps_its_size_and_gains_a_viewbox():
    # "http://x/c/abc" fits a version-1 code: 21 modules + 2×2 border = 25; scale 3 → 75 px
    assert links.qr_svg("http://x/c/abc", 3).startswith('<svg width="75" height="75" ')
    assert 'viewBox="0 0 75 75"' in links.qr_svg("http://x/c/abc", 3)
    sizable = links.qr_svg("http://x/c/abc", 3, sizable=True)
    assert 'viewBox="0 0 75 75"' in sizable and "width=" not in sizable.split(">")[0]
