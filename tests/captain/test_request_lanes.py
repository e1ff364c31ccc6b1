"""The order in which ``manage.py serve``'s threads take waiting requests
(tournaments/request_lanes.py): the arbiter's pages, then the phones' writes, then the phones'
reads, each lane first in first out."""
from types import SimpleNamespace

import pytest

from tournaments.management.commands import serve as serve_command
from tournaments.request_lanes import ARBITER, PHONE_READ, PHONE_WRITE, LaneQueue, lane_of


@pytest.mark.parametrize("method, path, lane", [
    ("GET", "/tornei/demo/turni/3/", ARBITER),
    ("GET", "/tornei/demo/turni/3/tabellone-live/righe/", ARBITER),
    ("POST", "/tornei/demo/turni/3/chiudi/", ARBITER),
    ("GET", "/accounts/login/", ARBITER),
    ("GET", "/soci/", ARBITER),
    ("POST", "/c/abc123/salva/", PHONE_WRITE),
    ("POST", "/c/abc123/conferma/", PHONE_WRITE),
    ("POST", "/t/demo/pin/", PHONE_WRITE),
    ("GET", "/c/abc123/", PHONE_READ),
    ("GET", "/c/abc123/stato/", PHONE_READ),
    ("GET", "/p/demo/coppia/5/", PHONE_READ),
    ("GET", "/p/demo/proiettore/", PHONE_READ),
    ("GET", "/static/js/captain.js", PHONE_READ),
])
def test_lane_of_a_request(method, path, lane):
    assert lane_of(method, path) == lane


def task(method, path):
    return SimpleNamespace(requests=[SimpleNamespace(command=method, path=path)], name=f"{method} {path}")


def test_arbiter_first_then_phone_writes_then_reads_each_in_arrival_order():
    queue = LaneQueue()
    arrived = [task("GET", "/c/t1/"), task("GET", "/p/demo/coppia/1/"), task("POST", "/c/t1/salva/"),
               task("GET", "/tornei/demo/turni/1/"), task("GET", "/c/t2/stato/"), task("POST", "/c/t2/salva/"),
               task("GET", "/tornei/demo/turni/1/tabellone-live/righe/")]
    for t in arrived:
        queue.append(t)
    assert len(queue) == 7 and queue
    served = [queue.popleft().name for _ in range(7)]
    assert served == ["GET /tornei/demo/turni/1/", "GET /tornei/demo/turni/1/tabellone-live/righe/",
                      "POST /c/t1/salva/", "POST /c/t2/salva/",
                      "GET /c/t1/", "GET /p/demo/coppia/1/", "GET /c/t2/stato/"]
    assert not queue and len(queue) == 0
    with pytest.raises(IndexError):
        queue.popleft()


def test_a_task_without_a_parsed_request_waits_in_the_read_lane():
    queue = LaneQueue()
    odd = SimpleNamespace(requests=[], name="odd")
    queue.append(odd)
    queue.append(task("GET", "/tornei/demo/"))
    assert queue.popleft().name == "GET /tornei/demo/" and queue.popleft() is odd


def test_serve_builds_waitress_with_the_lane_queue(monkeypatch):
    """The server factory handed to waitress swaps its dispatcher's FIFO for the lanes."""
    from waitress.task import ThreadedTaskDispatcher

    dispatcher = ThreadedTaskDispatcher()
    server = serve_command.laned_server(lambda environ, start: [], host="127.0.0.1", port=0,
                                        _start=False, _dispatcher=dispatcher)
    try:
        assert isinstance(server.task_dispatcher.queue, LaneQueue)
    finally:
        server.close()
