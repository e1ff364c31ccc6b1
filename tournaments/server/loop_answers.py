"""The phones' unchanged polls answered by waitress's event loop itself, not by a worker thread.

A room of 500 captains' and 500 players' phones sends about 13,000 polls in a minute and
almost all are answered ``304 Not Modified`` by ``config.poll_shortcut.PollShortcut`` in a
few hundredths of a millisecond, without Django. What such a poll still cost was waitress's
way of running any request: the event loop files the connection in the task queue, wakes a
worker thread (a lock, a condition, a switch of the interpreter's lock), the worker answers
and wakes the loop again through its pipe, and the loop takes one more turn to see the
answer sent (docs/speed.md, "The polls before Django").

:class:`LoopAnswerDispatcher` is waitress's task dispatcher with one step in front of the
queue: when a connection's next request is a ``GET`` with ``If-None-Match`` and the WSGI
application's ``unchanged_headers(environ)`` (``config.poll_shortcut.PollShortcut``'s) returns
the headers of its ``304`` (``None``: the application must answer), the answer is
written right there, with waitress's own task building the head (so the bytes are those a
worker would send: ``Server``, ``Date``, and the connection kept or closed as waitress or
:mod:`tournaments.server.bodiless` decide). Anything else (``None``, a parse error, a
request of another kind) is queued as before, in its lane. The environ it is asked about is
the one the application would get: waitress's own, then its reverse-proxy step (the client's
address and scheme from a trusted proxy's ``X-Forwarded-*``, those headers removed from
anyone else; a malformed one is left to waitress, which answers 400). Waitress calls ``add_task``
holding the connection's ``requests_lock`` and only for the connection's first waiting
request, from the loop thread (a request just read) or from a worker thread (the next one
of a pipelined connection): in both cases the answer goes out in order.
"""
from __future__ import annotations

from waitress.channel import ClientDisconnected
from waitress.proxy_headers import PROXY_HEADERS, MalformedProxyHeader, clear_untrusted_headers, parse_proxy_headers
from waitress.task import ThreadedTaskDispatcher

#: The head of the answer, built by the channel's own task class (see :func:`_task_class`).
STATUS = "304 Not Modified"


class _Unchanged:
    """A waitress task whose application is replaced by an answer known beforehand: a body-less
    ``304`` with :attr:`headers` (mixed into the channel's ``task_class``)."""

    headers: list[tuple[str, str]] = []

    def execute(self):
        self.status = STATUS
        self.response_headers.extend(self.headers)
        self.complete = True


_TASK_CLASSES: dict[type, type] = {}


def _task_class(base: type) -> type:
    """``base`` (a channel's ``task_class``, waitress's ``WSGITask`` or a subclass) answering a
    known ``304``; one class per base, made once."""
    made = _TASK_CLASSES.get(base)
    if made is None:
        made = _TASK_CLASSES[base] = type(f"Unchanged{base.__name__}", (_Unchanged, base), {})
    return made


def as_the_application_sees_it(environ: dict, adj) -> bool:
    """Apply to ``environ`` (waitress's, of a channel whose settings are ``adj``) what waitress's
    ``proxy_headers_middleware`` does before the application sees it (waitress wraps the
    application in it whenever ``trusted_proxy`` or ``clear_untrusted_proxy_headers`` is set,
    i.e. by default). Returns False when a trusted proxy's header is malformed (waitress then
    answers 400: the request goes to the queue)."""
    if not (adj.trusted_proxy or adj.clear_untrusted_proxy_headers):
        return True
    untrusted = PROXY_HEADERS
    if adj.trusted_proxy == "*" or environ["REMOTE_ADDR"] == adj.trusted_proxy:
        try:
            untrusted = parse_proxy_headers(environ, trusted_proxy_count=adj.trusted_proxy_count,
                                            trusted_proxy_headers=adj.trusted_proxy_headers)
        except MalformedProxyHeader:
            return False
    if adj.clear_untrusted_proxy_headers:
        clear_untrusted_headers(environ, untrusted)
    return True


def answer_unchanged(channel, unchanged_headers) -> bool:
    """Answer ``channel``'s waiting requests in place while they are unchanged polls.

    ``channel``: a waitress ``HTTPChannel`` whose ``requests[0]`` is the request to serve next;
    ``unchanged_headers``: ``environ -> headers of the 304 | None`` (``None``: nothing is
    answered here). The caller holds the channel's ``requests_lock`` (waitress's ``received`` and ``service`` do when they
    call ``add_task``). Each request answered is removed as waitress's ``service`` removes it;
    an answer that closes the connection (HTTP/1.0, ``Connection: close``) drops the rest and
    marks the channel to close once flushed. Returns True when no request is left to queue.
    An error of the application's check leaves the request to the queue (the worker's path
    reports it); nothing is written before the check said yes."""
    if unchanged_headers is None:
        return not channel.requests
    while channel.requests and channel.connected:
        request = channel.requests[0]
        if request.error or request.command != "GET" or not request.headers.get("IF_NONE_MATCH"):
            break
        task = _task_class(channel.task_class)(channel, request)
        try:
            environ = task.get_environment()
            headers = unchanged_headers(environ) if as_the_application_sees_it(environ, channel.adj) else None
        except Exception:  # noqa: BLE001 - the worker's path answers (and reports) it
            headers = None
        if headers is None:
            break
        task.headers = headers
        try:
            task.service()
        except ClientDisconnected:
            task.close_on_finish = True
        request.close()
        if task.close_on_finish:
            # as waitress's HTTPChannel.service: nothing more is read or answered
            channel.close_when_flushed = True
            for waiting in channel.requests[1:]:
                waiting.close()
            channel.requests = []
            return True
        channel.requests.pop(0)
        if channel.current_outbuf_count > 0:
            # as waitress's service: the next answer starts a new buffer
            channel.current_outbuf_count = channel.adj.outbuf_high_watermark
    return not channel.requests


class LoopAnswerDispatcher(ThreadedTaskDispatcher):
    """Waitress's dispatcher (worker threads and their queue) that answers the unchanged polls
    before queueing (:func:`answer_unchanged`); everything else is waitress's.

    ``application``: the WSGI application the server runs, as given to ``create_server``
    (before waitress's proxy wrapper); its ``unchanged_headers`` method is the check, and
    without one every request is queued."""

    def __init__(self, application):
        super().__init__()
        self.unchanged_headers = getattr(application, "unchanged_headers", None)

    def add_task(self, task):
        if answer_unchanged(task, self.unchanged_headers):
            return
        super().add_task(task)
