"""The order in which ``manage.py serve``'s threads take waiting requests
(tournaments/server/request_lanes.py): the arbiter's pages, then the phones' writes and polls, then
the phones' page loads, each lane first in first out."""
from types import SimpleNamespace

import pytest

from tournaments.management.commands import serve as serve_command
from tournaments.server.request_lanes import ARBITER, PHONE_PAGE, PHONE_QUICK, LaneQueue, lane_of


@pytest.mark.parametrize("method, path, conditional, lane", [
    ("GET", "/tornei/demo/turni/3/", False, ARBITER),
    ("GET", "/tornei/demo/turni/3/tabellone-live/righe/", True, ARBITER),
    ("POST", "/tornei/demo/turni/3/chiudi/", False, ARBITER),
    ("GET", "/accounts/login/", False, ARBITER),
    ("GET", "/soci/", False, ARBITER),
    ("POST", "/c/abc123/salva/", False, PHONE_QUICK),
    ("POST", "/c/abc123/conferma/", False, PHONE_QUICK),
    ("POST", "/t/demo/pin/", False, PHONE_QUICK),
    ("GET", "/c/abc123/stato/", True, PHONE_QUICK),
    ("GET", "/p/demo/coppia/5/", True, PHONE_QUICK),
    ("GET", "/c/abc123/", False, PHONE_PAGE),
    ("GET", "/c/abc123/stato/", False, PHONE_PAGE),
    ("GET", "/p/demo/coppia/5/", False, PHONE_PAGE),
    ("GET", "/p/demo/proiettore/", False, PHONE_PAGE),
    ("GET", "/static/js/captain.js", False, PHONE_PAGE),
])
def test_lane_of_a_request(method, path, conditional, lane):
    assert lane_of(method, path, conditional) == lane


def task(method, path, tag=None):
    headers = {"IF_NONE_MATCH": tag} if tag else {}
    return SimpleNamespace(requests=[SimpleNamespace(command=method, path=path, headers=headers)],
                           name=f"{method} {path}" + (" 304?" if tag else ""))


def test_arbiter_first_then_phone_writes_and_polls_then_pages_each_in_arrival_order():
    queue = LaneQueue()
    arrived = [task("GET", "/c/t1/"), task("GET", "/p/demo/coppia/1/"), task("POST", "/c/t1/salva/"),
               task("GET", "/tornei/demo/turni/1/"), task("GET", "/c/t2/stato/", '"v3"'),
               task("POST", "/c/t2/salva/"), task("GET", "/tornei/demo/turni/1/tabellone-live/righe/")]
    for t in arrived:
        queue.append(t)
    assert len(queue) == 7 and queue
    served = [queue.popleft().name for _ in range(7)]
    assert served == ["GET /tornei/demo/turni/1/", "GET /tornei/demo/turni/1/tabellone-live/righe/",
                      "POST /c/t1/salva/", "GET /c/t2/stato/ 304?", "POST /c/t2/salva/",
                      "GET /c/t1/", "GET /p/demo/coppia/1/"]
    assert not queue and len(queue) == 0
    with pytest.raises(IndexError):
        queue.popleft()


def test_a_task_without_a_parsed_request_waits_in_the_page_lane():
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


def test_freeze_startup_objects_leaves_no_garbage_and_freezes(monkeypatch):
    import gc

    calls = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    serve_command.freeze_startup_objects()
    assert calls == ["collect", "freeze"]  # garbage first: frozen garbage would never be freed


def test_one_address_keeps_at_most_eight_waiting_requests_ahead_of_the_phones():
    """A script hammering the login page from one address: its first 8 waiting requests keep
    the arbiter's lane, the rest wait with the page loads, behind the phones' saves and polls;
    the arbiter at another address still goes first, and a served request frees its place."""
    from tournaments.server.request_lanes import ARBITER_QUEUED_PER_ADDRESS

    def from_address(t, address):
        t.addr = (address, 50000)
        return t

    queue = LaneQueue()
    for _k in range(12):
        queue.append(from_address(task("GET", "/accounts/login/"), "10.0.0.66"))
    queue.append(from_address(task("POST", "/c/t1/salva/"), "10.0.0.7"))
    queue.append(from_address(task("GET", "/tornei/demo/turni/1/"), "10.0.0.2"))
    served = [queue.popleft() for _ in range(len(queue))]
    names = [(t.name, t.addr[0]) for t in served]
    assert ARBITER_QUEUED_PER_ADDRESS == 8
    assert names[:8] == [("GET /accounts/login/", "10.0.0.66")] * 8
    assert names[8] == ("GET /tornei/demo/turni/1/", "10.0.0.2")
    assert names[9] == ("POST /c/t1/salva/", "10.0.0.7")
    assert names[10:] == [("GET /accounts/login/", "10.0.0.66")] * 4
    # the count follows the queue: once served, the address has its 8 places again
    for _k in range(8):
        queue.append(from_address(task("GET", "/accounts/login/"), "10.0.0.66"))
    assert len(queue._lanes[ARBITER]) == 8 and not queue._lanes[PHONE_PAGE]
