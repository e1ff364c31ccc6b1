"""Helpers shared by the tests that run two server processes: a phone (an HTTP client with its own cookies), the arbiter's login, calls released together."""
from __future__ import annotations

import http.client
import json
import re
import threading
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


HOST = "127.0.0.1"


POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


class Phone:
    """One browser: its own cookies; talks to one server (port)."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, *, body: bytes = b"", headers: dict | None = None):
        conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        head = {"Host": f"{HOST}:{self.port}", **(headers or {})}
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn.request(method, path, body=body or None, headers=head)
        response = conn.getresponse()
        data = response.read()
        for value in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(value)
            for key, morsel in cookie.items():
                self.cookies[key] = morsel.value
        conn.close()
        return response.status, data

    def csrf_headers(self) -> dict:
        return {"X-CSRFToken": self.cookies.get("csrftoken", "")}

    def open_sheet(self, token: str) -> dict:
        status, html = self.request("GET", f"/c/{token}/", headers={"Accept": "text/html"})
        assert status == 200, html[:300]
        found = re.search(rb'<script id="captain-data" type="application/json">(.*?)</script>', html, re.S)
        return json.loads(found.group(1))["sheet"]

    def post_json(self, path: str, payload: dict):
        status, data = self.request(
            "POST", path, body=json.dumps(payload).encode(),
            headers={"Content-Type": "application/json", "Accept": "application/json", **self.csrf_headers()})
        return status, data

    def post_form(self, path: str, fields: dict):
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})
        return self.request("POST", path, body=body.encode(),
                            headers={"Content-Type": "application/x-www-form-urlencoded"})


def database_url(settings_dict: dict) -> str:
    """The URL of the database this test uses (pytest-django's test database)."""
    user = urllib.parse.quote(settings_dict.get("USER") or "", safe="")
    password = urllib.parse.quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "localhost"
    if host.startswith("/"):  # a Unix socket's folder (scripts/with-postgres.sh): percent-encoded
        host = urllib.parse.quote(host, safe="")
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{settings_dict['NAME']}"


def arbiter_phone(port: int, session) -> Phone:
    browser = Phone(port)
    browser.cookies[session[0]] = session[1]
    status, _ = browser.request("GET", "/tornei/prova/turni/1/")  # also sets the CSRF cookie
    assert status == 200
    return browser


def released_together(*calls):
    """Run the calls in threads released at the same moment; return their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return [f.result() for f in [pool.submit(run, c) for c in calls]]
