"""Answers without a body keep their connection open.

Waitress (3.0) closes an HTTP/1.1 connection after every response that carries no
``Content-Length``, and it never sends one on a ``304``, ``204`` or ``1xx`` (they have no
body): every unchanged poll of a phone ended its kept-alive connection, and its next poll,
4–6 s later, opened a new one (an accept, a new channel in the event loop, a new socket on
the phone). A body-less status has no body by definition (RFC 9112, section 6.3: the message ends
after its headers), so the connection can stay open, as it does after a ``200``.

:class:`BodilessKeepAliveTask` builds such a response's head as waitress builds it (header
names capitalised, ``Server`` and ``Date`` added, headers sorted by name) without asking for
the close; every other response (with a body, HTTP/1.0, a request that asked ``Connection:
close``, a task already closing) is waitress's own. :func:`keep_bodiless_alive` puts it on a
server made by ``waitress.create_server`` (``manage.py serve``'s ``laned_server``).
"""
from __future__ import annotations

from waitress.channel import HTTPChannel
from waitress.task import WSGITask
from waitress.utilities import build_http_date


class BodilessKeepAliveTask(WSGITask):
    """Waitress's WSGI task whose body-less HTTP/1.1 answers keep the connection open."""

    def build_response_header(self):
        connection = self.request.headers.get("CONNECTION", "").lower()
        if self.has_body or self.version != "1.1" or connection == "close" or self.close_on_finish:
            return super().build_response_header()
        headers, names = [], set()
        for name, value in self.response_headers:
            name = "-".join(part.capitalize() for part in name.split("-"))
            if name == "Content-Length":
                continue  # as waitress: none on a response without a body
            names.add(name)
            headers.append((name, value))
        ident = self.channel.server.adj.ident
        if "Server" not in names:
            if ident:
                headers.append(("Server", ident))
        else:
            headers.append(("Via", ident or "waitress"))
        if "Date" not in names:
            headers.append(("Date", build_http_date(self.start_time)))
        self.response_headers = headers
        lines = [f"HTTP/{self.version} {self.status}"]
        lines += ["%s: %s" % header for header in sorted(headers, key=lambda header: header[0])]
        return ("%s\r\n\r\n" % "\r\n".join(lines)).encode("latin-1")


class BodilessKeepAliveChannel(HTTPChannel):
    """Waitress's HTTP channel running :class:`BodilessKeepAliveTask`."""

    task_class = BodilessKeepAliveTask


def keep_bodiless_alive(server) -> None:
    """Make ``server`` (``waitress.create_server``'s answer: one server, or several listening
    sockets in its ``map``) accept its connections as :class:`BodilessKeepAliveChannel`."""
    for candidate in (server, *getattr(server, "map", {}).values()):
        if hasattr(candidate, "channel_class"):
            candidate.channel_class = BodilessKeepAliveChannel
