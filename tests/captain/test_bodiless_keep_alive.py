"""``manage.py serve``'s waitress keeps a connection open after a body-less answer.

Waitress closed every HTTP/1.1 connection after a ``304`` or ``204`` (it sends no
``Content-Length`` on them and closes when there is none): each unchanged poll of a phone
cost a new connection. A body-less status ends after its headers (RFC 9112, section 6.3), so the
connection stays; a request that asks ``Connection: close`` and HTTP/1.0 are waitress's own.
"""
import http.client
import socket
import threading

import pytest

from tournaments.management.commands import serve as serve_command
from tournaments.server import epoll_loop

# serve keeps the connections only on its epoll loop (Linux): elsewhere waitress's loop walks
# every open connection on each turn and reconnecting costs less (docs/speed.md)
pytestmark = pytest.mark.skipif(not epoll_loop.available(), reason="serve's epoll loop is Linux's")


def app(environ, start_response):
    status = {"/304": "304 Not Modified", "/204": "204 No Content"}.get(environ["PATH_INFO"], "200 OK")
    body = b"ok" if status == "200 OK" else b""
    # Django sends Content-Length: 0 on its 304: waitress drops it on a body-less answer
    start_response(status, [("ETag", '"x"'), ("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]


@pytest.fixture
def port():
    server = serve_command.laned_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server.effective_port
    server.task_dispatcher.shutdown()
    server.close()


def test_304_and_204_keep_the_connection_for_the_next_request(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/304")
    first = conn.getresponse()
    assert (first.status, first.read(), first.getheader("Connection"), first.getheader("ETag")) == (
        304, b"", None, '"x"')
    assert first.getheader("Content-Length") is None and first.getheader("Server") and first.getheader("Date")
    sock = conn.sock
    for path, status, body in (("/204", 204, b""), ("/", 200, b"ok"), ("/304", 304, b"")):
        conn.request("GET", path)
        answer = conn.getresponse()
        assert (answer.status, answer.read(), answer.getheader("Connection")) == (status, body, None)
        assert conn.sock is sock, "the same connection"
    conn.close()


def test_a_request_asking_to_close_and_http_1_0_are_closed_as_before(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/304", headers={"Connection": "close"})
    answer = conn.getresponse()
    assert (answer.status, answer.getheader("Connection")) == (304, "close")
    conn.close()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        raw.sendall(b"GET /304 HTTP/1.0\r\nHost: x\r\n\r\n")
        data = b""
        while chunk := raw.recv(4096):   # the server closes: recv ends
            data += chunk
    assert data.startswith(b"HTTP/1.0 304") and b"Connection: close" in data
