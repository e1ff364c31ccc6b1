"""A print job whose server was killed (``kill -9``) says it stopped and offers «Prepara di
nuovo» instead of «Preparazione in corso 1/5» for ever; the print workers and their forkserver
die with the server, on SIGTERM and on ``kill -9`` (docs/security.md, "Faults")."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.urls import reverse

from tournaments.printing import pack as printpack

ROOT = Path(__file__).resolve().parents[2]


def _dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _killed_job(t, request=None) -> printpack.Pack:
    """The pack of round 1 with the status a job leaves when its server is killed at part 1/5."""
    pack = printpack.prepare(t.rounds.get(number=1), request=request)
    printpack._write_status(pack.key, state="running", done=1, total=5, sheets=2)
    path = printpack.cache_dir() / f"{pack.key}.json"
    current = json.loads(path.read_text())
    current["pid"] = _dead_pid()
    path.write_text(json.dumps(current))
    return pack


def test_job_of_a_dead_server_is_stopped_at_once(drafted):
    pack = _killed_job(drafted)
    assert printpack.status(pack.key)["state"] == "stopped"


def test_job_of_a_live_server_keeps_running(drafted):
    pack = printpack.prepare(drafted.rounds.get(number=1))
    printpack._write_status(pack.key, state="running", done=1, total=5, sheets=2)
    assert printpack.status(pack.key)["state"] == "running"


def test_stale_job_without_a_pid_is_stopped_after_the_stale_time(drafted):
    pack = printpack.prepare(drafted.rounds.get(number=1))
    path = printpack.cache_dir() / f"{pack.key}.json"
    path.write_text(json.dumps({"state": "running", "done": 1, "total": 5,
                                "updated": time.time() - printpack.STALE_SECONDS - 1}))
    assert printpack.status(pack.key)["state"] == "stopped"


def test_the_page_says_it_stopped_and_prepare_again_restarts_it(arbiter_client, drafted, rf):
    pack = _killed_job(drafted, request=rf.get("/"))
    page = arbiter_client.get(reverse("print_pack", args=["prova", 1, pack.key]))
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="pack-stopped" class="msg error">' in html  # shown, not hidden
    assert 'id="pack-running" hidden' in html
    assert '<button id="pack-restart">' in html  # «Prepara di nuovo» visible
    state = arbiter_client.get(reverse("print_pack_status", args=["prova", 1, pack.key])).json()
    assert state["state"] == "stopped" and state["done"] == 1
    response = arbiter_client.post(reverse("print_pack_start", args=["prova", 1]))
    assert response.status_code == 302 and pack.key in response["Location"]
    assert printpack.status(pack.key)["state"] == "done"  # rendered again (in the test: at once)


# --------------------------------------------------------------------------- processes

SERVER = """
import os, sys, time
import django
django.setup()
from concurrent.futures import ProcessPoolExecutor
from tournaments.printing import pack as printpack, worker as printworker
pool = ProcessPoolExecutor(max_workers=1, mp_context=printpack._context(), initializer=printworker.start_worker)
pool.submit(time.sleep, 120)
time.sleep(0.5)
from multiprocessing import forkserver
print(forkserver._forkserver._forkserver_pid, *pool._processes, flush=True)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True


def _wait_gone(pids: list[int], seconds: float = 20) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = [p for p in pids if _alive(p)]
        if not alive:
            return []
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forkserver and /proc: Linux")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "kill -9"])
def test_print_workers_and_forkserver_die_with_the_server(how):
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings")
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        pids = [int(p) for p in line.split()]
        assert len(pids) == 2, line  # the forkserver and one worker
        assert all(_alive(p) for p in pids)
        server.send_signal(how)
        server.wait(timeout=20)
        assert _wait_gone(pids) == []
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
