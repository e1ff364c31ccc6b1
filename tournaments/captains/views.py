"""The table captain's pages, reached by a table's private link ``/c/<token>/`` (no login).

Like a club bridge score pad: one captain enters the sheet, the other line's
captain verifies it and confirms or disputes; once confirmed only the arbiter
changes it (rules.md §3, "The score sheet and corrections"). The services enforce
every rule (``tournaments.services.save_score_sheet``, ``confirm_sheet``,
``dispute_sheet``) and write the audit entry; these views parse JSON, call one
service and answer JSON.

Security (issue 6, issue 10 items 2–3): a token opens only its own table of its own
round (the body never names a table); draft rounds and unknown tokens are a plain 404;
unknown tokens are rate-limited per client address (:func:`tournaments.captains.devices.client_ip`,
which reads ``X-Forwarded-For`` only from a proxy named in ``ARBITRO_TRUSTED_PROXIES``), but a
valid link is never refused by that limiter: behind a proxy or a hotspot every phone shares
one address. Tokens have about 190 bits, so guessing them is hopeless anyway. Wrong PINs are
counted per table and per tournament in the database (``tournaments.captains.pins``); the
PIN page is per tournament (``/t/<slug>/pin/``). Writes are rate-limited per token. Every POST needs Django's CSRF token
(header ``X-CSRFToken``; the page sets the cookie with ``ensure_csrf_cookie``).

JSON answers:

- ``200 {"sheet": {...}}`` after a save, a confirmation, a dispute or a GET of ``stato/``;
- ``304`` (empty) to a GET of ``stato/`` whose ``If-None-Match`` is still the sheet's ``ETag``
  (issue 10: 500 phones polling; see ``sheet_state``);
- ``409 {"error", "sheet"}``: the sheet changed meanwhile (another phone saved first);
  ``sheet`` is the current one, shown to the captain;
- ``400 {"error", "sheet"}``: refused (bad numbers, sheet locked, round closed…);
- ``429 {"error"}``: too many attempts.
"""
from __future__ import annotations

from functools import wraps

from django.db import transaction
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.core import is_ratelimited

from scoring import sheets as sheet_rules
from scoring.vp import format_vp, scale_to_dict

from .. import selectors, services
from .call_status import call_json, call_tag, latest_call, latest_call_columns
from .devices import (DEVICE_COOKIE, DEVICE_MAX_AGE, client_ip, confirming_mark, device_id, device_mark,
                       new_device_id)
from ..errors import ArbiterError, StaleSheetError
from ..i18n_messages import message_text
from ..kinds import kind_of
from ..models import ArbiterCall, Player, Round, ScoreSheet, Table
from ..text import clean_note, read_json_object

#: Unknown tokens per client address (a valid link is never counted nor refused).
GUESS_RATE = "30/m"
#: Writes per table link (saves, confirmations, disputes, retries included).
WRITE_RATE = "60/m"

LINES = {"ns": "N/S", "ew": "E/O"}

#: Salt of the signed cookie ``arbitro_cs_<table id>`` = the sheet version this browser
#: saved. The other line must confirm with another phone (one phone cannot enter as
#: N/S, switch to E/O and countersign its own sheet).
SAVED_KEY = "captain_saved"



# --------------------------------------------------------------------------- helpers


def captain_label(line: str, table_number: int) -> str:
    """The actor label of a captain in the audit trail: ``"capitano N/S tavolo 3"``.

    ``line``: ``"ns"`` or ``"ew"``. Raises ``KeyError`` for another line.
    """
    return f"capitano {LINES[line]} tavolo {table_number}"


def line_of_label(label: str) -> str | None:
    """``"ns"`` / ``"ew"`` for a captain label made by :func:`captain_label`, else ``None``
    (e.g. the arbiter entered the sheet)."""
    if not label.startswith("capitano "):
        return None
    for code, name in LINES.items():
        if f" {name} " in label:
            return code
    return None


def _guess_blocked(request, *, increment: bool) -> bool:
    return is_ratelimited(
        request, group="captain-guess", key=lambda group, req: client_ip(req), rate=GUESS_RATE,
        method=is_ratelimited.ALL, increment=increment,
    )


def _too_many(request) -> HttpResponse:
    message = _("Troppi tentativi: riprova tra un minuto.")
    if request.method == "POST" or request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"error": message}, status=429)
    return HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")


class _Blocked(Exception):
    """This address sent too many unknown tokens: unknown tokens answer 429 for a while."""


def _table_for(request, token: str) -> Table:
    """The table of ``token`` with its round, tournament, pairs and sheet.

    Raises Http404 for an unknown token or a table of a draft round (its tables may
    still be regenerated); such a token counts as a guess for the per-address limit, and
    raises ``_Blocked`` (429) once the address made too many. A valid token of a published
    or closed round is never counted nor refused (issue 10 item 2: a shared address).
    """
    # No default ordering: it would join rounds and tournaments for nothing.
    table = Table.objects.select_related("round__tournament", "sheet").filter(token=token).order_by().first()
    if table is None or table.round.state == Round.State.DRAFT:
        if _guess_blocked(request, increment=True):
            raise _Blocked
        raise Http404
    return table


def _limited(view):
    """Answer 429 when the address sent too many unknown tokens (see ``_table_for``)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except _Blocked:
            return _too_many(request)

    return wrapper


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


def _current_sheet(table: Table, *, fresh: bool = True) -> ScoreSheet | None:
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


def _saved_cookie(table: Table) -> str:
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
    saved = request.get_signed_cookie(_saved_cookie(table), default=None, salt=SAVED_KEY)
    return saved == str(sheet.version)


def sheet_payload(request, table: Table, sheet: ScoreSheet | None) -> dict:
    """:func:`sheet_json` plus ``saved_here`` (this browser saved the current version)."""
    data = sheet_json(table, sheet)
    data["saved_here"] = saved_here(request, table, sheet)
    return data


def _body(request) -> dict:
    """The JSON object of the body; size, nesting and shape capped (``text.read_json_object``)."""
    return read_json_object(request.body)


def _line(data: dict) -> str:
    line = data.get("line")
    if not isinstance(line, str) or line not in LINES:
        raise ArbiterError(_("Indica se sei la linea N/S o E/O."))
    return line


def _int_or_none(value, what: str) -> int | None:
    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ArbiterError(_("%(what)s: numero non valido.") % {"what": what})
    text = str(value).strip()
    try:
        return int(text)
    except ValueError as exc:
        raise ArbiterError(_("%(what)s: «%(v)s» non è un numero intero.")
                           % {"what": what, "v": clean_note(text, max_length=20)}) from exc


def _version(data: dict) -> int | None:
    """``data["version"]``: the sheet version the phone showed, ``None`` when absent. A value
    no page sends (negative, beyond 9 digits: ``10**30``) is refused with a sentence, never
    read as "no version"."""
    version = _int_or_none(data.get("version"), "version")
    if version is not None and not 0 <= version < 10**9:
        raise ArbiterError(_("Versione dello score non leggibile: ricarica la pagina e riprova."))
    return version


def parse_hands(data: dict, hands_per_round: int) -> tuple[list[services.HandInput], tuple | None]:
    """Hands and declared totals from the JSON body.

    ``data["hands"]``: ``[[ns, ew], ...]`` MP, one pair per hand, exactly
    ``hands_per_round`` of them, every value filled in. ``data["declared"]``:
    optional ``[ns, ew]`` totals written on the paper sheet. Raises ArbiterError
    with an Italian message naming the hand.
    """
    raw = data.get("hands")
    if not isinstance(raw, list) or len(raw) != hands_per_round:
        raise ArbiterError(_("Servono %(n)s smazzate.") % {"n": hands_per_round})
    hands, errors = [], []
    bad = object()  # a value already reported (never 0 or None: both are real readings)

    def number_or_error(value, what: str):
        try:
            return _int_or_none(value, what)
        except ArbiterError as exc:
            errors.append(exc.message)
            return bad

    for number, row in enumerate(raw, start=1):
        if not isinstance(row, (list, tuple)) or len(row) != 2:
            errors.append(_("Smazzata %(n)s: dati non validi.") % {"n": number})
            continue
        ns = number_or_error(row[0], _("Smazzata %(n)s N/S") % {"n": number})
        ew = number_or_error(row[1], _("Smazzata %(n)s E/O") % {"n": number})
        if ns is None or ew is None:
            errors.append(_("Smazzata %(n)s: manca un punteggio.") % {"n": number})
        for line, value in (("ns", ns), ("ew", ew)):
            if value is not None and value is not bad:  # every wrong value in one answer
                errors.extend(message_text(m) for m in sheet_rules.hand_value_problems(number, line, value))
        if ns is not None and ns is not bad and ew is not None and ew is not bad:
            hands.append(services.HandInput(ns=ns, ew=ew))
    declared = data.get("declared")
    pair = None
    if isinstance(declared, (list, tuple)) and len(declared) == 2:
        pair = (number_or_error(declared[0], _("Totale N/S")), number_or_error(declared[1], _("Totale E/O")))
        if pair == (None, None) or bad in pair:
            pair = None
    if errors:
        raise ArbiterError(errors[0], details=errors[1:])
    return hands, pair


def _answer(request, table: Table, *, status: int = 200, error: str = "",
            details: list[str] | None = None) -> JsonResponse:
    payload = {"sheet": sheet_payload(request, table, _current_sheet(table)),
               "clock": services.clock_json(table.round, table)}
    if error:
        # ``errors``: every problem of the sheet at once; ``error``: the same in one sentence
        payload["errors"] = [error, *(details or [])]
        payload["error"] = "; ".join(payload["errors"])
    response = JsonResponse(payload, status=status)
    saved = getattr(request, "captain_saved", None)
    if saved is not None:
        response.set_signed_cookie(
            _saved_cookie(saved[0]), str(saved[1]), salt=SAVED_KEY, max_age=24 * 3600,
            httponly=True, samesite="Lax",
        )
    return response


def _write_view(action):
    """Common frame of the captain's POST endpoints: rate limits, JSON body, errors → JSON."""

    @require_POST
    @never_cache
    @_limited
    def view(request, token):
        table = _table_for(request, token)
        if is_ratelimited(request, group="captain-write", key=lambda g, r: token, rate=WRITE_RATE,
                          method=is_ratelimited.ALL, increment=True):
            return _too_many(request)
        if table.is_bye:
            return JsonResponse({"error": _("Questo tavolo riposa: non c'è score da inserire.")}, status=400)
        try:
            data = _body(request)
            action(request, table, data)
        except StaleSheetError as exc:
            return _answer(request, table, status=409, error=exc.message)
        except ArbiterError as exc:
            return _answer(request, table, status=400, error=exc.message, details=exc.details)
        return _answer(request, table)

    view.__name__ = action.__name__
    view.__doc__ = action.__doc__
    return view


# --------------------------------------------------------------------------- pages


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
        # issue 14 item 7: the field with a wrong value is named, totals are not computed
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
@_limited
def sheet_page(request, token):
    """The captain's phone page: both lines, hand-by-hand entry, live totals and VP."""
    table = _table_for(request, token)
    rnd = table.round
    tournament = rnd.tournament
    scale = selectors.scale_of(tournament)
    sheet = None if table.is_bye else _current_sheet(table, fresh=False)
    data = {
        "token": table.token,
        "table": table.number,
        "hands_per_round": tournament.hands_per_round,
        "scale": scale_to_dict(scale),
        "sheet": sheet_payload(request, table, sheet) if not table.is_bye else None,
        "text": page_texts(),
        "clock": services.clock_json(rnd, table),
        "call": call_json(latest_call(table)),
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
    if not device_id(request):  # the device cookie of the "same browser?" hint (issue 10 item 5)
        response.set_cookie(DEVICE_COOKIE, new_device_id(), max_age=DEVICE_MAX_AGE, httponly=True,
                            samesite="Lax")
    return response


def sheet_stamp(request, table: Table, sheet: ScoreSheet | None) -> str:
    """The poll's entity tag: a short string that changes whenever what the page shows changes.

    Made from the sheet's version, state and last write (a save, a confirmation, a
    dispute, the arbiter's validation or correction), the round's state and when it was
    published or closed, and whether this browser saved the current version (issue 10
    item 1), and the round clock's instants and this table's extra time (issue 12 item 3:
    a pause or extra minutes must reach the phones; the remaining seconds are not in the
    tag, the phone counts them down itself). :func:`sheet_state` computes the same tag
    from one narrow query.
    """
    rnd = table.round
    call = latest_call(table)
    return _stamp(request, table_pk=table.pk, round_state=rnd.state, published_at=rnd.published_at,
                  closed_at=rnd.closed_at, version=sheet.version if sheet else None,
                  state=sheet.state if sheet else None, updated_at=sheet.updated_at if sheet else None,
                  clock=services.clock_tag(rnd, table.clock_extra_seconds),
                  call=call_tag(call.pk if call else None, call.state if call else None))


def _stamp(request, *, table_pk, round_state, published_at, closed_at, version, state, updated_at,
           clock: str, call: str) -> str:
    # call: the table's call to the arbiter, so «Arrivo» reaches the phone at its next poll
    parts = [round_state, _epoch(published_at), _epoch(closed_at), clock, call]
    if version is None:
        parts += ["0", "none"]
    else:
        saved = bool(version) and request.get_signed_cookie(f"arbitro_cs_{table_pk}", default=None,
                                                            salt=SAVED_KEY) == str(version)
        parts += [str(version), state, _epoch(updated_at), "1" if saved else "0"]
    return '"' + "-".join(parts) + '"'


def _epoch(moment) -> str:
    return f"{moment.timestamp():.6f}" if moment else "0"


def _unchanged(request, token: str) -> str | None:
    """The tag of ``token``'s table when the browser already has it (``If-None-Match``), else None.

    One narrow query (a few columns of the table, its round and its sheet; not the
    round's pairing data, not the hands). Unknown tokens and draft rounds return None:
    :func:`_table_for` then answers them (404, guess counting) as for every captain URL.
    """
    tags = _if_none_match(request)
    if not tags:
        return None
    row = (Table.objects.filter(token=token).order_by().annotate(**latest_call_columns())
           .values("pk", "call_id", "call_state", "bye", "round__state", "round__published_at", "round__closed_at",
                   "sheet__version", "sheet__state", "sheet__updated_at", "clock_extra_seconds",
                   "round__clock_started_at", "round__clock_paused_at", "round__clock_paused_seconds",
                   "round__clock_added_seconds", "round__clock_duration").first())
    if row is None or row["round__state"] == Round.State.DRAFT:
        return None
    playing = not row["bye"]
    stamp = _stamp(request, table_pk=row["pk"], round_state=row["round__state"],
                   published_at=row["round__published_at"], closed_at=row["round__closed_at"],
                   version=row["sheet__version"] if playing else None, state=row["sheet__state"],
                   updated_at=row["sheet__updated_at"],
                   clock=services.clock_tag_of(row["round__clock_started_at"], row["round__clock_paused_at"],
                                               row["round__clock_paused_seconds"],
                                               row["round__clock_added_seconds"], row["round__clock_duration"],
                                               row["clock_extra_seconds"]),
                   call=call_tag(row["call_id"], row["call_state"]))
    return stamp if stamp in tags else None


@require_GET
@never_cache
@_limited
def sheet_state(request, token):
    """JSON of the current sheet, polled by the page (the other captain's changes).

    Issue 10 item 1 (500 phones polling): the answer carries an ``ETag``
    (:func:`sheet_stamp`); a poll that sends it back in ``If-None-Match`` while nothing
    changed gets ``304 Not Modified`` with no body, after one narrow query, without
    reading the hands or building the JSON. A valid link is never refused by the
    per-address guess limit (item 2: a whole room may share one address); an unknown
    token never matches a tag, so it reaches :func:`_table_for` and counts as a guess.
    Answer: ``{"sheet": {...}, "clock": {...}, "call": {...} | null}`` (``services.clock_json``;
    the table's latest call to the arbiter, ``call_status.call_json``); a rest table has
    no sheet (``"sheet": null``) but the same clock and a tag made of the clock's instants, so
    its page (which polls through clock.js) follows a pause or extra minutes too.
    """
    stamp = _unchanged(request, token)
    if stamp:
        response = HttpResponse(status=304)
        response["ETag"] = stamp
        return response
    table = _table_for(request, token)
    sheet = None if table.is_bye else _current_sheet(table, fresh=False)
    # The round clock (issue 12 item 3), for a rest table too: the phone counts down from these
    # seconds, and the clock's instants are in the tag, so a pause reaches a resting pair too.
    payload = {"sheet": None if table.is_bye else sheet_payload(request, table, sheet),
               "clock": services.clock_json(table.round, table)}
    if not table.is_bye:  # a rest table has no call to the arbiter
        payload["call"] = call_json(latest_call(table))
    response = JsonResponse(payload)
    response["ETag"] = sheet_stamp(request, table, sheet)
    return response


def _if_none_match(request) -> list[str]:
    """The entity tags of the ``If-None-Match`` header (weak marks dropped)."""
    header = request.headers.get("If-None-Match", "")
    return [tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()]


def _last_sent_hash(data: dict, hands_per_round: int) -> str | None:
    """The content hash of ``data["last_sent"]`` (``{"hands", "declared"}``: what this phone
    sent before, whose answer it may have lost), or ``None`` when absent or unreadable."""
    last = data.get("last_sent")
    if not isinstance(last, dict):
        return None
    try:
        hands, declared = parse_hands(last, hands_per_round)
    except ArbiterError:
        return None
    return services.sheet_content_hash(hands, declared)


def save(request, table, data):
    """Save the sheet as typed by the captain of line ``data["line"]``.

    Body: ``{"line": "ns"|"ew", "hands": [[ns, ew], ...], "declared": [ns, ew]|null,
    "version": <the version the captain started from>, "last_sent": {"hands", "declared"}|null}``.
    ``version`` is required (400 without it). Sending the same sheet again stores nothing
    new (lost answers on a flaky Wi-Fi are re-sent). ``last_sent``: the content this phone
    sent last (its answer may have been lost); when the server holds exactly that content
    (same content hash), an old ``version`` is this phone's own save, not another phone's,
    and the new content is accepted (issue 10 item 6; the phone sends the content rather
    than its hash because a page on plain HTTP has no ``crypto.subtle``). Hand scores beyond
    ±10,000 MP are refused (400). The browser remembers the version it saved, so that it
    cannot confirm it.
    """
    line = _line(data)
    hands_per_round = table.round.tournament.hands_per_round
    hands, declared = parse_hands(data, hands_per_round)
    version = _version(data)
    if version is None:
        raise ArbiterError(_("Manca la versione dello score: ricarica la pagina e riprova."))
    label = captain_label(line, table.number)
    sheet = services.save_score_sheet(
        table=table, hands=hands, declared=declared, expected_version=version,
        last_sent_hash=_last_sent_hash(data, hands_per_round),
        by=services.Actor(label=label), device=device_mark(request),
    )
    # An identical sheet re-typed by the other line stores nothing and stays the first
    # line's: only the browser whose line is recorded as the author saved it.
    if sheet.entered_by == label[:60]:
        remember_saved(request, table, sheet)


def _refuse_own_sheet(request, table: Table, sheet: ScoreSheet) -> None:
    """Refuse a confirmation or dispute from the browser that saved the current version."""
    if saved_here(request, table, sheet):
        raise ArbiterError(_("Lo score va confermato dall'altra linea, con un altro telefono."))


def _check_version(sheet: ScoreSheet, data: dict) -> None:
    """Refuse (409) when ``sheet`` is not the version the captain looked at; first (400) when
    its round is no longer in play, the real reason (issue 9 item 10)."""
    refusal = services.round_closed_refusal(Round.objects.get(pk=sheet.table.round_id))
    if refusal:
        raise ArbiterError(refusal)
    version = _version(data)
    if version is not None and version != sheet.version:
        raise StaleSheetError(_("Lo score è cambiato mentre lo guardavi: controlla la versione attuale."),
                              current=sheet)


def _locked_sheet(table: Table) -> ScoreSheet:
    sheet = ScoreSheet.objects.select_for_update().filter(table=table).first()
    if sheet is None:
        raise ArbiterError(_("Lo score di questo tavolo non è ancora aperto."))
    return sheet


@services.retry_when_busy  # one transaction, retried while SQLite's write lock is taken
def confirm(request, table, data):
    """The other line's captain confirms the sheet he was shown (``data["version"]``).

    Refused when the same line entered it (the other line countersigns, rules.md §3),
    and when this browser saved the current version (a second phone is needed).
    Confirming again an already confirmed sheet answers the sheet (re-sent request).
    """
    line = _line(data)
    label = captain_label(line, table.number)
    with transaction.atomic():
        sheet = _locked_sheet(table)
        if sheet.state == ScoreSheet.State.CONFIRMED and sheet.confirmed_by == label:
            return
        _check_version(sheet, data)
        if line_of_label(sheet.entered_by) == line:
            raise ArbiterError(_("Lo score l'ha inserito la tua linea: deve confermarlo la linea avversaria."))
        _refuse_own_sheet(request, table, sheet)
        entered_at = sheet.updated_at.timestamp() if sheet.updated_at else None
        services.confirm_sheet(table=table, by=services.Actor(label=label),
                               device=confirming_mark(request, entered_at))


@services.retry_when_busy
def dispute(request, table, data):
    """The other line's captain disputes the sheet, with a note for the arbiter.

    Refused like :func:`confirm` for the line or the browser that entered it.
    """
    line = _line(data)
    note = data.get("note")
    note = clean_note(note if isinstance(note, str) else "", max_length=300)
    if not note:
        raise ArbiterError(_("Scrivi che cosa non torna: l'arbitro leggerà la nota."))
    label = captain_label(line, table.number)
    with transaction.atomic():
        sheet = _locked_sheet(table)
        if sheet.state == ScoreSheet.State.DISPUTED and sheet.dispute_note == note:
            return
        _check_version(sheet, data)
        if line_of_label(sheet.entered_by) == line:
            raise ArbiterError(_("Lo score l'ha inserito la tua linea: correggilo invece di contestarlo."))
        _refuse_own_sheet(request, table, sheet)
        services.dispute_sheet(table=table, by=services.Actor(label=label), note=note)


save_view = _write_view(save)
confirm_view = _write_view(confirm)
dispute_view = _write_view(dispute)
