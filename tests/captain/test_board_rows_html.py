"""The live board's rows written in Python (``tournaments.views.board_table``): the same
bytes the template's row loop wrote (``tests/data/board_rows_loop.html``, the loop as it
was), and each reader's own CSRF token in the forms of rows shared by every request of a
round version."""
import datetime
import itertools
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import engines
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.captain.helpers import captain_post, captain_save
from tournaments.models import ScoreSheet
from tournaments.views import board_table

LOOP = Path(__file__).resolve().parents[1] / "data" / "board_rows_loop.html"


def _rows() -> list[dict]:
    """Rows in every state, with and without each mark, escaped text in names and addresses."""
    rows, number = [], 0
    when = datetime.datetime(2026, 12, 3, 17, 5, tzinfo=datetime.timezone.utc)
    for state, pin, late, extra, can_validate, marks in itertools.product(
            ["bye", "empty", "entered", "confirmed", "disputed", "validated"], [False, True], [False, True],
            [0, 3], [False, True], [0, 1, 2]):
        number += 1
        row = {"number": number, "ns": {"display_number": "12", "name": "Rossi & <Bianchi> 'D'Amico'"},
               "ew": None if state == "bye" else {"display_number": 7, "name": "Verdi"},
               "bye": "Riposo" if state == "bye" else "", "pin_locked": pin, "extra_minutes": extra, "late": late,
               "state": state, "state_label": "Inserito <ok>", "state_title": "Confermato" if marks == 1 else "",
               "sum_error": marks == 2, "sum_error_mark": marks == 2, "version": number % 4,
               "url": None if state == "bye" else f"/tornei/prova/turni/1/tavoli/{number}/?a=1&b=<2>"}
        if state not in ("bye", "empty"):
            row.update(mp=(1550, -40), vp=("14", "6,5"), entered_by="capitano N/S tavolo 1",
                       confirmed_by="capitano E/O" if marks else "", dispute_note="", updated_at=when if marks != 1 else None,
                       entered_at="inserito 3:10 prima della fine" if marks else "", can_validate=can_validate,
                       corrected=marks == 2, audit_url="/tornei/prova/registro/?round=1&table=2",
                       same_browser=marks == 1)
        rows.append(row)
    return rows


@pytest.mark.parametrize("language", ["it", "en"])
def test_written_rows_are_the_templates_bytes(language):
    rows = _rows()
    loop = engines["django"].from_string(LOOP.read_text())
    with translation.override(language):
        expected = loop.render({"rows": rows, "tournament": SimpleNamespace(slug="prova"),
                                "round": SimpleNamespace(number=1), "csrf_token": "abc123"})
        written = board_table.with_csrf_token(board_table.rows_html(rows, slug="prova", round_number=1), "abc123")
    assert "<tbody>" + written + "\n</tbody>" == expected.rstrip("\n")


def _tokens(html: str) -> set[str]:
    return set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))


def test_each_reader_gets_his_own_csrf_token_in_the_shared_rows(client, other_client, arbiter, tables):
    """Two arbiter windows (two sessions) read the same round version: the rows are written
    once, each answer's forms carry its reader's token, and a board «Valida» posted with it
    passes the CSRF check."""
    captain_save(client, tables[2])
    captain_post(other_client, "captain_confirm", tables[2], {"line": "ew", "version": 1})
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first.force_login(arbiter)
    second.force_login(arbiter)
    url = reverse("board_rows", args=["prova", 1])
    one, two = first.get(url).content.decode(), second.get(url).content.decode()
    assert board_table.CSRF_MARK not in one and board_table.CSRF_MARK not in two
    assert len(_tokens(one)) == 1 and len(_tokens(two)) == 1
    token = _tokens(two).pop()
    answer = second.post(reverse("board_validate", args=["prova", 1, 2]),
                         {"version": 2, "csrfmiddlewaretoken": token})
    assert answer.status_code == 302
    assert ScoreSheet.objects.get(table=tables[2]).state == ScoreSheet.State.VALIDATED
