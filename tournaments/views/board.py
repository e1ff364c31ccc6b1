"""The arbiter's live board of a round and the per-round page of captain links (rules.md §3).

The board lists every table with its sheet's state (not started, entered,
confirmed, disputed, validated) and the sum-error flag; its script polls
:func:`board_rows` every 3 s and swaps the HTML fragment in, so the arbiter sees
the captains' changes without reloading. A fragment is only rendered when
something changed (``stamp``: the sheets' last change and version sum).
"""
from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from scoring.vp import format_vp

from .. import clock, selectors, services
from ..captains import links, pins
from ..captains.devices import same_browser
from ..errors import StaleSheetError
from ..models import Round, ScoreSheet, Table
from ..selectors.corrections import corrected_tables, table_audit_url
from ..server import timesource
from ..templatetags.audit import actor_label
from . import board_table, round_cache
from .board_calls import calls_context
from .board_stamp import board_stamp
from .common import arbiter_view
from .disputes import decision_url
from .rounds import STATUS_LABELS, can_validate, entry_time_label, sheet_status, status_label, table_url
from .stale_sheet import stale_sheet_page
from .teams import team_matches

#: Seconds between two polls of the board's script.
POLL_SECONDS = 3


def _round(tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)



def board_rows_context(rnd: Round, request, stamp: str | None = None) -> dict:
    """:func:`build_board_rows_context` and its rows written as HTML (``rows_html``,
    :func:`.board_table.rows_html`), kept per round version and board stamp
    (``round_cache``); each answer puts in the reader's CSRF token and computes the
    room's clock. ``stamp``: the board stamp when the caller has just computed it."""
    stamp = stamp or board_stamp(rnd)
    context = dict(round_cache.cached("board", round_cache.round_version(rnd, stamp),
                                      lambda: _context_and_rows_html(rnd, stamp)))
    context["rows_html"] = board_table.with_csrf_token(context["rows_html"], get_token(request))
    if context["clock"] is not None:
        context["clock"] = selectors.clock.clock_json(rnd)
    return context


def _context_and_rows_html(rnd: Round, stamp: str) -> dict:
    context = build_board_rows_context(rnd, stamp)
    context["rows_html"] = board_table.rows_html(context["rows"], slug=rnd.tournament.slug, round_number=rnd.number)
    return context


def build_board_rows_context(rnd: Round, stamp: str | None = None) -> dict:
    """Rows of the board: one dict per table, plus counts per state.

    The counts are the round page's (``rounds.sheet_status``): a disputed sheet counts
    under "Contestato" even with a sum error; any other sheet with a sum error counts
    under "Errore di somma", not under its state; a table whose sheet
    does not exist yet counts as "Da inserire"; rests are not counted.

    Row keys: ``number``, ``ns`` / ``ew`` (``{"number", "name"}`` or None), ``bye`` (label or ""),
    ``state`` (``ScoreSheet.State`` value or ``"bye"``), ``state_label``, ``state_title`` (the
    stored state's label when the badge reads "Errore di somma", else ""), ``sum_error``,
    ``sum_error_mark`` (a separate sum-error badge: only when the state badge does not say it), ``mp`` / ``vp`` (N/S, E/O), ``entered_by``, ``confirmed_by``,
    ``dispute_note``, ``version``, ``updated_at``, ``url`` (the sheet page),
    ``can_validate`` (``rounds.can_validate``: the round page's rule — entered,
    confirmed or disputed, no sum error, round in play), ``pin_locked`` (PIN entry locked
    after too many wrong PINs), ``same_browser`` (a captain's confirmation
    from a browser that looks like the entry's: ``tournaments.captains.devices.same_browser``),
    ``late`` (rules.md §11: no sheet yet and the table's clock is at zero), ``extra_minutes`` (the
    table's extra time), ``entered_at`` ("inserito 3:10 prima della fine" / "+2:05 oltre il tempo"). Also
    ``clock`` (the room's ``selectors.clock.clock_json`` while the round is in play) and ``late``.
    """
    slug = rnd.tournament.slug
    rows = []
    locked = pins.locked_tables(rnd)
    in_play = rnd.state == Round.State.PUBLISHED
    room_clock = selectors.clock.clock_json(rnd) if in_play else None
    state, now = selectors.clock.clock_state(rnd), timesource.now()
    counts = {key: 0 for key in STATUS_LABELS}
    bye_labels = {value: str(label) for value, label in Table.Bye.choices}
    url_of = table_url("sheet", slug, rnd.number)
    corrected = corrected_tables(rnd)  # corrections after the round closed (rules.md §13)
    # Flat rows (no model instances), as the round page; the board is polled every few seconds.
    for table in selectors.round_page_tables(rnd):
        sheet = table["sheet"]
        number, bye, extra = table["number"], table["bye"], table["clock_extra_seconds"]
        row = {"number": number, "ns": table["ns"], "ew": table["ew"], "bye": bye_labels.get(bye, "") if bye else "",
               "pin_locked": number in locked, "extra_minutes": extra // 60}
        # rules.md §11: a table still playing (no sheet yet) when its time is up
        row["late"] = bool(in_play and state.started and not bye
                           and (sheet is None or sheet.state == ScoreSheet.State.EMPTY)
                           and clock.remaining(state, now, extra) <= 0)
        if bye or sheet is None:
            row.update(state="bye" if bye else "empty", state_label=row["bye"] or _("Da inserire"),
                       state_title="", sum_error=False, sum_error_mark=False, version=0)
            if not bye:
                counts["empty"] += 1
            rows.append(row)
            continue
        status = sheet_status(sheet)
        counts[status] += 1
        row.update(
            state=sheet.state,
            state_label=status_label(sheet),
            # the stored state, in a title when the badge says "Errore di somma" instead
            state_title=str(ScoreSheet.State(sheet.state).label) if status == "sum_error" else "",
            sum_error=sheet.sum_error,
            # a second badge only when the first does not already say it (new-user trial)
            sum_error_mark=sheet.sum_error and status != "sum_error",
            mp=(sheet.mp_ns, sheet.mp_ew),
            vp=(format_vp(sheet.vp_ns), format_vp(sheet.vp_ew)),
            entered_by=actor_label(sheet.entered_by),   # in the reader's language
            confirmed_by=actor_label(sheet.confirmed_by),
            dispute_note=sheet.dispute_note,
            version=sheet.version,
            updated_at=sheet.updated_at,
            url=url_of(number),
            entered_at=entry_time_label(sheet.entered_clock_seconds) if sheet.state != ScoreSheet.State.EMPTY else "",
            can_validate=can_validate(rnd, sheet),
            corrected=number in corrected,
            audit_url=table_audit_url(rnd.tournament, rnd.number, number) if number in corrected else "",
            same_browser=bool(sheet.confirmed_by) and sheet.entered_by_captain
            and sheet.confirmed_by.startswith("capitano ")
            and same_browser(sheet.entry_device, sheet.entry_agent, sheet.confirm_device, sheet.confirm_agent),
        )
        rows.append(row)
    states = [(key, label, counts[key]) for key, label in STATUS_LABELS.items()]
    return {
        "rows": rows,
        "states": states,
        "disputed": [r for r in rows if r["state"] == ScoreSheet.State.DISPUTED],
        "sum_errors": [r for r in rows if r.get("sum_error")],
        "same_browser": [r for r in rows if r.get("same_browser")],
        "pin_locked": [r for r in rows if r.get("pin_locked")],
        "late": [r for r in rows if r.get("late")],
        "clock": room_clock,
        "pin_lock_ends": pins.tournament_pin_lock(rnd.tournament),
        "stamp": stamp or board_stamp(rnd),
        "matches": team_matches(rnd, {r["number"]: r["state"] for r in rows}),  # rules.md §15: by match
        "calls": calls_context(rnd),  # the tables calling the arbiter, at the top of the board
    }


@arbiter_view
@require_GET
def board(request, tournament, number):
    """``/tornei/<slug>/turni/<n>/tabellone-live/``: every table of round ``n``, live."""
    rnd = _round(tournament, number)
    return render(request, "arbiter/board.html", {
        "tournament": tournament,
        "round": rnd,
        "poll_ms": POLL_SECONDS * 1000,
        **board_rows_context(rnd, request),
    })


@arbiter_view
@require_GET
@never_cache
def board_rows(request, tournament, number):
    """The board's rows as an HTML fragment; 204 when ``?stamp=`` is still current."""
    rnd = _round(tournament, number)
    stamp = board_stamp(rnd)
    if request.GET.get("stamp") == stamp:
        return HttpResponse(status=204)
    return render(request, "arbiter/board_rows.html", {"tournament": tournament, "round": rnd,
                                                       **board_rows_context(rnd, request, stamp)})


@arbiter_view
@require_POST
def board_validate(request, tournament, number, table):
    """Validate table ``table``'s sheet from the board (refused with a sum error). A disputed
    sheet is not validated here: the arbiter is sent to its decision page
    (:func:`.disputes.sheet_validate_disputed`; the board links there directly).

    POST ``version``: the sheet version shown on the board when the arbiter pressed
    "Valida". A captain's change since then → 409 with the current sheet (the arbiter
    validates only what he saw); no readable version → 400.
    """
    rnd = _round(tournament, number)
    target = get_object_or_404(Table, round=rnd, number=table)
    raw = request.POST.get("version", "").strip()
    if not raw.isdecimal() or len(raw) > 9:
        return stale_sheet_page(request, tournament, rnd, StaleSheetError(
            _("Manca la versione dello score vista sul tabellone: ricarica il tabellone e riprova."),
            current=ScoreSheet.objects.filter(table=target).first()), status=400)
    sheet = ScoreSheet.objects.filter(table=target).first()
    if sheet is not None and sheet.state == ScoreSheet.State.DISPUTED and sheet.version == int(raw):
        # trust: a disputed sheet needs the arbiter's written decision (its own page)

        return redirect(decision_url(tournament.slug, number, table, back="tabellone", version=int(raw)))
    try:
        services.validate_sheet(table=target, by=request.user, expected_version=int(raw))
    except StaleSheetError as exc:
        return stale_sheet_page(request, tournament, rnd, exc, status=409)
    messages.success(request, _("Tavolo %(t)s validato.") % {"t": table})
    return redirect("board", slug=tournament.slug, number=number)


@arbiter_view
@require_POST
def board_unlock_pin(request, tournament, number, table):
    """Unlock PIN entry of table ``table`` (locked after too many wrong PINs); audited."""
    rnd = _round(tournament, number)
    pins.unlock_table_pin(table=get_object_or_404(Table, round=rnd, number=table), by=request.user)
    messages.success(request, _("PIN del tavolo %(t)s sbloccato.") % {"t": table})
    return redirect("board", slug=tournament.slug, number=number)


@arbiter_view
@require_POST
def board_unlock_tournament_pin(request, tournament, number):
    """Reopen the tournament's PIN page before its lock ends; audited."""
    _round(tournament, number)
    pins.unlock_tournament_pin(tournament=tournament, by=request.user)
    messages.success(request, _("Pagina del PIN sbloccata."))
    return redirect("board", slug=tournament.slug, number=number)


@arbiter_view
@require_GET
def captain_links(request, tournament, number):
    """Every table's captain link as a QR code with its PIN, printable (cut along the lines)."""
    rnd = _round(tournament, number)
    cards = []
    for table in selectors.round_tables(rnd):
        if table.bye:
            continue
        url = links.captain_url(table, request)
        cards.append({"table": table, "url": url, "qr": links.qr_svg(url, scale=3)})
    return render(request, "arbiter/board_links.html", {
        "tournament": tournament,
        "round": rnd,
        "cards": cards,
        "pin_url": links.base_url(request) + reverse("captain_pin", args=[tournament.slug]),
    })


@arbiter_view
def public_switches(request, tournament):
    """The arbiter turns the public page and the projector view on or off."""
    if request.method == "POST":
        services.update_tournament(
            tournament=tournament, by=request.user,
            public_enabled=request.POST.get("public_enabled") == "on",
            projector_enabled=request.POST.get("projector_enabled") == "on",
        )
        messages.success(request, _("Pagine pubbliche aggiornate."))
        return redirect("public_switches", slug=tournament.slug)
    return render(request, "public/switches.html", {"tournament": tournament})
