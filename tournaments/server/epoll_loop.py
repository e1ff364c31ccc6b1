"""An event loop for waitress that does not walk every idle connection on every turn.

Waitress's own loop (``wasyncore.poll2``) builds a new ``poll()`` set on each turn: it asks
every open connection ``readable()`` and ``writable()`` and registers it again. A room keeps
500 to 1000 phones' connections open, idle between two polls 4–6 s apart, and every request
makes a few turns (read, the worker's trigger, write): the server spent most of its CPU
asking idle connections a question whose answer had not changed (``bench/room.py``,
docs/speed.md).

:func:`loop` keeps one ``epoll`` set for the life of the server. A connection's registration
is computed again only when it may have changed: the connection had an event on the last
turn, a request of it is in a worker thread, it is new, or it is not idle (anything but
"waiting to read, nothing to write"); a full pass over every connection runs once a
:data:`FULL_PASS_SECONDS` as well, so a change no event announces (waitress's maintenance
marking an idle connection to close, a worker that finished between two checks) is seen
within that time. The listening socket and the trigger are asked on every turn, as waitress
does. Events are handed to waitress's own ``readwrite``, so what a connection does with them
is waitress's code unchanged.

Linux only (``select.epoll``); elsewhere :func:`install` leaves waitress's loop (``poll()``
on macOS, ``select()`` on Windows), which works and costs more CPU per open phone.
"""
from __future__ import annotations

import select
import time

#: Seconds between two passes over every connection (see the module's docstring).
FULL_PASS_SECONDS = 1.0

#: The registration of a connection that waits for its next request and has nothing to send.
IDLE = select.POLLIN | select.POLLPRI


def available() -> bool:
    """Whether this system has ``epoll`` (Linux)."""
    return hasattr(select, "epoll")


def _flags(obj) -> int:
    """The events ``obj`` (a waitress dispatcher) waits for, as ``wasyncore.poll2`` computes
    them: ``POLLIN | POLLPRI`` when readable, ``POLLOUT`` when writable and not listening."""
    flags = 0
    if obj.readable():
        flags |= IDLE
    if obj.writable() and not obj.accepting:
        flags |= select.POLLOUT
    return flags


class EpollLoop:
    """One server's ``epoll`` set and what is registered in it (see the module's docstring).

    ``map``: waitress's dict of file descriptor → dispatcher (the server's ``_map``), which
    waitress changes as connections are accepted and closed."""

    def __init__(self, map: dict, *, full_pass_seconds: float | None = None, clock=time.monotonic):
        self.map = map
        self.epoll = select.epoll()
        self.registered: dict[int, tuple[object, int]] = {}  # fd → (dispatcher, events registered)
        self.known: dict[int, object] = {}  # fd → dispatcher, every one brought up to date so far
        self.recheck: set[int] = set()  # fds whose registration may change without an event
        self.full_pass_seconds = FULL_PASS_SECONDS if full_pass_seconds is None else full_pass_seconds
        self.clock = clock
        self.next_full_pass = 0.0

    def close(self) -> None:
        self.epoll.close()

    def _register(self, fd: int, obj, flags: int) -> None:
        """Make ``fd``'s registration ``flags`` (0: not watched, as ``poll2`` leaves it out,
        so a hang-up is not reported while a request of it is still in a worker)."""
        known = self.registered.get(fd)
        if known is not None and known[0] is obj and known[1] == flags:
            return
        if known is not None:
            try:
                self.epoll.unregister(fd)
            except OSError:  # closed meanwhile: the kernel dropped it already
                pass
            del self.registered[fd]
        if flags:
            try:
                self.epoll.register(fd, flags)
            except OSError:  # closed between the check and now: it leaves the map next turn
                return
            self.registered[fd] = (obj, flags)

    def _forget(self, fd: int) -> None:
        self._register(fd, None, 0)
        self.known.pop(fd, None)
        self.recheck.discard(fd)

    def _update(self, fd: int, obj) -> None:
        self.known[fd] = obj
        flags = _flags(obj)
        self._register(fd, obj, flags)
        # An idle connection (no request in a worker, nothing to send, not closing) changes only
        # on an event of its own; anything else is asked again on the next turn.
        if flags == IDLE and not getattr(obj, "requests", True):
            self.recheck.discard(fd)
        else:
            self.recheck.add(fd)

    def turn(self, timeout: float | None) -> None:
        """One turn: bring the registrations up to date, wait up to ``timeout`` seconds for
        events, hand each to waitress's ``readwrite``."""
        from waitress.wasyncore import readwrite

        now = self.clock()
        map = self.map.copy()  # one snapshot a turn, as poll2's list(map.items())
        if now >= self.next_full_pass:
            self.next_full_pass = now + self.full_pass_seconds
            todo = list(map)
            for fd in [fd for fd in self.known if fd not in map]:
                self._forget(fd)
        else:
            # connections opened or closed (or an fd reused by a new one) since the last turn:
            # a comparison of two dicts in C, not a call per connection
            changed = {fd for fd, _ in map.items() ^ self.known.items()}
            for fd in changed:
                if fd not in map:
                    self._forget(fd)
            todo = self.recheck | {fd for fd in changed if fd in map}
        for fd in todo:
            obj = map.get(fd)
            if obj is not None:
                self._update(fd, obj)
        map = self.map  # the events' dispatchers as they are now (poll2 looks them up afresh too)
        try:
            events = self.epoll.poll(-1 if timeout is None else timeout)
        except InterruptedError:
            events = []
        for fd, flags in events:
            obj = map.get(fd)
            self.recheck.add(fd)
            if obj is None:
                continue
            readwrite(obj, flags)


def loop(timeout: float = 30.0, use_poll: bool = False, map: dict | None = None, count: int | None = None) -> None:
    """``wasyncore.loop``'s signature on an :class:`EpollLoop`: turn while ``map`` holds a
    dispatcher (``count`` turns at most when given). ``use_poll`` is ignored (epoll it is)."""
    if map is None:
        from waitress.wasyncore import socket_map as map
    runner = EpollLoop(map)
    try:
        while map and (count is None or count > 0):
            runner.turn(timeout)
            if count is not None:
                count -= 1
    finally:
        runner.close()


class _Asyncore:
    """waitress's ``wasyncore`` module with :func:`loop` in place of its own (what a waitress
    server calls through its ``asyncore`` attribute)."""

    loop = staticmethod(loop)

    def __getattr__(self, name):
        from waitress import wasyncore

        return getattr(wasyncore, name)


def install(server) -> bool:
    """Make waitress ``server`` (from ``waitress.create_server``) turn on :func:`loop`.
    Returns False, leaving waitress's loop, where ``epoll`` does not exist."""
    if not available():
        return False
    server.asyncore = _Asyncore()
    return True
