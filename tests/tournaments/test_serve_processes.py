"""``manage.py serve``: ``--processes P`` (P waitress processes on consecutive ports, behind a
reverse proxy) and ``--workers N`` (N processes sharing one port, Linux ``SO_REUSEPORT``;
two by default where the kernel spreads the connections)."""
import os
import signal
import socket
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from bench.captains import free_port
from tournaments.management.commands import serve as serve_command
from tournaments.management.commands.serve import worker_commands

ROOT = Path(__file__).resolve().parents[2]
linux_only = pytest.mark.skipif(not serve_command.shared_port_supported(), reason="SO_REUSEPORT spreads only on Linux")


def test_worker_commands_use_consecutive_ports_and_the_same_options():
    commands = worker_commands(host="127.0.0.1", port=8001, processes=3, threads=8, connection_limit=500)
    assert [c[c.index("--port") + 1] for c in commands] == ["8001", "8002", "8003"]
    for command in commands:
        assert command[0] == sys.executable
        assert command[1].endswith("manage.py") and command[2] == "serve"
        assert command[command.index("--threads") + 1] == "8"
        assert command[command.index("--connection-limit") + 1] == "500"
        assert command[command.index("--host") + 1] == "127.0.0.1"
        assert command[command.index("--workers") + 1] == "1"      # a hosted process is one process
        assert "--shared-port" not in command


def test_worker_commands_keep_the_defaults_when_not_given():
    (command,) = worker_commands(host="0.0.0.0", port=9000, processes=1)
    assert "--threads" not in command and "--connection-limit" not in command


def test_shared_port_workers_all_take_the_one_port():
    commands = worker_commands(host="127.0.0.1", port=8000, processes=2, threads=4, shared_port=True)
    assert [c[c.index("--port") + 1] for c in commands] == ["8000", "8000"]
    assert all("--shared-port" in c and c[c.index("--workers") + 1] == "1" for c in commands)


def test_zero_processes_or_workers_and_both_together_are_refused():
    with pytest.raises(CommandError, match="--processes"):
        call_command("serve", "--processes", "0")
    with pytest.raises(CommandError, match="--workers"):
        call_command("serve", "--workers", "0")
    with pytest.raises(CommandError, match="--processes e --workers"):
        call_command("serve", "--processes", "2", "--workers", "2")


def test_default_is_two_workers_only_where_the_port_can_be_shared(monkeypatch):
    monkeypatch.setattr(serve_command, "shared_port_supported", lambda: True)
    monkeypatch.setattr(serve_command.os, "cpu_count", lambda: 2)
    assert serve_command.default_workers() == 2
    monkeypatch.setattr(serve_command.os, "cpu_count", lambda: 1)
    assert serve_command.default_workers() == 1
    monkeypatch.setattr(serve_command.os, "cpu_count", lambda: 8)
    monkeypatch.setattr(serve_command, "shared_port_supported", lambda: False)
    assert serve_command.default_workers() == 1


def test_workers_start_shared_port_commands_on_a_free_port(monkeypatch):
    started = []
    monkeypatch.setattr(serve_command, "shared_port_supported", lambda: True)
    envs = []
    monkeypatch.setattr(serve_command, "run_workers",
                        lambda commands, out, env: (started.extend(commands), envs.append(env)))
    port = free_port()
    call_command("serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "3",
                 stdout=open(os.devnull, "w"))
    assert len(started) == 3 and all(c[c.index("--port") + 1] == str(port) for c in started)
    assert envs[0]["ARBITRO_SHARED_LIMITS"] == "1"   # the rate limits count in shared files


def test_workers_refuse_a_port_another_program_listens_on(monkeypatch):
    monkeypatch.setattr(serve_command, "shared_port_supported", lambda: True)
    monkeypatch.setattr(serve_command, "run_workers", lambda commands, out, env: pytest.fail("started"))
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        with pytest.raises(CommandError, match=f"La porta {port} è già in uso"):
            call_command("serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2")


def test_without_a_shareable_port_workers_fall_back_to_one_process(monkeypatch):
    import waitress

    seen = {}
    monkeypatch.setattr(serve_command, "shared_port_supported", lambda: False)
    monkeypatch.setattr(serve_command, "raise_open_files_limit", lambda wanted: wanted)
    monkeypatch.setattr(waitress, "serve", lambda app, **kw: seen.update(kw))
    call_command("serve", "--host", "127.0.0.1", "--port", "8123", "--workers", "2",
                 stdout=open(os.devnull, "w"), stderr=open(os.devnull, "w"))
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8123 and "sockets" not in seen


@linux_only
def test_a_worker_binds_its_own_socket_on_the_shared_port(monkeypatch):
    import waitress

    seen = {}
    monkeypatch.setattr(serve_command, "raise_open_files_limit", lambda wanted: wanted)
    monkeypatch.setattr("tournaments.printing.worker.exit_with_parent", lambda: None)
    monkeypatch.setattr(waitress, "serve", lambda app, **kw: seen.update(kw))
    port = free_port()
    call_command("serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1", "--shared-port")
    (sock,) = seen["sockets"]
    try:
        assert "host" not in seen and "port" not in seen
        assert sock.getsockname() == ("127.0.0.1", port)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1
        # a sibling worker can bind the same port
        serve_command.shared_port_socket("127.0.0.1", port).close()
    finally:
        sock.close()


@linux_only
def test_two_workers_answer_on_one_port_and_stop_together():
    """The real thing: ``serve --workers 2`` starts a supervisor and two worker processes that
    both listen on the port; SIGTERM (a service manager's stop) ends all three. About 4 s
    (two Django start-ups); the only test that runs the workers for real."""
    from bench.captains import start_server, stop_server, wait_until_up

    port = free_port()
    var = tempfile.mkdtemp(prefix="arbitro-workers-")
    env = dict(os.environ, ARBITRO_VAR_DIR=var, ARBITRO_SECRET_KEY="t" * 50, ARBITRO_DEBUG="0",
               DJANGO_SETTINGS_MODULE="config.settings")
    env.pop("DATABASE_URL", None)
    server = start_server([sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port),
                           "--workers", "2", "--threads", "2"], cwd=ROOT, env=env)
    try:
        assert wait_until_up(port, server, path="/accounts/login/")
        # the first worker up answered; the other may still be starting Django
        deadline = time.monotonic() + 20
        while True:
            workers = _children(server.pid)
            listening = {pid for pid in workers if _listens(pid, port)}
            if (len(workers) == 2 and listening == set(workers)) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert len(workers) == 2 and listening == set(workers)
        for pid in workers:   # their rate limits count in shared files (config/settings.py)
            assert b"ARBITRO_SHARED_LIMITS=1" in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        for _ in range(10):  # a new connection each
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=10) as answer:
                assert answer.status == 200
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        finally:
            stop_server(server)
    time.sleep(0.5)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()
                and "zombie" not in Path(f"/proc/{pid}/status").read_text()]


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds a listening TCP socket on ``port`` (``/proc/<pid>/net/tcp``
    lists the namespace's sockets; the inodes of the process's descriptors say which are its)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    for line in Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state, inode = fields[1], fields[3], fields[9]
        if state == "0A" and int(local.split(":")[1], 16) == port and inode in inodes:
            return True
    return False


def test_shared_file_cache_counts_every_increment_of_concurrent_counters(tmp_path):
    """Four counters on one directory (as the workers' caches are), 4 × 100 increments at
    once: exactly 400, where a read-then-write without the lock loses some."""
    from concurrent.futures import ThreadPoolExecutor

    from tournaments.server.cache import SharedFileCache

    caches = [SharedFileCache(str(tmp_path), {}) for _ in range(4)]
    assert caches[0].add("limit", 0, 60) is True and caches[1].add("limit", 0, 60) is False

    def count(cache):
        for _ in range(100):
            cache.incr("limit")

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(count, caches))
    assert caches[3].get("limit") == 400
    with pytest.raises(ValueError):
        caches[0].incr("missing")


@pytest.mark.parametrize("shared, backend", [("1", "tournaments.server.cache.SharedFileCache"),
                                             ("", "django.core.cache.backends.locmem.LocMemCache")])
def test_sqlite_settings_pick_the_shared_file_cache_only_for_serves_workers(tmp_path, shared, backend):
    import subprocess

    env = dict(os.environ, ARBITRO_VAR_DIR=str(tmp_path), ARBITRO_SHARED_LIMITS=shared,
               DJANGO_SETTINGS_MODULE="config.settings")
    env.pop("DATABASE_URL", None)
    out = subprocess.run([sys.executable, "-c", "from django.conf import settings; "
                          "print(settings.CACHES['default']['BACKEND'])"],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert out == backend
