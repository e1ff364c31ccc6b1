"""The documented HTTPS setup, through a real nginx: docs/nginx-arbitro.conf in front of
``manage.py serve`` with ``ARBITRO_HTTPS=1`` and ``ARBITRO_TRUSTED_PROXIES=127.0.0.1``.

The test adapts the documented config to loopback only: its ports, a self-signed
certificate, a temporary directory; everything else (the headers nginx sets, the upstream,
the redirect to https) is the documented file. Clients are told apart by their source
address: on Linux all of 127.0.0.0/8 is loopback, so the stranger connects from 127.0.0.5
and the arbiter's browser from 127.0.0.6, while nginx reaches waitress from 127.0.0.1.

Checks: Django sees https (``Strict-Transport-Security``, ``Secure`` cookies) and the client's
address (django-axes records 127.0.0.5, not the proxy); five wrong passwords for the arbiter
from the stranger, even with a forged ``X-Forwarded-For`` naming the arbiter's address, lock
the stranger out but never the arbiter's own browser (the combined username + address
lockout). Skipped, with the reason, where nginx is not installed (scripts/system-deps.sh
installs Debian's package) or openssl is missing.
"""
from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import sqlite3
import ssl
import subprocess
import sys
import time
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path

import pytest

from bench.captains import free_port, server_log, start_server, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx")
                                        if os.access(p, os.X_OK)), None)
OPENSSL = shutil.which("openssl")
STRANGER, ARBITER_BROWSER = "127.0.0.5", "127.0.0.6"
PASSWORD = "segreta-arbitro-123"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (scripts/system-deps.sh installs it on Debian)"),
    pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed: no certificate for the test's nginx"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs 127.0.0.0/8 as loopback (Linux)"),
]


def nginx_config(tmp: Path, *, https_port: int, http_port: int, upstream_port: int) -> str:
    """docs/nginx-arbitro.conf on loopback: ports, certificate and paths under ``tmp``."""
    site = (ROOT / "docs" / "nginx-arbitro.conf").read_text()
    site = re.sub(r"(upstream arbitro \{).*?(keepalive)", rf"\1\n    server 127.0.0.1:{upstream_port};\n    \2",
                  site, flags=re.S)
    site = site.replace("listen 80;", f"listen 127.0.0.1:{http_port};")
    site = site.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl;")
    site = site.replace("arbitro.example.org", "localhost")
    site = site.replace("/etc/letsencrypt/live/localhost/fullchain.pem", str(tmp / "cert.pem"))
    site = site.replace("/etc/letsencrypt/live/localhost/privkey.pem", str(tmp / "key.pem"))
    site = site.replace("/srv/arbitro/var/staticfiles/", str(tmp / "var" / "staticfiles") + "/")
    assert f"server 127.0.0.1:{upstream_port};" in site and str(tmp / "cert.pem") in site
    user = "user root;" if os.geteuid() == 0 else ""
    temp = "\n".join(f"    {kind}_temp_path {tmp / ('nginx-' + kind)};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""{user}
daemon off;
worker_processes 1;
pid {tmp / 'nginx.pid'};
error_log {tmp / 'nginx-error.log'} warn;
events {{ worker_connections 64; }}
http {{
    access_log {tmp / 'nginx-access.log'};
{temp}
{site}
}}
"""


class Browser:
    """One browser on its own source address, with its cookies, talking https to nginx."""

    def __init__(self, port: int, source: str):
        self.port, self.source = port, source
        self.cookies: dict[str, str] = {}
        self.secure_cookies: set[str] = set()
        self.context = ssl.create_default_context()
        self.context.check_hostname = False
        self.context.verify_mode = ssl.CERT_NONE

    def request(self, method: str, path: str, *, fields: dict | None = None, headers: dict | None = None):
        conn = http.client.HTTPSConnection("localhost", self.port, timeout=30, context=self.context,
                                           source_address=(self.source, 0))
        head = dict(headers or {})
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields)
            head.update({"Content-Type": "application/x-www-form-urlencoded",
                         "Origin": f"https://localhost:{self.port}",
                         "Referer": f"https://localhost:{self.port}/accounts/login/"})
        conn.request(method, path, body=body, headers=head)
        response = conn.getresponse()
        data = response.read()
        for value in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(value)
            for key, morsel in cookie.items():
                self.cookies[key] = morsel.value
                if morsel["secure"]:
                    self.secure_cookies.add(key)
        conn.close()
        return response, data

    def login(self, password: str, *, headers: dict | None = None) -> int:
        response, html = self.request("GET", "/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1).decode()
        response, _ = self.request("POST", "/accounts/login/", headers=headers,
                                   fields={"username": "arbitro", "password": password,
                                           "csrfmiddlewaretoken": token})
        return response.status


def _run(args, env, tmp):
    result = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]


@pytest.fixture
def proxied(tmp_path):
    """nginx (https on a free loopback port) in front of one ``manage.py serve``; yields
    (https port, http port, the server's SQLite file)."""
    var = tmp_path / "var"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    upstream, https_port, http_port = free_port(), free_port(), free_port()
    env.update(ARBITRO_VAR_DIR=str(var), ARBITRO_HTTPS="1", ARBITRO_TRUSTED_PROXIES="127.0.0.1",
               ARBITRO_ALLOWED_HOSTS="localhost", ARBITRO_CSRF_TRUSTED_ORIGINS=f"https://localhost:{https_port}",
               ARBITRO_LOGIN_THROTTLE="1", ARBITRO_DEBUG="0", ARBITRO_SECRET_KEY="proxy-test-key-" + "x" * 40,
               PYTHONUNBUFFERED="1")
    _run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env, tmp_path)
    _run([sys.executable, "manage.py", "create_arbiter", "arbitro", "--password", PASSWORD], env, tmp_path)
    _run([OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
          "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")], env, tmp_path)
    (tmp_path / "nginx.conf").write_text(nginx_config(tmp_path, https_port=https_port, http_port=http_port,
                                                      upstream_port=upstream))
    server = start_server([sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(upstream),
                           "--threads", "2", "--workers", "1"], cwd=ROOT, env=env)
    proxy = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
                              "-e", str(tmp_path / "nginx-error.log")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        if not wait_until_up(upstream, server, seconds=60, path="/accounts/login/", timeout=5):
            pytest.fail("server did not start: " + (server_log(server) if server.poll() is not None else ""))
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", https_port), timeout=1).close()
                break
            except OSError:
                if proxy.poll() is not None or time.monotonic() > deadline:
                    log = (tmp_path / "nginx-error.log").read_text() if (tmp_path / "nginx-error.log").exists() else ""
                    pytest.skip(f"nginx could not start here: {proxy.stderr.read() if proxy.poll() is not None else ''}"
                                f"{log[-1500:]}")
                time.sleep(0.1)
        yield https_port, http_port, var / "arbitro.sqlite3"
    finally:
        for proc in (proxy, server):
            proc.terminate()
        for proc in (proxy, server):
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_django_behind_nginx_sees_https_and_the_client_and_locks_out_only_the_stranger(proxied):
    https_port, http_port, database = proxied

    # plain http is sent to https by nginx (the documented redirect)
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
    conn.request("GET", "/accounts/login/", headers={"Host": "localhost"})
    redirect = conn.getresponse()
    assert redirect.status == 301 and redirect.getheader("Location", "").startswith("https://")
    conn.close()

    # Django sees https: HSTS on the answer, secure cookies
    arbiter = Browser(https_port, ARBITER_BROWSER)
    response, _ = arbiter.request("GET", "/accounts/login/")
    assert response.status == 200
    assert response.getheader("Strict-Transport-Security", "").startswith("max-age=")
    assert "csrftoken" in arbiter.secure_cookies

    # a stranger guesses five times, claiming to be the arbiter's browser in X-Forwarded-For
    stranger = Browser(https_port, STRANGER)
    forged = {"X-Forwarded-For": ARBITER_BROWSER}
    statuses = [stranger.login("sbagliata", headers=forged) for _ in range(5)]
    assert statuses[0] == 200  # the form again, with its error
    assert stranger.login(PASSWORD, headers=forged) == 429  # the stranger is locked out…

    # …the arbiter's own browser is not: the lockout counted the stranger's real address
    assert arbiter.login(PASSWORD) == 302
    assert "sessionid" in arbiter.secure_cookies
    response, _ = arbiter.request("GET", "/")
    assert response.status == 200

    with sqlite3.connect(database) as db:
        addresses = {row[0] for row in db.execute("SELECT ip_address FROM axes_accessattempt")}
    assert addresses == {STRANGER}
