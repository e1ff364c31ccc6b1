"""The print pack's click in the background (``printpack.click``, the server's setting): the
request reads nothing of the round (one indexed row), answers with a ticket, and the
ticket's progress page, status and PDF are those of the pack's job, which a thread of the
server reads and renders.

Pages by hand (tests/documents/test_print_pack.py's docstring): 8 pairs, round 1 closed →
4 score sheets → 2 + 4 + 1 = 7 pages.

The click's thread reads the database on its own connection: these tests commit their data
(``transactional_db``).
"""
from __future__ import annotations

import io
import threading
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from tournaments.printing import pack as printpack

pytestmark = pytest.mark.usefixtures("transactional_db")


@pytest.fixture(autouse=True)
def _click_threads_end(transactional_db):
    """The click's thread reads the database: the test's data is flushed (``transactional_db``,
    torn down after this fixture) only once every such thread has ended."""
    yield
    for thread in threading.enumerate():
        if thread.name.startswith("print-"):
            thread.join(timeout=60)


@pytest.fixture
def background(settings, monkeypatch):
    settings.ARBITRO_PRINT_BACKGROUND = True
    monkeypatch.setenv("ARBITRO_PUBLIC_URL", "http://192.168.1.20:8000")


def _key(location: str) -> str:
    return location.rstrip("/").removesuffix(".pdf").rsplit("/", 1)[-1]


def _wait_until_not_running(key: str) -> dict:
    for _ in range(1500):  # the thread renders the pack (7 pages, no worker process)
        state = printpack.status(key)
        if state and state["state"] != "running":
            return state
        time.sleep(0.02)
    raise AssertionError(f"the pack of {key} still running")


def test_the_click_reads_no_table_of_the_round(arbiter_client, played, background, monkeypatch):
    # the pack is read and rendered by the click's thread, not the request: not started here
    monkeypatch.setattr(printpack, "_prepare_and_follow", lambda *args: None)
    url = reverse("print_pack_start", args=[played.slug, 1])
    with CaptureQueriesContext(connection) as queries:
        response = arbiter_client.post(url)
    assert response.status_code == 302
    read = " ".join(q["sql"] for q in queries.captured_queries)
    for table in ("tournaments_table", "tournaments_seat", "tournaments_scoresheet", "tournaments_pair"):
        assert table not in read
    # the session, the user, the tournament (arbiter_view), the round, its last audit entry
    assert len(queries.captured_queries) <= 5


def test_the_ticket_follows_the_job_to_its_pdf(arbiter_client, played, background):
    url = reverse("print_pack_start", args=[played.slug, 1])
    first = arbiter_client.post(url)
    ticket = _key(first["Location"])
    assert first["Location"] == reverse("print_pack", args=[played.slug, 1, ticket])
    assert arbiter_client.post(url)["Location"] == first["Location"]  # nothing written: the same job
    state = _wait_until_not_running(ticket)
    assert state["state"] == "done" and state["pages"] == 7
    status = arbiter_client.get(reverse("print_pack_status", args=[played.slug, 1, ticket])).json()
    assert status == {"state": "done", "done": state["total"], "total": state["total"], "sheets": 4, "pages": 7}
    again = arbiter_client.post(url)  # printed before: straight to the PDF
    assert again["Location"] == reverse("print_pack_pdf", args=[played.slug, 1, ticket])
    pdf = arbiter_client.get(again["Location"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(b"".join(pdf.streaming_content))).pages) == 7
    # the pack's own job is the one a read in the request finds (same content, same key)
    own = printpack.prepare(played.rounds.get(number=1))
    assert printpack.status(own.key)["state"] == "done"


def test_a_failed_pack_fails_its_ticket(arbiter_client, played, background, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("database gone")

    monkeypatch.setattr(printpack, "prepare", broken)
    first = arbiter_client.post(reverse("print_pack_start", args=[played.slug, 1]))
    state = _wait_until_not_running(_key(first["Location"]))
    assert state["state"] == "failed" and "database gone" in state["error"]
    page = arbiter_client.get(first["Location"]).content.decode()
    assert 'id="pack-failed" class' in page and 'id="pack-restart"' in page
