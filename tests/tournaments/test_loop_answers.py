"""``manage.py serve``'s event loop answers the phones' unchanged polls itself
(tournaments/server/loop_answers.py): the application's ``unchanged_headers`` says yes, the 304
goes out from the loop thread with waitress's own head, no worker thread runs it; anything the
check does not answer (no, an error, another method, a pipelined page) reaches the application
through the queue, in order."""
from __future__ import annotations

import http.client
import re
import socket
import threading

import pytest

from tournaments.management.commands import serve as serve_command
from tournaments.server import epoll_loop


class App:
    """A WSGI application with the poll shortcut's interface: ``/poll`` with ``If-None-Match:
    "v1"`` is unchanged (its 304 headers from :meth:`unchanged_headers`); every call of the
    application itself is counted with the thread that ran it."""

    def __init__(self):
        self.calls: list[str] = []
        self.checks: list[str] = []   # names of the threads that asked unchanged_headers
        self.environ: dict = {}       # the last environ it was asked about
        self.fail = False

    def unchanged_headers(self, environ):
        self.checks.append(threading.current_thread().name)
        self.environ = dict(environ)
        if self.fail:
            raise RuntimeError("the check broke")
        if environ["PATH_INFO"] == "/poll" and environ.get("HTTP_IF_NONE_MATCH") == '"v1"':
            return [("Cache-Control", "no-store"), ("Vary", "Cookie"), ("ETag", '"v1"')]
        return None

    def __call__(self, environ, start_response):
        self.calls.append(environ["PATH_INFO"])
        if environ["REQUEST_METHOD"] == "GET" and environ.get("HTTP_IF_NONE_MATCH") == '"v1"':
            start_response("304 Not Modified", [("ETag", '"v1"'), ("Content-Length", "0")])
            return [b""]
        body = f"page {environ['PATH_INFO']}".encode()
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body))),
                                  ("ETag", '"v2"')])
        return [body]


@pytest.fixture
def served():
    """``(app, port)``: :class:`App` behind ``serve``'s server factory, its loop in a thread
    named ``loop``."""
    app = App()
    server = serve_command.laned_server(app, host="127.0.0.1", port=0, threads=2, asyncore_loop_timeout=0.1)
    thread = threading.Thread(target=server.run, daemon=True, name="loop")
    thread.start()
    yield app, server.effective_port
    server.task_dispatcher.shutdown()
    server.close()
    thread.join(5)


def test_an_unchanged_poll_is_answered_by_the_loop_thread_without_the_application(served):
    app, port = served
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/poll", headers={"If-None-Match": '"v1"'})
    answer = conn.getresponse()
    assert (answer.status, answer.read()) == (304, b"")
    assert answer.getheader("ETag") == '"v1"' and answer.getheader("Cache-Control") == "no-store"
    assert answer.getheader("Server") == "waitress" and answer.getheader("Date")
    assert answer.getheader("Content-Length") is None
    assert app.calls == [] and app.checks == ["loop"]
    # on Linux the connection stays open (tournaments/server/bodiless.py) for the next request
    sock = conn.sock
    conn.request("GET", "/page")
    answer = conn.getresponse()
    assert answer.status == 200 and answer.read() == b"page /page"
    assert (conn.sock is sock) == epoll_loop.available()
    assert app.calls == ["/page"]
    conn.close()


def test_a_changed_poll_and_a_failing_check_reach_the_application(served):
    app, port = served
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/poll", headers={"If-None-Match": '"v0"'})
    answer = conn.getresponse()
    assert (answer.status, answer.read(), answer.getheader("ETag")) == (200, b"page /poll", '"v2"')
    app.fail = True
    conn.request("GET", "/poll", headers={"If-None-Match": '"v1"'})
    answer = conn.getresponse()
    assert (answer.status, answer.read()) == (304, b"")
    assert app.calls == ["/poll", "/poll"], "both answered by the application"
    conn.close()


def test_other_methods_and_requests_without_a_tag_are_not_checked(served):
    app, port = served
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("POST", "/poll", body=b"x", headers={"If-None-Match": '"v1"'})
    assert conn.getresponse().read() == b"page /poll"
    conn.request("GET", "/poll")
    assert conn.getresponse().read() == b"page /poll"
    assert app.checks == [] and app.calls == ["/poll", "/poll"]
    conn.close()


def test_pipelined_requests_are_answered_in_order(served):
    """Three requests in one packet: the loop answers the first, a worker the second, and the
    third (unchanged again) only after the second's answer."""
    app, port = served
    poll = b'GET /poll HTTP/1.1\r\nHost: x\r\nIf-None-Match: "v1"\r\n\r\n'
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        raw.sendall(poll + b"GET /page HTTP/1.1\r\nHost: x\r\n\r\n" + poll.replace(b"Host: x", b"Host: x\r\nConnection: close"))
        data = b""
        while chunk := raw.recv(65536):   # the last request asks to close: recv ends
            data += chunk
    statuses = re.findall(rb"HTTP/1\.1 (\d{3}) ", data)  # the 200's body is followed by the next head
    assert statuses == [b"304", b"200", b"304"], data
    assert data.index(b"page /page") < data.rindex(b"HTTP/1.1 304")
    assert app.calls == ["/page"] and data.endswith(b"\r\n\r\n")
    assert b"Connection: close" in data.split(b"page /page")[1]


def test_http_1_0_gets_its_304_and_the_connection_closed(served):
    app, port = served
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        raw.sendall(b'GET /poll HTTP/1.0\r\nHost: x\r\nIf-None-Match: "v1"\r\n\r\n')
        data = b""
        while chunk := raw.recv(4096):   # the server closes: recv ends
            data += chunk
    assert data.startswith(b"HTTP/1.0 304") and b"Connection: close" in data and app.calls == []


@pytest.mark.parametrize("trusted, scheme, forwarded", [
    ("127.0.0.1", "https", True),    # the documented reverse proxy: its headers are read
    (None, "http", False),           # no proxy: a client's X-Forwarded-* are removed, as waitress does
    ("10.0.0.9", "http", False),     # a proxy elsewhere: this peer's headers are not trusted
])
def test_the_check_sees_the_environ_after_waitress_proxy_step(trusted, scheme, forwarded):
    """Behind the reverse proxy (serve's proxy_options) the check sees the client's scheme and
    address as Django would; anyone else's X-Forwarded-* never reach it."""
    app = App()
    options = serve_command.server_options(host="127.0.0.1", port=0, trusted_proxies=[trusted] if trusted else [])
    options.update(threads=1, asyncore_loop_timeout=0.1)
    server = serve_command.laned_server(app, **options)
    thread = threading.Thread(target=server.run, daemon=True, name="loop")
    thread.start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=5)
        conn.request("GET", "/poll", headers={"If-None-Match": '"v1"', "X-Forwarded-Proto": "https",
                                              "X-Forwarded-For": "203.0.113.7"})
        assert conn.getresponse().status == 304 and app.calls == [] and app.checks == ["loop"]
        conn.close()
    finally:
        server.task_dispatcher.shutdown()
        server.close()
        thread.join(5)
    assert app.environ["wsgi.url_scheme"] == scheme
    assert app.environ["REMOTE_ADDR"] == ("203.0.113.7" if forwarded else "127.0.0.1")
    assert ("HTTP_X_FORWARDED_PROTO" in app.environ) == forwarded


def test_an_application_without_the_check_is_served_as_waitress_serves_it():
    def plain(environ, start_response):
        start_response("304 Not Modified", [("ETag", '"v1"')])
        return [b""]

    server = serve_command.laned_server(plain, host="127.0.0.1", port=0, threads=1, asyncore_loop_timeout=0.1)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=5)
        conn.request("GET", "/poll", headers={"If-None-Match": '"v1"'})
        assert conn.getresponse().status == 304
        conn.close()
    finally:
        server.task_dispatcher.shutdown()
        server.close()
        thread.join(5)
