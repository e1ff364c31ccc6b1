"""The round's print pack: table list + every score sheet + standings in one PDF,
rendered once per state of what it shows, with a progress status on disk.

Hand counts used below (rules.md §6, Mitchell by pair number):
- the table list prints "by table" on one page and "where do I sit" (every player by
  surname) from a new page: 2 pages for these small rounds; the standings fit one page;
- 8 pairs → 4 tables, no rest: 4 score sheets → 2 + 4 + 1 = 7 pages; with A5 sheets two to
  a page, 4 sheets → 2 pages → 2 + 2 + 1 = 5 pages;
- 5 pairs → 3 tables, table 3 a rest: 2 score sheets → 2 + 2 + 1 = 5 pages; A5: 2 + 1 + 1 = 4.
"""
from __future__ import annotations

import io
import json
import time

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from tests.documents.helpers import E_W_HANDS
from tournaments import services
from tournaments.models import Round
from tournaments.printing import pack as printpack


def pages_of(path) -> int:
    return len(PdfReader(str(path)).pages)


def _round(t, n=1) -> Round:
    return t.rounds.get(number=n)


def _pack(t, **kw) -> printpack.Pack:
    return printpack.prepare(_round(t), **kw)


def _enter_table_1(t, arbiter):
    table = _round(t).tables.get(number=1)
    hands = [services.HandInput(ns=a, ew=b) for a, b in zip([400, 300, 200, 100], E_W_HANDS, strict=True)]
    services.save_score_sheet(table=table, hands=hands, by=arbiter)


# --------------------------------------------------------------------------- key and cache


def test_same_state_same_key_and_cache_hit(drafted, monkeypatch):
    first = _pack(drafted)
    assert printpack.start(first)["state"] == "done"
    again = _pack(drafted)
    assert again.key == first.key

    def must_not_render(pack):
        raise AssertionError("rendered again although nothing changed")

    monkeypatch.setattr(printpack, "run", must_not_render)
    assert printpack.start(again)["state"] == "done"


def test_a_sheet_entered_gives_a_new_key(drafted, arbiter):
    before = _pack(drafted).key
    _enter_table_1(drafted, arbiter)
    assert _pack(drafted).key != before


def test_a_renamed_pair_gives_a_new_key(drafted, arbiter):
    before = _pack(drafted).key
    pair = drafted.pairs.get(number=1)
    services.update_pair(pair=pair, by=arbiter, players=[
        services.PlayerData(first_name="Anna1", last_name="Rossini1", membership_number="A1"),
        services.PlayerData(first_name="Bruno1", last_name="Verdi1", membership_number="B1"),
    ])
    assert _pack(drafted).key != before


def test_language_public_address_and_format_are_in_the_key(drafted, monkeypatch):
    monkeypatch.setenv("ARBITRO_PUBLIC_URL", "http://192.168.1.20:8000")
    base = _pack(drafted).key
    with translation.override("en"):
        assert _pack(drafted).key != base
    assert _pack(drafted, a5=True).key != base
    monkeypatch.setenv("ARBITRO_PUBLIC_URL", "http://10.0.0.5:8000")
    assert _pack(drafted).key != base
    monkeypatch.setenv("ARBITRO_PUBLIC_URL", "http://192.168.1.20:8000")
    assert _pack(drafted).key == base


def test_key_shape_and_ownership(drafted):
    key = _pack(drafted).key
    assert printpack.valid_key(key, drafted.id)
    assert not printpack.valid_key(key, drafted.id + 1)
    assert not printpack.valid_key("../../etc/passwd")
    with pytest.raises(ValueError):
        printpack.pdf_path("t1-r1-a4-../x")


# --------------------------------------------------------------------------- job


def test_status_progresses_to_done(played, monkeypatch):
    seen = []
    real = printpack._write_status

    def spy(key, **values):
        seen.append((values["state"], values["done"], values["total"]))
        return real(key, **values)

    monkeypatch.setattr(printpack, "_write_status", spy)
    pack = _pack(played)
    state = printpack.start(pack)
    # parts: table list, one chunk of 4 sheets (CHUNK = 25), standings → 3
    assert seen[0] == ("running", 0, 3)
    assert [s[1] for s in seen[1:4]] == [1, 2, 3]
    assert seen[-1] == ("done", 3, 3)
    assert state["state"] == "done" and state["pages"] == 7
    assert json.loads((printpack.cache_dir() / f"{pack.key}.json").read_text())["state"] == "done"


def test_pack_joins_table_list_sheets_and_standings(played):
    pack = _pack(played)
    printpack.start(pack)
    path = printpack.pdf_path(pack.key)
    assert pages_of(path) == 7  # 2 table list + 4 sheets + 1 standings (module docstring)
    text = [p.extract_text() for p in PdfReader(str(path)).pages]
    assert "Tabellone del turno 1" in text[0] and "dove siedo" in text[1]
    assert [f"Tavolo {n}" in t for n, t in zip(range(1, 5), text[2:6], strict=True)] == [True] * 4
    assert "Classifica" in text[6]


def test_a5_halves_the_sheet_pages(played):
    pack = _pack(played, a5=True)
    printpack.start(pack)
    reader = PdfReader(str(printpack.pdf_path(pack.key)))
    assert len(reader.pages) == 5  # 2 + 4 sheets / 2 + 1
    box = reader.pages[2].mediabox
    assert float(box.width) > float(box.height)  # A4 landscape: two A5 halves side by side
    assert abs(float(box.width) - 841.9) < 1 and abs(float(box.height) - 595.3) < 1


def test_a5_odd_sheet_count(drafted):
    """5 pairs: 2 sheets → one A4 page; A4 format 2 pages (module docstring)."""
    a4, a5 = _pack(drafted), _pack(drafted, a5=True)
    printpack.start(a4)
    printpack.start(a5)
    assert pages_of(printpack.pdf_path(a4.key)) == 5
    assert pages_of(printpack.pdf_path(a5.key)) == 4


def test_worker_processes_render_the_same_pack(played, settings):
    settings.ARBITRO_PRINT_WORKERS = 2
    pack = _pack(played)
    assert not pack.in_play and printpack.workers_for(pack) == 2
    assert printpack.start(pack)["state"] == "done"
    assert pages_of(printpack.pdf_path(pack.key)) == 7


def test_one_worker_while_the_round_is_in_play(drafted, settings):
    settings.ARBITRO_PRINT_WORKERS = 2
    pack = _pack(drafted)
    assert pack.in_play and printpack.workers_for(pack) == 1


def test_a_running_job_is_joined_not_started_again(drafted, monkeypatch):
    pack = _pack(drafted)
    calls = []
    monkeypatch.setattr(printpack, "run", lambda p, after=(): calls.append(p.key))
    first = printpack.start(pack)
    second = printpack.start(_pack(drafted))
    assert calls == [pack.key]
    assert first["state"] == second["state"] == "running"


def test_a_stale_or_failed_job_is_restarted(drafted):
    pack = _pack(drafted)
    printpack._write_status(pack.key, state="running", done=1, total=3, sheets=2)
    status_file = printpack.cache_dir() / f"{pack.key}.json"
    old = json.loads(status_file.read_text())
    old["updated"] = time.time() - printpack.STALE_SECONDS - 1  # its server stopped
    status_file.write_text(json.dumps(old))
    assert printpack.start(pack)["state"] == "done"
    printpack.pdf_path(pack.key).unlink()
    printpack._write_status(pack.key, state="failed", done=0, total=3, sheets=2, error="x")
    assert printpack.start(pack)["state"] == "done"


def test_a_render_error_is_reported_as_failed(drafted, monkeypatch):
    from tournaments.printing import worker as printworker

    def broken(html):
        raise RuntimeError("font missing")

    monkeypatch.setattr(printworker, "render_standings_timed", broken)  # the standings' part
    state = printpack.start(_pack(drafted))
    assert state["state"] == "failed" and "font missing" in state["error"]


# --------------------------------------------------------------------------- pages


def test_round_page_has_the_print_pack_button(arbiter_client, drafted):
    html = arbiter_client.get(reverse("round", args=[drafted.slug, 1])).content.decode()
    assert 'id="print-pack-start"' in html and "Stampa pacchetto" in html
    assert reverse("print_pack_start", args=[drafted.slug, 1]) in html
    assert 'name="a5"' in html


@pytest.fixture
def public_url(monkeypatch):
    """The phones' address, so a pack prepared here and one prepared by a view agree."""
    monkeypatch.setenv("ARBITRO_PUBLIC_URL", "http://192.168.1.20:8000")


def test_click_then_download(arbiter_client, played, public_url):
    url = reverse("print_pack_start", args=[played.slug, 1])
    response = arbiter_client.post(url)
    key = _pack(played).key
    assert response.status_code == 302
    assert response["Location"] == reverse("print_pack_pdf", args=[played.slug, 1, key])
    pdf = arbiter_client.get(response["Location"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(b"".join(pdf.streaming_content))).pages) == 7
    status = arbiter_client.get(reverse("print_pack_status", args=[played.slug, 1, key])).json()
    assert status["state"] == "done" and status["pages"] == 7


def test_progress_page_while_running(transactional_db, arbiter_client, drafted, settings, monkeypatch):
    """In the background the click's thread reads the round (``printpack.click``): the
    database is committed for it (``transactional_db``)."""
    settings.ARBITRO_PRINT_BACKGROUND = True
    started = []
    monkeypatch.setattr(printpack, "run", lambda p, after=(): started.append(p.key))
    url = reverse("print_pack_start", args=[drafted.slug, 1])
    first = arbiter_client.post(url, {"a5": "1"})
    second = arbiter_client.post(url, {"a5": "1"})  # two clicks → one job
    for _ in range(500):
        if started:
            break
        time.sleep(0.02)
    assert first["Location"] == second["Location"]
    assert len(started) == 1 and "-a5-" in started[0]
    page = arbiter_client.get(first["Location"]).content.decode()
    assert 'id="pack-progress"' in page and "js/printpack.js" in page and "<script>" not in page
    key = started[0]
    status = arbiter_client.get(reverse("print_pack_status", args=[drafted.slug, 1, key])).json()
    assert status == {"state": "running", "done": 0, "total": 3, "sheets": 2}
    assert arbiter_client.get(reverse("print_pack_pdf", args=[drafted.slug, 1, key])).status_code == 404


def test_print_pack_needs_login_and_ownership(client, arbiter_client, played, django_user_model, public_url):
    arbiter_client.post(reverse("print_pack_start", args=[played.slug, 1]))
    key = _pack(played).key
    assert arbiter_client.get(reverse("print_pack_pdf", args=[played.slug, 1, key])).status_code == 200
    urls = [reverse("print_pack", args=[played.slug, 1, key]),
            reverse("print_pack_status", args=[played.slug, 1, key]),
            reverse("print_pack_pdf", args=[played.slug, 1, key])]
    arbiter_client.logout()
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "login" in response["Location"]
    assert client.post(reverse("print_pack_start", args=[played.slug, 1])).status_code == 302
    other = django_user_model.objects.create_user(username="altro", password="segreta-456")
    client.force_login(other)
    for url in urls:
        assert client.get(url).status_code == 404  # another arbiter's tournament
    assert client.post(reverse("print_pack_start", args=[played.slug, 1])).status_code == 404


def test_a_key_of_another_round_or_a_bad_key_is_404(arbiter_client, played):
    key = _pack(played).key
    printpack.start(_pack(played))
    assert arbiter_client.get(reverse("print_pack_pdf", args=[played.slug, 2, key])).status_code == 404
    assert arbiter_client.get(reverse("print_pack_status", args=[played.slug, 1, "t1-r1-a4-zz"])).status_code == 404


def test_a5_html_pairs_sheets_with_a_cut_line(played):
    """4 sheets → 2 A4 pages of two halves each; the second half carries the cut mark."""
    from tournaments.printing import documents

    html = documents.scoresheets_html(documents.round_document(_round(played), qr=False), a5=True)
    assert html.count('<div class="pg">') == 2 and html.count('class="sheet"') == 4
    assert html.count('class="cut"') == 2
    assert "size: A4 landscape" in html
    a4 = documents.scoresheets_html(documents.round_document(_round(played), qr=False))
    assert 'class="pg"' not in a4 and "landscape" not in a4
