"""The phones' unchanged polls answered before Django's middleware and views.

A room of 500 captains' and 500 players' phones asks every 4–6 s whether its page changed
(about 200 requests a second), and almost every answer is an empty ``304 Not Modified``.
The views already find that answer from rows kept a moment in the process, without a query
(``captains.poll_rows``, ``public.tag``); what a poll still cost was Django's request
machinery around them: eleven middlewares, the URL resolver, the view's decorators (about
four fifths of the room's server CPU is in Django: docs/speed.md, "Where the room's CPU
goes"). :class:`PollShortcut` wraps the WSGI application and answers such a poll itself,
asking the very functions the views ask (``captains.views.unchanged_stamp``,
``public.player_views.unchanged_etag``), so both paths answer 304 on the same condition:

- only ``GET`` with ``If-None-Match`` on a path that Django's own URL resolver maps to the
  captain's poll (``captain_state``) or a player's page (``player_page``);
- only when the kept rows are fresh and the browser's tag equals the current one; a stale
  row, a changed page, an unknown token, a draft round, public pages switched off: the
  request goes on to Django unchanged, which answers (and counts guesses) as before;
- only when the checks of the middlewares that could refuse the request pass: the ``Host``
  (``ALLOWED_HOSTS``), no HTTPS redirect due (``SECURE_SSL_REDIRECT``), no refused user
  agent; otherwise Django answers;
- the language (a player's page's tag names it) as ``config.middleware.ItalianFirstMiddleware``
  and Django's ``LocaleMiddleware`` choose it: the language cookie, else Italian;
- the answer's headers are those of Django's own 304 for the same page, language and scheme, learnt
  from the first one that went through Django (``Set-Cookie`` and ``Date`` never copied):
  until Django has answered one, every poll goes through Django.

No query is made here when the shortcut runs as WSGI middleware (the rows are refreshed by the
polls that reach Django, at most once a second), so those connections stay managed by
Django's request cycle alone. Asked by ``manage.py serve``'s event loop
(:meth:`PollShortcut.unchanged_headers`), a captain's poll whose round's rows are older than
their second reads them again (one query of the round), on a connection closed right after:
otherwise every poll of that moment went to Django, each reading the whole round
(docs/speed.md).
"""
from __future__ import annotations

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.db import connections
from django.urls import Resolver404, resolve
from django.utils import translation

from tournaments.captains.views import unchanged_stamp
from tournaments.public.player_views import unchanged_etag

#: Path prefixes of the pages phones poll (captains' links, players' pages).
PREFIXES = ("/c/", "/p/")
#: Paths remembered with their route; the table is emptied when it reaches this size.
MAX_PATHS = 20_000
#: Response headers never replayed from a learnt 304 (per request, or set by the server).
NOT_REPLAYED = frozenset({"etag", "set-cookie", "date"})


def _captain_poll(request, kwargs, language, refresh):
    return unchanged_stamp(request, kwargs["token"], query=False, refresh_rows=refresh)


def _player_poll(request, kwargs, language, refresh):
    return unchanged_etag(request, kwargs["slug"], kwargs["word"], kwargs["number"], language=language)


def _close_own_connections() -> None:
    """Close the connections this thread opened (the event loop's read of a round's rows),
    unless one is inside a transaction (a test's): the loop thread has no request cycle to
    close or recycle them, and a kept one would outlive a database restart."""
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None and not connection.in_atomic_block:
            connection.close()


#: URL name -> function(request, resolved kwargs, language, refresh) returning the current ETag
#: when the browser holds it, else None; ``refresh``: the captains' round rows older than their
#: second may be read again (one query; only the event loop asks, :meth:`PollShortcut.unchanged_headers`).
QUICK = {"captain_state": _captain_poll, "player_page": _player_poll}


class PollShortcut:
    """WSGI middleware: ``PollShortcut(django_application)``; see the module's docstring."""

    def __init__(self, application):
        self.application = application
        self._routes: dict[str, tuple[str, dict] | None] = {}   # path -> (url name, kwargs) or None
        # (url name, language, HTTPS) -> the headers of Django's 304 (HSTS only on HTTPS)
        self._headers: dict[tuple[str, str, bool], list[tuple[str, str]]] = {}

    def __call__(self, environ, start_response):
        key, headers = self._answer(environ, refresh=False)
        if headers is not None:
            start_response("304 Not Modified", headers)
            return [b""]
        if key is None:
            return self.application(environ, start_response)
        return self.application(environ, self._learning(key, start_response))

    def unchanged_headers(self, environ) -> list[tuple[str, str]] | None:
        """The headers of the ``304`` this request gets (a WSGI ``environ``), on the same
        conditions as a call; ``None`` when Django must answer it. Never raises, calls no view
        and writes nothing: ``manage.py serve``'s event loop asks it before handing a poll
        to a worker thread (``tournaments.server.loop_answers``). One exception to "no query":
        a captain's poll whose round's rows are older than their second reads them again (one
        query a second per round and process, on a connection closed right after), so the room's
        polls do not each go to Django for it."""
        try:
            return self._answer(environ, refresh=True)[1]
        finally:
            _close_own_connections()

    def _answer(self, environ, *, refresh: bool) -> tuple[tuple[str, str, bool] | None, list[tuple[str, str]] | None]:
        """``(key, headers)``: the key of a quick route (else None, see :meth:`_unchanged`) and
        the 304's headers when the shortcut answers (else None)."""
        if (environ.get("REQUEST_METHOD") != "GET" or not environ.get("HTTP_IF_NONE_MATCH")
                or not environ.get("PATH_INFO", "").startswith(PREFIXES)):
            return None, None
        try:
            key, etag = self._unchanged(environ, refresh=refresh)
        except Exception:  # anything unexpected: Django answers the request (and reports it)
            return None, None
        headers = self._headers.get(key) if key else None
        if etag and headers is not None:
            return key, [*headers, ("ETag", etag)]
        return key, None

    def _unchanged(self, environ, *, refresh: bool) -> tuple[tuple[str, str, bool] | None, str | None]:
        """``(key, etag)``: the route, language and scheme of a quick route (else None) and
        the ETag when the browser holds the current one (else None)."""
        request = WSGIRequest(dict(environ))  # a copy: Django reads the environ again if it answers
        route = self._route(request.path_info)
        if route is None:
            return None, None
        request.get_host()  # DisallowedHost: Django answers 400 as CommonMiddleware does
        if settings.SECURE_SSL_REDIRECT and not request.is_secure():
            return None, None
        if settings.DISALLOWED_USER_AGENTS:
            return None, None
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)  # config.middleware.ItalianFirstMiddleware
        language = translation.get_language_from_request(request)
        name, kwargs = route
        return (name, language, request.is_secure()), QUICK[name](request, kwargs, language, refresh)

    def _route(self, path: str) -> tuple[str, dict] | None:
        """``(url name, kwargs)`` when Django's resolver maps ``path`` to a quick route."""
        if path in self._routes:
            return self._routes[path]
        try:
            match = resolve(path)
            route = (match.url_name, match.kwargs) if match.url_name in QUICK else None
        except Resolver404:
            route = None
        if len(self._routes) >= MAX_PATHS:
            self._routes.clear()
        self._routes[path] = route
        return route

    def _learning(self, key, start_response):
        """``start_response`` that keeps the headers of Django's 304 for ``key``."""

        def learn(status, headers, exc_info=None):
            if status.startswith("304"):
                self._headers[key] = [(k, v) for k, v in headers if k.lower() not in NOT_REPLAYED]
            return start_response(status, headers, exc_info)

        return learn
