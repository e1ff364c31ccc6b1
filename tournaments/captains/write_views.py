"""The captain's writes: save, confirm and dispute the score sheet (``POST /c/<token>/salva/``,
``conferma/``, ``contesta/``).

The services enforce every rule (``tournaments.services.save_score_sheet``,
``confirm_sheet``, ``dispute_sheet``) and write the audit entry; these views parse JSON,
call one service and answer JSON. Every POST needs Django's CSRF token (header
``X-CSRFToken``; the page sets the cookie with ``ensure_csrf_cookie``).

Answers:

- ``200 {"sheet": {...}, "clock": {...}}`` after a save, a confirmation or a dispute;
- ``409 {"error", "sheet"}``: the sheet changed meanwhile (another phone saved first);
  ``sheet`` is the current one, shown to the captain;
- ``400 {"error", "errors", "sheet"}``: refused (bad numbers, sheet locked, round closed…);
- ``429 {"error"}``: too many attempts.
"""
from __future__ import annotations

from django.db import transaction
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from scoring import sheets as sheet_rules

from .. import selectors, services
from ..errors import ArbiterError, StaleSheetError
from ..i18n_messages import message_text
from ..models import Round, ScoreSheet, Table
from ..services.locks import lock_sheet
from ..text import clean_note
from .access import (
    LINES,
    captain_label,
    limited,
    line_of_label,
    read_body,
    table_for,
    too_many,
    writes_exceeded,
)
from .call_status import call_json, latest_call
from .devices import confirming_mark, device_mark
from .views import SAVED_KEY, current_sheet, remember_saved, saved_cookie, saved_here, sheet_payload, sheet_stamp


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
    sheet = current_sheet(table)
    payload = {"sheet": sheet_payload(request, table, sheet),
               "clock": selectors.clock.clock_json(table.round, table)}
    call = None
    if not error:
        # The answer is what the next poll would show (the call too): it carries the poll's
        # tag, so that poll is a 304 when nothing else changed.
        call = latest_call(table)
        payload["call"] = call_json(call)
    if error:
        # ``errors``: every problem of the sheet at once; ``error``: the same in one sentence
        payload["errors"] = [error, *(details or [])]
        payload["error"] = "; ".join(payload["errors"])
    response = JsonResponse(payload, status=status)
    if not error:
        response["ETag"] = sheet_stamp(request, table, sheet, call=call, saved=saved_here(request, table, sheet))
    saved = getattr(request, "captain_saved", None)
    if saved is not None:
        response.set_signed_cookie(
            saved_cookie(saved[0]), str(saved[1]), salt=SAVED_KEY, max_age=24 * 3600,
            httponly=True, samesite="Lax",
        )
    return response


def _write_view(action):
    """Common frame of the captain's POST endpoints: rate limits, JSON body, errors → JSON."""

    @require_POST
    @never_cache
    @limited
    def view(request, token):
        table = table_for(request, token)
        if writes_exceeded(request, token):
            return too_many(request)
        if table.is_bye:
            return JsonResponse({"error": _("Questo tavolo riposa: non c'è score da inserire.")}, status=400)
        try:
            data = read_body(request)
            action(request, table, data)
        except StaleSheetError as exc:
            return _answer(request, table, status=409, error=exc.message)
        except ArbiterError as exc:
            return _answer(request, table, status=400, error=exc.message, details=exc.details)
        return _answer(request, table)

    view.__name__ = action.__name__
    view.__doc__ = action.__doc__
    return view



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
    and the new content is accepted (a retry after a lost answer is no conflict; the phone
    sends the content rather than its hash because a page on plain HTTP has no
    ``crypto.subtle``). Hand scores beyond
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
    its round is no longer in play: the real reason, rather than a version conflict."""
    refusal = services.round_closed_refusal(Round.objects.get(pk=sheet.table.round_id))
    if refusal:
        raise ArbiterError(refusal)
    version = _version(data)
    if version is not None and version != sheet.version:
        raise StaleSheetError(_("Lo score è cambiato mentre lo guardavi: controlla la versione attuale."),
                              current=sheet)


def _locked_sheet(table: Table) -> ScoreSheet:
    # the one lock order (tournament, round, table, sheet): the service's own, so the
    # confirmation inside takes no lock this transaction does not hold yet
    sheet, _rnd = lock_sheet(table)
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
