"""The phones' unchanged polls answered before Django's middleware (config.poll_shortcut).

The shortcut must answer exactly what the full request answers, and only when the full
request would answer ``304``: every write a captain's poll reflects changes its tag (so the
shortcut stops answering 304 to the old one), and whatever Django refuses (unknown token,
wrong host, public pages off, a tag of another table) goes on to Django.
"""
import itertools
import json
from http.cookies import SimpleCookie

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import RequestFactory
from django.urls import reverse

from config.poll_shortcut import PollShortcut
from tournaments import services
from tournaments.captains import poll_rows
from tournaments.models import Tournament
from tournaments.public import tag as public_tag

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]
HAND_INPUT = [services.HandInput(ns, ew) for ns, ew in HANDS]
CAPTAIN = services.Actor(label="tavolo 2")


class Clock:
    """A fake ``time.monotonic`` for the kept rows: ``advance`` makes them stale."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now

    def advance(self, seconds=5.0):
        self.now += seconds


class CountingApp:
    """Django's WSGI application, counting the requests that reach it."""

    def __init__(self):
        self.django = WSGIHandler()
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.django(environ, start_response)


@pytest.fixture
def clock(monkeypatch, settings):
    """The rows kept as the server keeps them (1 s captains, 2 s players), on a fake clock."""
    settings.ARBITRO_POLL_ROWS_SECONDS = 1.0
    settings.ARBITRO_PLAYER_TAG_SECONDS = 2.0
    fake = Clock()
    monkeypatch.setattr(poll_rows.time, "monotonic", fake)
    monkeypatch.setattr(public_tag.time, "monotonic", fake)
    poll_rows.clear()
    public_tag._PUBLIC.clear()
    public_tag._TAGS.clear()
    yield fake
    poll_rows.clear()
    public_tag._PUBLIC.clear()
    public_tag._TAGS.clear()


@pytest.fixture
def wsgi(db, clock):
    """``(call, inner)``: ``call(path, tag=None, cookies=None, **extra)`` sends one GET through
    ``PollShortcut(Django)`` and returns ``(status, headers dict, body)``; ``inner.calls``
    counts what reached Django. Django's connection closing around a request is switched off
    during each call, as its test client does (the test's transaction holds the connection; on
    PostgreSQL a closed one fails the test's next query) — and switched on again after it, as
    the test client also does after each of its own requests."""
    inner = CountingApp()
    app = PollShortcut(inner)
    factory = RequestFactory()

    def call(path, tag=None, cookies=None, accept="application/json", **extra):
        headers = {"Accept": accept}
        if tag:
            headers["If-None-Match"] = tag
        request = factory.get(path, headers=headers, **extra)
        if cookies:
            request.environ["HTTP_COOKIE"] = "; ".join(f"{k}={v.value}" for k, v in cookies.items())
        answer = {}

        def start_response(status, headers, exc_info=None):
            answer["status"], answer["headers"] = int(status.split()[0]), dict(headers)

        request_started.disconnect(close_old_connections)
        request_finished.disconnect(close_old_connections)
        try:
            body = b"".join(app(request.environ, start_response))
        finally:
            request_started.connect(close_old_connections)
            request_finished.connect(close_old_connections)
        return answer["status"], answer["headers"], body

    call.app, call.factory = app, factory  # for the event loop's check (unchanged_headers)
    return call, inner


def state_path(table):
    return reverse("captain_state", args=[table.token])


def shortcut_ready(call, inner, path, **kw):
    """Poll ``path`` until the shortcut answers it: the first poll gets the tag (200), the
    second goes through Django (its 304's headers are learnt); returns the tag and the
    headers of Django's 304."""
    status, head, _ = call(path, **kw)
    assert status == 200
    tag = head["ETag"]
    status, django_304, body = call(path, tag=tag, **kw)
    assert (status, body) == (304, b"")
    before = inner.calls
    status, quick, body = call(path, tag=tag, **kw)
    assert (status, body) == (304, b"") and inner.calls == before, "the third poll is the shortcut's"
    return tag, django_304, quick


def test_an_unchanged_captain_poll_is_answered_without_django_with_djangos_headers(wsgi, tables):
    call, inner = wsgi
    tag, django_304, quick = shortcut_ready(call, inner, state_path(tables[1]))
    django_304.pop("Date", None)
    quick.pop("Date", None)
    assert quick == django_304
    assert quick["ETag"] == tag and "no-store" in quick["Cache-Control"]


def _save(client, table, version=0):
    return client.post(reverse("captain_save", args=[table.token]), content_type="application/json",
                       data=json.dumps({"line": "ns", "hands": HANDS, "version": version, "declared": None}))


WRITES = {
    "save": lambda t, rnd, arbiter, client: _save(client, t),
    "confirm": lambda t, rnd, arbiter, client: (_save(client, t), services.confirm_sheet(table=t, by="E/O")),
    "dispute": lambda t, rnd, arbiter, client: (_save(client, t), services.dispute_sheet(table=t, by="E/O",
                                                                                          note="no")),
    "arbiter's save": lambda t, rnd, arbiter, client: services.save_score_sheet(table=t, hands=HAND_INPUT, by=arbiter),
    "validation": lambda t, rnd, arbiter, client: (_save(client, t), services.validate_sheet(table=t, by=arbiter)),
    "round closed": lambda t, rnd, arbiter, client: (
        [services.save_score_sheet(table=x, hands=HAND_INPUT, by=arbiter, validate=True) for x in rnd.tables.all()],
        services.close_round(round=rnd, by=arbiter)),
    "clock started": lambda t, rnd, arbiter, client: services.start_clock(round=rnd, by=arbiter),
    "clock paused": lambda t, rnd, arbiter, client: (services.start_clock(round=rnd, by=arbiter),
                                                     services.pause_clock(round=rnd, by=arbiter)),
    "table's extra time": lambda t, rnd, arbiter, client: services.give_table_extra_time(
        table=t, round=rnd, minutes=3, by=arbiter),
    "arbiter called": lambda t, rnd, arbiter, client: services.call_arbiter(table=t, by=CAPTAIN),
    "call taken": lambda t, rnd, arbiter, client: services.take_call(
        call_id=services.call_arbiter(table=t, by=CAPTAIN)[0].pk, rnd=rnd, by=arbiter),
}


@pytest.mark.parametrize("write", list(WRITES))
def test_every_write_the_poll_shows_ends_the_shortcuts_304(wsgi, clock, tables, published_round, arbiter,
                                                           other_client, write):
    """After the write, once the kept rows are read again (a second later, as in the room), the
    old tag no longer gets a 304 from the shortcut: the poll reaches Django and gets the page."""
    call, inner = wsgi
    t = tables[2]
    path = state_path(t)
    tag, *_ = shortcut_ready(call, inner, path)
    WRITES[write](t, published_round, arbiter, other_client)
    clock.advance()
    poll_rows.recent_row(t.token)  # the rows read again, as the next poll reaching Django does
    before = inner.calls
    status, head, body = call(path, tag=tag)
    assert inner.calls == before + 1, "answered by Django, not by the shortcut"
    assert status == 200 and head["ETag"] != tag
    assert json.loads(body)["clock"] is not None


def test_the_shortcut_answers_nothing_django_would_refuse(wsgi, clock, tables, published_round):
    call, inner = wsgi
    t1, t2 = tables[1], tables[2]
    tag1, *_ = shortcut_ready(call, inner, state_path(t1))
    tag2, *_ = shortcut_ready(call, inner, state_path(t2))
    cases = [
        (state_path(t2), tag1, {}, 200),                      # another table's tag: its own sheet
        ("/c/not-a-token/stato/", tag1, {}, 404),              # unknown token (counted as a guess)
        (state_path(t1) + "x/", tag1, {}, 404),                # not the poll's address
        (state_path(t1), tag1, {"HTTP_HOST": "evil.example"}, 400),  # ALLOWED_HOSTS
    ]
    for path, tag, extra, expected in cases:
        before = inner.calls
        status, _, _ = call(path, tag=tag, **extra)
        assert (status, inner.calls) == (expected, before + 1), path
    # the rows kept too long: Django answers (and reads them again)
    clock.advance()
    before = inner.calls
    assert call(state_path(t1), tag=tag1)[0] == 304 and inner.calls == before + 1


def test_the_saved_here_cookie_is_read_as_django_reads_it(wsgi, tables, client):
    """The phone that saved gets another tag than the other phone (its page hides «conferma»):
    the shortcut reads the same signed cookie, and a forged cookie does not match."""
    call, inner = wsgi
    t = tables[3]
    assert _save(client, t).status_code == 200
    mine = client.cookies
    tag_mine, *_ = shortcut_ready(call, inner, state_path(t), cookies=mine)
    tag_other, *_ = shortcut_ready(call, inner, state_path(t))
    assert tag_mine != tag_other
    forged = SimpleCookie()
    forged[f"arbitro_cs_{t.pk}"] = "1"
    before = inner.calls
    status, head, _ = call(state_path(t), tag=tag_mine, cookies=forged)
    assert (status, inner.calls) == (200, before + 1) and head["ETag"] == tag_other


# --------------------------------------------------------------------------- players' pages


@pytest.fixture
def public(published_round):
    Tournament.objects.filter(pk=published_round.tournament_id).update(public_enabled=True)
    return published_round.tournament


def player_path(tournament, number=1):
    return reverse("player_page", args=[tournament.slug, "coppia", number])


@pytest.mark.parametrize("language", ["it", "en"])
def test_an_unchanged_players_page_is_answered_without_django_with_djangos_headers(wsgi, public, language):
    call, inner = wsgi
    cookies = SimpleCookie()
    if language == "en":
        cookies["django_language"] = "en"
    for accept in ("text/html", "application/json"):
        tag, django_304, quick = shortcut_ready(call, inner, player_path(public), cookies=cookies, accept=accept)
        assert tag.endswith(f'-{language}"')
        django_304.pop("Date", None)
        quick.pop("Date", None)
        assert quick == django_304


def test_players_page_shortcut_follows_the_tournament_and_the_language(wsgi, clock, public, arbiter, tables):
    call, inner = wsgi
    path = player_path(public)
    tag, *_ = shortcut_ready(call, inner, path, accept="text/html")
    english = SimpleCookie()
    english["django_language"] = "en"
    for extra_path, cookies in ((player_path(public, 2), None), (path, english)):
        before = inner.calls
        assert call(extra_path, tag=tag, cookies=cookies, accept="text/html")[0] == 200
        assert inner.calls == before + 1
    # the round closed: a new tag once the tournament is read again
    for t in tables.values():
        services.save_score_sheet(table=t, hands=HAND_INPUT, by=arbiter, validate=True)
    services.close_round(round=tables[1].round, by=arbiter)
    clock.advance()
    before = inner.calls
    status, head, _ = call(path, tag=tag, accept="text/html")
    assert (status, inner.calls) == (200, before + 1) and head["ETag"] != tag
    # public pages switched off: Django's 404, never the shortcut's 304
    new = head["ETag"]
    Tournament.objects.filter(pk=public.pk).update(public_enabled=False)
    clock.advance()
    for _ in itertools.repeat(None, 2):
        before = inner.calls
        assert call(path, tag=new, accept="text/html")[0] == 404 and inner.calls == before + 1


def test_unchanged_headers_answers_what_the_call_answers_and_nothing_else(wsgi, clock, tables, arbiter,
                                                                         django_assert_num_queries):
    """The server's event loop asks ``unchanged_headers`` before a worker thread would call the
    shortcut: the same headers where the call answers 304 itself, None wherever Django must
    answer (another tag, another method or path, a changed sheet), and Django is never
    called; stale rows are read again there, one query for the round."""
    call, inner = wsgi
    path = state_path(tables[1])
    tag, _, quick = shortcut_ready(call, inner, path)

    def environ(path, tag, method="GET"):
        return call.factory.generic(method, path, headers={"If-None-Match": tag} if tag else {}).environ

    before = inner.calls
    headers = dict(call.app.unchanged_headers(environ(path, tag)))
    headers.pop("Date", None)
    quick.pop("Date", None)
    assert headers == quick and headers["ETag"] == tag
    assert call.app.unchanged_headers(environ(path, '"another"')) is None
    assert call.app.unchanged_headers(environ(path, None)) is None
    assert call.app.unchanged_headers(environ(path, tag, "POST")) is None
    assert call.app.unchanged_headers(environ("/accounts/login/", tag)) is None
    assert call.app.unchanged_headers(environ(state_path(tables[2]), tag)) is None
    clock.advance()  # the kept rows are stale: the loop's check reads the round again, once
    with django_assert_num_queries(1):
        assert dict(call.app.unchanged_headers(environ(path, tag)))["ETag"] == tag
    with django_assert_num_queries(0):
        assert dict(call.app.unchanged_headers(environ(path, tag)))["ETag"] == tag
    services.save_score_sheet(table=tables[1], hands=HAND_INPUT, by=arbiter)
    assert call.app.unchanged_headers(environ(path, tag)) is not None, "rows read before the save, for 1 s"
    clock.advance()
    assert call.app.unchanged_headers(environ(path, tag)) is None, "read again: the save changed the tag"
    assert inner.calls == before


def test_other_methods_and_paths_go_to_django(wsgi, tables):
    call, inner = wsgi
    tag, *_ = shortcut_ready(call, inner, state_path(tables[1]))
    before = inner.calls
    assert call("/accounts/login/", tag=tag, accept="text/html")[0] == 200
    assert inner.calls == before + 1
