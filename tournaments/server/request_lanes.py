"""The order in which ``manage.py serve`` hands waiting requests to its threads.

Waitress queues every request in one first-in-first-out line. In the room's busiest moments
(a thousand phones opening their pages as a round is published, 250 saves in the same
second) the line holds hundreds of phone requests, and the arbiter's round page or live
board waited behind all of them (2.8 s, then 9 s with the players' pages). The arbiter is one
person running the room; a phone's page can wait a moment longer. So the line has three
lanes, each first-in-first-out, served in this order:

1. the arbiter's pages: everything that is not a phone's address (``/c/`` captains,
   ``/p/`` public, projector and players' pages, ``/t/`` PIN pages, ``/static/``);
2. the phones' quick requests: writes (POST: a score sheet saved or confirmed, a dispute, a
   call; a captain is waiting with a spinner) and polls (a GET that sends back its
   ``If-None-Match``: one query and usually an empty 304), so that a change still reaches
   every phone within seconds while pages are loading;
3. every other phone request (page loads, static files).

The first lane carries a handful of requests a second (one arbiter), the second a few
milliseconds of work each; the page loads behind them wait at most the time those take.
Anyone can ask for an arbiter's address (the login page, say) without being the arbiter, so
the first lane holds at most :data:`ARBITER_QUEUED_PER_ADDRESS` waiting requests of one
client address: a browser that sends more (a script hammering the login page) waits with
the page loads, and cannot push the phones back.
Pure Python, no Django: it sorts waitress's channels by the first request's method, path
and ``If-None-Match`` header.
"""
from __future__ import annotations

from collections import Counter, deque

#: Address prefixes of the pages phones open (captains, players, public page, projector).
PHONE_PREFIXES = ("/c/", "/p/", "/t/", "/static/", "/favicon.ico")
ARBITER, PHONE_QUICK, PHONE_PAGE = 0, 1, 2
#: Waiting requests of one client address the arbiter's lane holds (an arbiter's browser has a
#: few at a time: the round page, the board's poll, a print's progress); more go to the last lane.
ARBITER_QUEUED_PER_ADDRESS = 8


def lane_of(method: str, path: str, conditional: bool = False) -> int:
    """The lane of a request: ``ARBITER`` (0), ``PHONE_QUICK`` (1) or ``PHONE_PAGE`` (2).

    ``method``: the HTTP method ("GET", "POST", …); ``path``: the request's path
    ("/tornei/demo/turni/3/"); ``conditional``: the request carries ``If-None-Match`` (a
    poll). Never raises."""
    if not path.startswith(PHONE_PREFIXES):
        return ARBITER
    return PHONE_QUICK if conditional or method.upper() == "POST" else PHONE_PAGE


def _lane_of_task(task) -> int:
    """The lane of a waitress task (an HTTP channel whose ``requests[0]`` is the request to
    serve next; waitress keeps its headers as ``IF_NONE_MATCH``); anything unexpected goes to
    the phones' page lane, i.e. plain FIFO."""
    try:
        request = task.requests[0]
        conditional = bool(request.headers.get("IF_NONE_MATCH"))
        return lane_of(request.command or "", request.path or "", conditional)
    except (AttributeError, IndexError, TypeError):
        return PHONE_PAGE


def _address_of_task(task) -> str:
    """The client address of a waitress task (its channel's ``addr``: the peer, i.e. the
    reverse proxy when there is one), or "" when it has none."""
    try:
        return str(task.addr[0])
    except (AttributeError, IndexError, TypeError):
        return ""


class LaneQueue:
    """A drop-in for the ``collections.deque`` waitress's ``ThreadedTaskDispatcher.queue``
    holds: ``append`` files a task in its lane, ``popleft`` takes the oldest task of the first
    non-empty lane; ``len`` and truth count every lane. Waitress calls them under its own lock."""

    def __init__(self):
        self._lanes = (deque(), deque(), deque())
        self._arbiter_queued: Counter = Counter()   # client address -> its tasks in the first lane

    def append(self, task) -> None:
        lane = _lane_of_task(task)
        if lane == ARBITER:
            address = _address_of_task(task)
            if self._arbiter_queued[address] >= ARBITER_QUEUED_PER_ADDRESS:
                lane = PHONE_PAGE
            else:
                self._arbiter_queued[address] += 1
        self._lanes[lane].append(task)

    def popleft(self):
        first = self._lanes[ARBITER]
        if first:
            task = first.popleft()
            address = _address_of_task(task)
            self._arbiter_queued[address] -= 1
            if self._arbiter_queued[address] <= 0:
                del self._arbiter_queued[address]
            return task
        for lane in self._lanes[1:]:
            if lane:
                return lane.popleft()
        raise IndexError("pop from an empty LaneQueue")

    def __len__(self) -> int:
        return sum(len(lane) for lane in self._lanes)

    def __bool__(self) -> bool:
        return any(self._lanes)
