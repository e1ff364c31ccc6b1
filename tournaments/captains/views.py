"""The table captain's page, reached by a table's private link ``/c/<token>/`` (no login),
and the state it polls (``/c/<token>/stato/``).

Like a club bridge score pad: one captain enters the sheet, the other line's captain
verifies it and confirms or disputes; once confirmed only the arbiter changes it (rules.md
§3, "The score sheet and corrections"). The writes are in :mod:`.write_views`, the access
rules of every captain URL in :mod:`.access`; wrong PINs are counted per table and per
tournament in the database (:mod:`.pins`), on the tournament's PIN page (``/t/<slug>/pin/``,
:mod:`.pin_views`).

The poll answers ``200 {"sheet", "clock", "call"}``, or ``304`` (empty) when its
``If-None-Match`` is still the sheet's ``ETag``: a room of 500 phones polls every few
seconds, and an unchanged sheet costs one narrow query (see :func:`sheet_state`).
"""
from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET

from scoring.vp import format_vp, scale_to_dict

from .. import selectors
from ..kinds import kind_of
from ..models import ArbiterCall, Player, Round, ScoreSheet, Table
from . import poll_rows
from .access import limited, line_of_label, table_for
from .call_status import call_json, call_tag, latest_call
from .devices import give_device_cookie

#: Salt of the signed cookie ``arbitro_cs_<table id>`` = the sheet version this browser
#: saved. The other line must confirm with another phone (one phone cannot enter as
#: N/S, switch to E/O and countersign its own sheet).
SAVED_KEY = "captain_saved"


def sheet_json(table: Table, sheet: ScoreSheet | None) -> dict:
    """The sheet as the captain page reads it.

    ``hands``: ``[[ns, ew], ...]`` MP per hand; ``mp``: totals; ``vp``: strings
    (``"14"``, ``"17.5"``); ``entered_line``: ``"ns"``/``"ew"``/``None``;
    ``locked``: no captain may change it any more (confirmed, validated, round closed).
    """
    rnd = table.round
    round_open = rnd.state == Round.State.PUBLISHED
    if sheet is None:
        return {"version": 0, "state": "empty", "state_label": "", "hands": [], "declared": [None, None],
                "mp": [0, 0], "vp": ["0", "0"], "sum_error": False, "entered_by": "", "entered_line": None,
                "confirmed_by": "", "dispute_note": "", "round_open": round_open, "locked": True}
    hands = [[h.ns_score, h.ew_score] for h in sheet.hands.all().order_by("number")]
    locked = (not round_open) or sheet.state in (ScoreSheet.State.CONFIRMED, ScoreSheet.State.VALIDATED)
    return {
        "version": sheet.version,
        "state": sheet.state,
        "state_label": str(sheet.get_state_display()),
        "hands": hands,
        "declared": [sheet.declared_ns, sheet.declared_ew],
        "mp": [sheet.mp_ns, sheet.mp_ew],
        "vp": [format_vp(sheet.vp_ns), format_vp(sheet.vp_ew)],
        "sum_error": sheet.sum_error,
        "arbitral": sheet.arbitral,
        "entered_by": sheet.entered_by,
        "entered_line": line_of_label(sheet.entered_by),
        "confirmed_by": sheet.confirmed_by,
        "dispute_note": sheet.dispute_note,
        "round_open": round_open,
        "locked": locked,
    }


def current_sheet(table: Table, *, fresh: bool = True) -> ScoreSheet | None:
    """The table's sheet: read again (``fresh``, after a write) or as loaded with the table."""
    if fresh:
        return ScoreSheet.objects.filter(table=table).first()
    try:
        return table.sheet
    except ScoreSheet.DoesNotExist:
        return None


def table_lines(table: Table) -> dict[str, dict]:
    """``{"ns": {"number": 12, "name": "Rossi Anna – Verdi Bruno"}, "ew": {...}}`` in one query
    (a resting pair sits N/S)."""
    lines: dict[str, dict] = {}
    rows = (
        Player.objects.filter(pair__seats__table=table)
        .order_by("seat")
        .values_list("pair__seats__line", "pair__number", "last_name", "first_name")
    )
    for line, number, last, first in rows:
        entry = lines.setdefault(line, {"number": number, "display_number": str(number), "names": []})
        entry["names"].append(f"{last} {first}")
    for entry in lines.values():
        entry["name"] = " – ".join(entry.pop("names"))
    if not lines:  # lines formed for the round: an individual partnership, a team's pair
        lines = kind_of(table.round.tournament).formed_line_names(table)
    return lines


def saved_cookie(table: Table) -> str:
    return f"arbitro_cs_{table.pk}"


def remember_saved(request, table: Table, sheet: ScoreSheet) -> None:
    """Note that this browser saved version ``sheet.version`` of ``table``'s sheet.

    Kept in a signed cookie (set on the answer by :func:`_answer`) rather than in the
    session, so a captain's save costs no second database write.
    """
    request.captain_saved = (table, sheet.version)


def saved_here(request, table: Table, sheet: ScoreSheet | None) -> bool:
    """True when this browser saved the current version of ``table``'s sheet."""
    if sheet is None or not sheet.version:
        return False
    if getattr(request, "captain_saved", None) == (table, sheet.version):
        return True
    saved = request.get_signed_cookie(saved_cookie(table), default=None, salt=SAVED_KEY)
    return saved == str(sheet.version)


def sheet_payload(request, table: Table, sheet: ScoreSheet | None) -> dict:
    """:func:`sheet_json` plus ``saved_here`` (this browser saved the current version)."""
    data = sheet_json(table, sheet)
    data["saved_here"] = saved_here(request, table, sheet)
    return data



def page_texts() -> dict[str, str]:
    """Messages the page script shows, translated here so the script stays language-free."""
    return {
        "pick": _("Scegli la tua linea (N/S o E/O) per inserire o confermare lo score."),
        "empty": _("Score da inserire."),
        "entered_mine": _("Score inviato: aspetta la conferma della linea avversaria. Puoi ancora correggerlo."),
        "verify": _("La linea %s ha inserito lo score: controllalo, poi conferma oppure contesta."),
        "verify_arbiter": _("L'arbitro ha inserito lo score: controllalo, poi conferma oppure contesta."),
        "disputed": _("Score contestato: correggetelo o chiamate l'arbitro. Nota:"),
        "confirmed": _("Score confermato: ora solo l'arbitro può modificarlo."),
        "validated": _("Score validato dall'arbitro."),
        "closed": _("Il turno è chiuso: lo score è in sola lettura."),
        "sumerr": _("Attenzione: i totali scritti non corrispondono alla somma delle smazzate."),
        "saved": _("Salvato"),
        "unsent": _("Non inviato"),
        "retry": _("Non inviato, riprovo…"),
        "sending": _("Invio…"),
        "missing": _("Completa tutte le smazzate con multipli di 5."),
        # the field with a wrong value is named, and no totals are computed from a wrong value
        "invalid": _("Smazzata %(h)s, %(line)s: «%(v)s» non è un numero multiplo di 5. Correggi il campo evidenziato."),
        "not_number": _("Smazzata %(h)s, %(line)s: «%(v)s» non è un numero intero."),
        "problems": _("Score non inviato, correggi i campi evidenziati:"),
        "updated": _("Lo score è stato aggiornato da un altro telefono."),
        "note": _("Scrivi che cosa non torna."),
        "reload": _("Sessione scaduta: ricarica la pagina."),
        "ew": _("E/O"),
        "other_phone": _("Lo score va confermato dall'altra linea, con un altro telefono."),
        "call_open": _("Arbitro chiamato: attendi al tavolo."),
        "call_taken": _("L'arbitro ha visto la chiamata e sta arrivando."),
        "call_resolved": _("Chiamata risolta."),
    }


@require_GET
@never_cache
@ensure_csrf_cookie
@limited
def sheet_page(request, token):
    """The captain's phone page: both lines, hand-by-hand entry, live totals and VP."""
    table = table_for(request, token)
    rnd = table.round
    tournament = rnd.tournament
    scale = selectors.scales.scale_of(tournament)
    sheet = None if table.is_bye else current_sheet(table, fresh=False)
    call = latest_call(table)
    data = {
        "token": table.token,
        "table": table.number,
        "hands_per_round": tournament.hands_per_round,
        "scale": scale_to_dict(scale),
        "sheet": sheet_payload(request, table, sheet) if not table.is_bye else None,
        "text": page_texts(),
        "clock": selectors.clock.clock_json(rnd, table),
        "call": call_json(call),
        # the poll's tag of what this page shows: its first poll is a 304 when nothing changed
        "tag": "" if table.is_bye else sheet_stamp(request, table, sheet, call=call),
        "urls": {
            key: reverse(name, args=[table.token])
            for key, name in (("state", "captain_state"), ("save", "captain_save"),
                              ("confirm", "captain_confirm"), ("dispute", "captain_dispute"),
                              ("call", "captain_call"))
        },
    }
    response = render(request, "captain/sheet.html", {
        "table": table,
        "round": rnd,
        "tournament": tournament,
        "lines": table_lines(table),
        "data": data,
        "clock": data["clock"],
        # A rest table has no sheet script: clock.js polls the state URL itself (ETag/304).
        "clock_url": data["urls"]["state"] if table.is_bye else "",
        "hand_numbers": range(1, tournament.hands_per_round + 1),
        "call_reasons": [(v, label) for v, label in ArbiterCall.Reason.choices if v],
    })
    return give_device_cookie(request, response)  # the device of the "same browser?" hint


_READ = object()  # sheet_stamp's call not given: read it


def sheet_stamp(request, table: Table, sheet: ScoreSheet | None, *, call=_READ, saved: bool | None = None) -> str:
    """The poll's entity tag: a short string that changes whenever what the page shows changes.

    Made from the sheet's version, state and last write (a save, a confirmation, a
    dispute, the arbiter's validation or correction), the round's state and when it was
    published or closed, and whether this browser saved the current version (its page
    hides "confirm"), and the round clock's instants and this table's extra time (a pause
    or extra minutes must reach the phones; the remaining seconds are not in the tag, the
    phone counts them down itself). :func:`sheet_state` computes the same tag
    from one narrow query. ``call``: the table's latest call when the caller has read it
    already (``call_status.latest_call``), else it is read here. ``saved``: whether this
    browser saved the current version when the request's cookie does not say it yet (a save's
    answer, which sets the cookie: :func:`saved_here`); by default read from the cookie.
    """
    rnd = table.round
    if call is _READ:
        call = latest_call(table)
    return _stamp(request, table_pk=table.pk, round_state=rnd.state, published_at=rnd.published_at,
                  closed_at=rnd.closed_at, version=sheet.version if sheet else None,
                  state=sheet.state if sheet else None, updated_at=sheet.updated_at if sheet else None,
                  clock=selectors.clock.clock_tag(rnd, table.clock_extra_seconds),
                  call=call_tag(call.pk if call else None, call.state if call else None), saved=saved)


def _stamp(request, *, table_pk, round_state, published_at, closed_at, version, state, updated_at,
           clock: str, call: str, saved: bool | None = None) -> str:
    # call: the table's call to the arbiter, so «Arrivo» reaches the phone at its next poll
    parts = [round_state, _epoch(published_at), _epoch(closed_at), clock, call]
    if version is None:
        parts += ["0", "none"]
    else:
        if saved is None:
            saved = request.get_signed_cookie(f"arbitro_cs_{table_pk}", default=None, salt=SAVED_KEY) == str(version)
        saved = bool(version) and saved
        parts += [str(version), state, _epoch(updated_at), "1" if saved else "0"]
    return '"' + "-".join(parts) + '"'


def _epoch(moment) -> str:
    return f"{moment.timestamp():.6f}" if moment else "0"


def unchanged_stamp(request, token: str, *, query: bool = True, refresh_rows: bool | None = None) -> str | None:
    """The tag of ``token``'s table when the browser already has it (``If-None-Match``), else None.

    First from the round's poll rows read at most a second ago (``poll_rows.recent_row``:
    no query for most polls of a room), then, when that does not match, from one narrow
    query of the table (a few columns of the table, its round and its sheet; not the round's
    pairing data, not the hands). Unknown tokens and draft rounds return None:
    :func:`table_for` then answers them (404, guess counting) as for every captain URL.
    ``query=False`` (``config.poll_shortcut``, before Django's middleware, outside
    the request cycle that manages database connections): only the rows already read, no
    query; None when they are too old or do not match, and the full request answers.
    ``refresh_rows`` (default: as ``query``): the round's rows older than their second are
    read again (the server's event loop asks so, and closes its connection after).
    """
    tags = _if_none_match(request)
    if not tags:
        return None
    recent = poll_rows.recent_row(token, refresh=query if refresh_rows is None else refresh_rows)
    if recent is not None:
        stamp = _row_stamp(request, recent)
        if stamp in tags:
            return stamp
    if not query:
        return None
    stamp = _row_stamp(request, poll_rows.exact_row(token))
    return stamp if stamp in tags else None


def _row_stamp(request, row: dict | None) -> str | None:
    """:func:`sheet_stamp` from a row of ``poll_rows.COLUMNS``; None for no row or a draft."""
    if row is None or row["round__state"] == Round.State.DRAFT:
        return None
    playing = not row["bye"]
    return _stamp(request, table_pk=row["pk"], round_state=row["round__state"],
                  published_at=row["round__published_at"], closed_at=row["round__closed_at"],
                  version=row["sheet__version"] if playing else None, state=row["sheet__state"],
                  updated_at=row["sheet__updated_at"],
                  clock=selectors.clock.clock_tag_of(row["round__clock_started_at"], row["round__clock_paused_at"],
                                              row["round__clock_paused_seconds"],
                                              row["round__clock_added_seconds"], row["round__clock_duration"],
                                              row["clock_extra_seconds"]),
                  call=call_tag(row["call_id"], row["call_state"]))


@require_GET
@never_cache
@limited
def sheet_state(request, token):
    """JSON of the current sheet, polled by the page (the other captain's changes).

    A room of 500 phones polls every few seconds, so the answer carries an ``ETag``
    (:func:`sheet_stamp`); a poll that sends it back in ``If-None-Match`` while nothing
    changed gets ``304 Not Modified`` with no body, after one narrow query, without
    reading the hands or building the JSON. A valid link is never refused by the
    per-address guess limit (a whole room may share one address); an unknown
    token never matches a tag, so it reaches :func:`table_for` and counts as a guess.
    Answer: ``{"sheet": {...}, "clock": {...}, "call": {...} | null}`` (``selectors.clock.clock_json``;
    the table's latest call to the arbiter, ``call_status.call_json``); a rest table has
    no sheet (``"sheet": null``) but the same clock and a tag made of the clock's instants, so
    its page (which polls through clock.js) follows a pause or extra minutes too.
    """
    stamp = unchanged_stamp(request, token)
    if stamp:
        response = HttpResponse(status=304)
        response["ETag"] = stamp
        return response
    table = table_for(request, token)
    poll_rows.remember(token, table.round_id)
    sheet = None if table.is_bye else current_sheet(table, fresh=False)
    # The round clock, for a rest table too: the phone counts down from these
    # seconds, and the clock's instants are in the tag, so a pause reaches a resting pair too.
    payload = {"sheet": None if table.is_bye else sheet_payload(request, table, sheet),
               "clock": selectors.clock.clock_json(table.round, table)}
    call = latest_call(table)
    if not table.is_bye:  # a rest table has no call to the arbiter
        payload["call"] = call_json(call)
    response = JsonResponse(payload)
    response["ETag"] = sheet_stamp(request, table, sheet, call=call)
    return response


def _if_none_match(request) -> list[str]:
    """The entity tags of the ``If-None-Match`` header (weak marks dropped)."""
    # META, not request.headers: that builds a dict of every header, on every poll (docs/speed.md)
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    return [tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()]
