"""Print jobs: old print packs are pruned, and a click on a newer state of the same pack
supersedes the job still rendering the older one instead of rendering both at once.

Parts of the 8-pair pack below (test_print_pack.py): table list, one chunk of 4 sheets,
standings → 3 parts, 7 pages.
"""
from __future__ import annotations

import json
import os
import threading
import time

from django.urls import reverse

from tournaments.printing import pack as printpack
from tournaments.printing import worker as printworker


def _fake_pack(key: str, *, mtime: float, state: str = "done") -> None:
    folder = printpack.cache_dir()
    if state == "done":
        (folder / f"{key}.pdf").write_bytes(b"%PDF-1.7 fake")
    (folder / f"{key}.json").write_text(json.dumps({"state": state, "done": 1, "total": 1,
                                                    "updated": time.time()}))
    (folder / f"{key}.lock").touch()
    for path in folder.glob(f"{key}.*"):
        os.utime(path, (mtime, mtime))


def _key(tournament: int, round_number: int, n: int) -> str:
    return f"t{tournament}-r{round_number}-a4-{n:024x}"


def test_prune_keeps_the_newest_packs_of_the_tournament_and_running_jobs(settings):
    now = time.time()
    keys = [_key(7, 1, n) for n in range(5)]  # n = 0 oldest … 4 newest
    for n, key in enumerate(keys):
        _fake_pack(key, mtime=now - 1000 + 100 * n)
    running = _key(7, 2, 9)
    _fake_pack(running, mtime=now - 5000, state="running")  # old file time, but fresh status
    other = _key(8, 1, 1)
    _fake_pack(other, mtime=now - 9000)  # another tournament: not ours to prune
    removed = printpack.prune(7, keep=2)
    assert sorted(removed) == sorted(keys[:3])
    left = {p.name.split(".")[0] for p in printpack.cache_dir().iterdir()}
    assert left == {keys[3], keys[4], running, other}
    assert not list(printpack.cache_dir().glob(f"{keys[0]}.*"))  # pdf, status and lock gone


def test_a_finished_job_prunes_with_the_setting(played, settings):  # noqa: F811
    settings.ARBITRO_PRINT_KEEP = 1
    old = _key(played.id, 1, 1)
    _fake_pack(old, mtime=time.time() - 3600)
    pack = printpack.prepare(played.rounds.get(number=1))
    assert printpack.start(pack)["state"] == "done"
    assert printpack.pdf_path(pack.key).exists() and not printpack.pdf_path(old).exists()


def test_a_superseded_job_stops_after_the_part_in_progress(drafted, monkeypatch):  # noqa: F811
    """The job of the old state renders part 1; meanwhile a newer state is clicked (the
    cancel marker appears): parts 2 and 3 are never rendered, no PDF, status superseded."""
    pack = printpack.prepare(drafted.rounds.get(number=1))
    rendered = []
    real, real_list = printworker.render_timed, printworker.render_tablelist_timed

    def click_meanwhile(real):
        def render(html):
            rendered.append(html)
            printpack._cancel_path(pack.key).touch()
            return real(html)
        return render

    monkeypatch.setattr(printworker, "render_timed", click_meanwhile(real))
    # the table list (its seat finder stamped) has its own worker function
    monkeypatch.setattr(printworker, "render_tablelist_timed", click_meanwhile(real_list))
    printpack._write_status(pack.key, state="running", done=0, total=3, sheets=2)
    printpack.run(pack)
    assert len(rendered) == 1
    assert printpack.status(pack.key)["state"] == "superseded"
    assert not printpack.pdf_path(pack.key).exists()
    # clicked again later (the state came back): it renders from scratch
    monkeypatch.setattr(printworker, "render_timed", real)
    monkeypatch.setattr(printworker, "render_tablelist_timed", real_list)
    assert printpack.start(pack)["state"] == "done"


def test_a_new_state_supersedes_the_running_job_and_waits_for_it(drafted, monkeypatch):  # noqa: F811
    """An older state's job of the same round and format is running: starting the new one
    marks it cancelled and renders only once that job has stopped."""
    pack = printpack.prepare(drafted.rounds.get(number=1))
    old = pack.key.rsplit("-", 1)[0] + "-" + "0" * 24
    other_format = old.replace("-a4-", "-a5-")
    printpack._write_status(old, state="running", done=1, total=3, sheets=2)
    printpack._write_status(other_format, state="running", done=1, total=3, sheets=2)
    events = []

    def old_job_stops():  # what the old job does once it sees its cancel marker
        while not printpack._cancelled(old):
            time.sleep(0.02)
        time.sleep(0.3)
        events.append("old stopped")
        printpack._write_status(old, state="superseded", done=2, total=3, sheets=2)

    def counted(real):
        def render(html):
            events.append("new renders")
            return real(html)
        return render

    monkeypatch.setattr(printworker, "render_timed", counted(printworker.render_timed))
    # the A4 sheets' part is stamped (printing.stamp) by its own worker function
    monkeypatch.setattr(printworker, "render_sheets_timed", counted(printworker.render_sheets_timed))
    monkeypatch.setattr(printworker, "render_tablelist_timed", counted(printworker.render_tablelist_timed))
    # and so are the standings' pages
    monkeypatch.setattr(printworker, "render_standings_timed", counted(printworker.render_standings_timed))
    watcher = threading.Thread(target=old_job_stops)
    watcher.start()
    state = printpack.start(pack)
    watcher.join(5)
    assert state["state"] == "done"
    assert events[0] == "old stopped" and events[1:] == ["new renders"] * 3
    assert not printpack._cancelled(other_format)  # A5 of the same round: another pack
    assert printpack.status(other_format)["state"] == "running"


def test_the_progress_page_of_a_superseded_job_says_so(arbiter_client, drafted):  # noqa: F811
    pack = printpack.prepare(drafted.rounds.get(number=1))
    printpack._write_status(pack.key, state="superseded", done=1, total=3, sheets=2)
    page = arbiter_client.get(reverse("print_pack", args=[drafted.slug, 1, pack.key])).content.decode()
    assert '<p id="pack-superseded" class="msg">Sostituita da una stampa più recente' in page
    assert 'id="pack-failed" class="msg error" hidden' in page
    status = arbiter_client.get(reverse("print_pack_status", args=[drafted.slug, 1, pack.key])).json()
    assert status["state"] == "superseded"
