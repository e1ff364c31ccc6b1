"""The room's public pages under ``/p/<slug>/`` (read-only, no login): the table list and
standings, the projector and its clock. The arbiter's switches are on the board's views.

The arbiter turns each page on or off (``Tournament.public_enabled`` /
``projector_enabled``); a page that is off is a plain 404. The table list is the
latest round posted (published or closed, never a draft); the standings are those
after the last closed round (rules.md §8), so players never see half-entered
results.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from scoring.vp import format_vp

from .. import pages, selectors
from ..captains.devices import give_device_cookie
from ..kinds import kind_of
from ..models import Pair, Round, Tournament
from ..printing import documents

#: Seconds a projector screen stays before the next one.
PROJECTOR_SECONDS = 30
#: Rows on one projector screen (table list or standings); the page sizes its rows from
#: the viewport height so that this many always fit (templates/public/projector.html).
PROJECTOR_ROWS = 16


@dataclass(frozen=True)
class PublicTable:
    """One line of the table list: table number, N/S and E/O pairs (Pair or None), rest label."""

    number: int
    ns: Pair | None
    ew: Pair | None
    bye: str


@dataclass(frozen=True)
class PublicStanding:
    """One line of the standings: position label (``"3="`` when tied), pair, VP (text), MP difference."""

    position: str
    pair: Pair | None
    pair_number: int
    vp: str
    mp_difference: int
    played: int
    penalty: str
    withdrawn: bool


def _tournament(slug: str, flag: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not getattr(tournament, flag):
        raise Http404
    return tournament


def current_round(tournament: Tournament) -> Round | None:
    """The latest round the players may see: published or closed (drafts stay private)."""
    return tournament.rounds.exclude(state=Round.State.DRAFT).order_by("-number").first()


def table_list(rnd: Round | None) -> list[PublicTable]:
    """The round's tables in table order (rests last as they are numbered)."""
    if rnd is None:
        return []
    return [
        PublicTable(number=t.number, ns=t.ns, ew=t.ew,  # a resting E/W pair under E/O (rules.md §6)
                    bye=t.get_bye_display() if t.bye else "")
        for t in selectors.round_tables(rnd)
    ]


def public_standings(tournament: Tournament) -> tuple[int | None, list[PublicStanding]]:
    """(last closed round number or None, standings after it), from
    ``selectors.standings_after`` like the arbiter's page and the documents."""
    after, rows, _groups = public_standings_with_groups(tournament)
    return after, rows


def public_standings_with_groups(tournament: Tournament):
    """(last closed round number or None, overall standings, per-group standings): the last
    is ``[(group, [PublicStanding, ...]), ...]`` with the positions within the group
    (rules.md §14, §19: standings per group and overall), empty when the field is not split."""
    view = selectors.standings_after(tournament)
    if view.after_round is None:
        return None, [], []
    pairs = kind_of(tournament).entrants_by_number(tournament)  # one row per pair, player or team
    def line(row):
        return PublicStanding(
            position=row.position_label, pair=pairs.get(row.pair), pair_number=row.pair,
            vp=format_vp(row.vp), mp_difference=row.mp_difference, played=row.played,
            penalty=_penalty_text(row.penalty, row.penalty_mp), withdrawn=row.withdrawn,
        )

    groups = [(g.group, [line(r) for r in g.rows]) for g in pages.groups.standings_by_group(tournament, view)]
    return view.after_round, [line(row) for row in view.rows], groups


def _penalty_text(vp, mp) -> str:
    """"1" for −1 VP (the template adds the sign), "100 MP", both joined; "" for none."""
    parts = [format_vp(vp)] if vp else []
    if mp:
        parts.append(f"{mp} MP")
    return " −".join(parts)


def is_final(tournament: Tournament, after: int | None) -> bool:
    """True when ``after`` (the last closed round number, or None) is the last planned round,
    so the standings are the final ones (as the arbiter's standings page says)."""
    return after is not None and after >= tournament.rounds_planned


def seat_finder(rnd: Round | None) -> list[documents.SeatFinder]:
    """Every player of ``rnd`` alphabetically by surname with pair, table and line, as in
    the printed table list's second part (``documents.RoundDocument.seat_finder``); [] without
    a round. Only names and numbers reach the page: never the captain links."""
    if rnd is None:
        return []
    return documents.round_document(rnd, qr=False).seat_finder


@require_GET
def public_page(request, slug):
    """``/p/<slug>/``: current table list, "find your seat" and standings, for players' phones."""
    tournament = _tournament(slug, "public_enabled")
    rnd = current_round(tournament)
    after, standings, group_standings = public_standings_with_groups(tournament)
    response = render(request, "public/tournament.html", {
        "tournament": tournament, "round": rnd, "tables": table_list(rnd), "seats": seat_finder(rnd),
        "standings": standings, "group_standings": group_standings, "after_round": after, "is_final": is_final(tournament, after),
        **session_texts(tournament, rnd, after),
    })
    # a player's phone may become a captain's: its device is born now, before any entry
    return give_device_cookie(request, response)


def session_texts(tournament: Tournament, rnd: Round | None, after: int | None) -> dict[str, str]:
    """``{"round_session": "Sessione 2", "standings_session": "Sessione 1"}``: the session of
    the table list's round and of the last round the standings count, as the PDFs print them
    (``documents.round_session_text``); "" for a one-session plan or no round (rules.md §11)."""
    return {"round_session": documents.round_session_text(tournament, rnd.number if rnd else None),
            "standings_session": documents.round_session_text(tournament, after)}


def projector_screens(tables: list, standings: list, rows: int = PROJECTOR_ROWS,
                      prizes: list | None = None) -> list[tuple[str, list]]:
    """The cycle of projector screens: table list in chunks of ``rows``, then standings,
    then the prizes (rules.md §18: given only after the last round, so the caller passes
    them only then).

    Returns ``[("tables", chunk), ..., ("standings", chunk), ..., ("prizes", chunk), ...]``;
    at least one screen.
    """
    screens = [("tables", tables[i:i + rows]) for i in range(0, len(tables), rows)]
    screens += [("standings", standings[i:i + rows]) for i in range(0, len(standings), rows)]
    prizes = prizes or []
    screens += [("prizes", prizes[i:i + rows]) for i in range(0, len(prizes), rows)]
    return screens or [("tables", [])]


def round_clock(rnd: Round | None) -> dict | None:
    """The room's clock of ``rnd`` (``selectors.clock.clock_json``), or None when no round is in play
    (no round yet, or the round is closed)."""
    if rnd is None or rnd.state != Round.State.PUBLISHED:
        return None
    return selectors.clock.clock_json(rnd)


@require_GET
@never_cache
def projector_clock_state(request, slug):
    """``/p/<slug>/orologio/stato/``: JSON ``{"round": n, "clock": {...}}`` polled by the projector's
    countdown (rules.md §11; the screens count from the server's seconds)."""
    tournament = _tournament(slug, "projector_enabled")
    rnd = current_round(tournament)
    return JsonResponse({"round": rnd.number if rnd else None, "clock": round_clock(rnd)})


@require_GET
def projector_clock(request, slug):
    """``/p/<slug>/orologio/``: the round clock alone, in figures readable from the back of the
    hall; at zero "tempo scaduto: finite il giro fino allo scarto del mazziere". A button turns
    a beep at 5 minutes and at zero on (off by default)."""
    tournament = _tournament(slug, "projector_enabled")
    rnd = current_round(tournament)
    return render(request, "public/projector_clock.html", {
        "tournament": tournament, "round": rnd, "clock": round_clock(rnd),
        "round_session": documents.round_session_text(tournament, rnd.number if rnd else None),
        "clock_url": reverse("projector_clock_state", args=[slug]),
    })


@require_GET
def projector(request, slug):
    """``/p/<slug>/proiettore/?s=k``: screen k of the cycle; the page moves to the next
    screen (and re-reads the data) every 30 seconds."""
    tournament = _tournament(slug, "projector_enabled")
    rnd = current_round(tournament)
    after, standings = public_standings(tournament)
    prizes = pages.prizes.prize_awards(tournament) if is_final(tournament, after) else []
    screens = projector_screens(table_list(rnd), standings, prizes=prizes)
    try:
        index = int(request.GET.get("s", 0)) % len(screens)
    except ValueError:
        index = 0
    screen_kind, rows = screens[index]
    return render(request, "public/projector.html", {
        "tournament": tournament, "kind_data": kind_of(tournament).data, "round": rnd, "screen_kind": screen_kind,
        "rows": rows, "after_round": after,
        "is_final": is_final(tournament, after),
        "screen": index + 1, "screens": len(screens), "next": (index + 1) % len(screens),
        "refresh": PROJECTOR_SECONDS, "rows_per_screen": PROJECTOR_ROWS,
        "clock": round_clock(rnd), "clock_url": reverse("projector_clock_state", args=[slug]),
        **session_texts(tournament, rnd, after),
    })
