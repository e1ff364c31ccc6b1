"""Fixtures shared by the tests that run two server processes on one database."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings

from bench.captains import free_port, server_log, start_server, wait_until_up
from tests.multiprocess.helpers import HOST, ROOT, database_url


@pytest.fixture
def servers(transactional_db, tmp_path):
    """Ports of two ``manage.py serve`` processes on the test database."""
    from django.db import connection

    env = dict(os.environ, DATABASE_URL=database_url(connection.settings_dict), ARBITRO_VAR_DIR=str(tmp_path),
               # the test's own key: the arbiter's session (made here) carries a hash signed with it
               ARBITRO_SECRET_KEY=settings.SECRET_KEY, ARBITRO_DEBUG="0", PYTHONUNBUFFERED="1")
    ports, procs = [free_port(), free_port()], []
    try:
        for port in ports:
            procs.append(start_server(
                [sys.executable, "manage.py", "serve", "--host", HOST, "--port", str(port), "--threads", "4", "--workers", "1"],
                cwd=ROOT, env=env))
        for port, proc in zip(ports, procs, strict=True):
            if not wait_until_up(port, proc, seconds=60, path="/accounts/login/", timeout=5):
                proc.terminate()
                pytest.fail("server did not start: " + (server_log(proc) if proc.poll() is not None else ""))
        yield ports
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture
def room(tournament, make_pairs, arbiter):
    """16 pairs, round 1 (Mitchell, 4 hands) published: tables 1–8; and the arbiter's session."""
    from importlib import import_module

    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from tournaments import services

    make_pairs(tournament, 16)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    tables = {t.number: t for t in rnd.tables.all()}
    assert sorted(tables) == list(range(1, 9))
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(arbiter.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = arbiter.get_session_auth_hash()
    store.save()
    return tournament, rnd, tables, (settings.SESSION_COOKIE_NAME, store.session_key)
