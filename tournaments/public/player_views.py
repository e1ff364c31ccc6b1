"""A player's own page on his phone: ``/p/<slug>/coppia/<n>/`` (pairs), ``/giocatore/<n>/``
(individual), ``/squadra/<n>/`` (teams); read-only, no login, only while the tournament's
public page is switched on (otherwise a plain 404, like the public page).

The same URL answers HTML or, with ``Accept: application/json``, the JSON of
``tournaments.public.pages.page_json``; both say ``Vary: Accept``. Polling like the captain
page: the answer has an ``ETag`` (the tournament's :func:`~tournaments.public.pages.results_tag`,
the entrant, the format and the language); a poll that sends it back in ``If-None-Match``
while nothing changed gets an empty ``304``, the tag being
kept a moment in the process (the tournament's read too, while its public pages stay on:
most polls of a room cost no query). The page's script (static/js/player.js) polls its own URL
every 4–6 s and swaps the content in. Nothing on it reads or shows a captain's link or PIN.
"""
from __future__ import annotations

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from ..captains.devices import give_device_cookie
from ..kinds import kind_of
from ..models import Tournament
from . import pages
from .tag import note_public, recent_public_tag


def _tournament(slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.public_enabled:
        raise Http404
    return tournament


def _wants_json(request) -> bool:
    # META, not request.headers: that builds a dict of every header, on every poll (docs/speed.md)
    accept = request.META.get("HTTP_ACCEPT", "")
    return "application/json" in accept and "text/html" not in accept.split(",")[0]


def _etag(tag: str, word: str, number: int, as_json: bool, language: str | None = None) -> str:
    return f'"{tag}-{word}{number}-{"j" if as_json else "h"}-{language or get_language() or "it"}"'


def _sent_tags(request) -> list[str]:
    return [t.strip().removeprefix("W/") for t in request.META.get("HTTP_IF_NONE_MATCH", "").split(",")]


def unchanged_etag(request, slug: str, word: str, number: int, *, language: str | None = None) -> str | None:
    """The ETag of the entrant's page when the browser's ``If-None-Match`` holds it and the
    tournament was read with its public pages on less than ``ARBITRO_PLAYER_TAG_SECONDS``
    ago (``tag.recent_public_tag``), else None. No query. ``language``: the page's language
    code when the caller has not activated it (``config.poll_shortcut``, before
    Django's LocaleMiddleware); by default the active one."""
    recent = recent_public_tag(slug)
    if recent is None:
        return None
    etag = _etag(recent, word, number, _wants_json(request), language)
    return etag if etag in _sent_tags(request) else None


def _not_modified(etag: str) -> HttpResponse:
    response = HttpResponse(status=304)
    response["ETag"] = etag
    patch_vary_headers(response, ["Accept"])
    return response


def player_url(tournament: Tournament, number: int) -> str:
    """The path of entrant ``number``'s page (its kind's word)."""
    return reverse("player_page", args=[tournament.slug, kind_of(tournament).data.url_word, number])


@require_GET
@never_cache
def entrant_view(request, slug, word, number):
    """The entrant's page (HTML) or its JSON (``Accept: application/json``); 304 when the
    browser's ``If-None-Match`` is current; 404 for a kind that is not the tournament's or an
    unknown number."""
    as_json = _wants_json(request)
    sent = _sent_tags(request)
    recent = unchanged_etag(request, slug, word, number)
    if recent is not None:
        return _not_modified(recent)
    tournament = _tournament(slug)
    tag = pages.results_tag(tournament)
    note_public(slug, tag)
    etag = _etag(tag, word, number, as_json)
    if etag in sent:
        return _not_modified(etag)
    entrant = pages.find_entrant(tournament, word, number, shared_tag=tag)
    if entrant is None:
        raise Http404
    page = pages.entrant_page(tournament, entrant, tag, shared=True)  # a round's pages share one read
    if as_json:
        response = JsonResponse(pages.page_json(page), json_dumps_params={"ensure_ascii": False})
    else:
        response = render(request, "public/player.html", {
            "tournament": tournament, "page": page, "word": word,
            "kind_data": kind_of(tournament).data, "etag": etag,
        })
    response["ETag"] = etag
    patch_vary_headers(response, ["Accept"])
    # a player's phone may become a captain's: its device is born now, before any entry
    return give_device_cookie(request, response)


@require_GET
def search_view(request, slug):
    """``/p/<slug>/cerca/?q=``: an entrant by number, surname or name (a team by its name or a
    player's surname); one match opens his page, several are listed, none says so."""
    tournament = _tournament(slug)
    query = request.GET.get("q", "")
    found = pages.search(tournament, query)
    if len(found) == 1:
        return redirect(player_url(tournament, found[0][0]))
    return give_device_cookie(request, render(request, "public/player_search.html", {
        "tournament": tournament, "kind_data": kind_of(tournament).data, "query": query.strip()[:60],
        "found": [(number, names, player_url(tournament, number)) for number, names in found],
    }))
