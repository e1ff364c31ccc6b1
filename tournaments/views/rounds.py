"""The arbiter's round cycle (issue 5): generate → adjust → publish → score entry →
validate → close, corrections per table, withdrawals, late pairs and standings.

Every write calls one function of :mod:`tournaments.services`; these views only
parse input, call it and render. A refusal (``ArbiterError``) becomes a message;
on the score-entry grid it is shown next to the values just typed so nothing is
lost (architecture.md, "Habits").
"""
from __future__ import annotations

from dataclasses import dataclass, field

import django_tables2 as tables
from django import forms
from django.contrib import messages
from django.db.models import Prefetch
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from scoring import hands as hand_rules
from scoring.vp import format_vp, scale_to_dict

from .. import selectors, services
from ..errors import ArbiterError, StaleSheetError
from ..forms import PairForm
from ..models import Pair, Player, Round, ScoreSheet, Table, Tournament
from .common import arbiter_view

# --------------------------------------------------------------------------- helpers

STATUS_LABELS = {
    "empty": gettext_lazy("Da inserire"),
    "entered": gettext_lazy("Inserito"),
    "sum_error": gettext_lazy("Errore di somma"),
    "confirmed": gettext_lazy("Confermato"),
    "disputed": gettext_lazy("Contestato"),
    "validated": gettext_lazy("Validato"),
}


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def _table(rnd: Round, number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament").prefetch_related("seats__pair__members"),
        round=rnd, number=number,
    )


def _sheet_of(table: Table) -> ScoreSheet | None:
    try:
        return table.sheet
    except ScoreSheet.DoesNotExist:
        return None


def sheet_status(sheet: ScoreSheet | None) -> str | None:
    """The badge (and counter) of a sheet: ``"disputed"`` whenever a line disputed it,
    whatever else is flagged; else ``"sum_error"`` when the declared totals differ from
    the hands (rules.md §3); else its state. None for a table without a sheet (rest,
    draft). A disputed sheet that also has a sum error shows the sum-error mark beside
    the badge (``sheet.sum_error``), so neither is hidden; each sheet is counted once."""
    if sheet is None:
        return None
    if sheet.state == ScoreSheet.State.DISPUTED:
        return "disputed"
    if sheet.sum_error:
        return "sum_error"
    return sheet.state


def can_validate(rnd: Round, sheet: ScoreSheet | None) -> bool:
    """Whether a sheet gets its own "Valida" button (round page and live board alike):
    round in play, sheet entered (by a captain or the arbiter), confirmed or disputed,
    and no sum error (``services.validate_sheet`` refuses one; rules.md §3)."""
    return (sheet is not None and rnd.state == Round.State.PUBLISHED and not sheet.sum_error
            and sheet.state in (ScoreSheet.State.ENTERED, ScoreSheet.State.CONFIRMED, ScoreSheet.State.DISPUTED))


def _optional_url(name: str, *args) -> str:
    """URL of a page another engineer mounts (e.g. ``penalties``); "" until it exists."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


def _round_redirect(rnd: Round):
    return redirect("round", slug=rnd.tournament.slug, number=rnd.number)


def _back(request, fallback: str):
    return redirect(request.META.get("HTTP_REFERER") or fallback)


def _int_field(request, name: str) -> int | None:
    raw = (request.POST.get(name) or request.GET.get(name) or "").strip()
    try:
        return int(raw)
    except ValueError:
        return None


def next_table_to_enter(rnd: Round, after: int = 0) -> Table | None:
    """The first playing table after table ``after`` (wrapping round) whose sheet is empty."""
    empty = list(
        Table.objects.filter(round=rnd, bye="", sheet__state=ScoreSheet.State.EMPTY)
        .order_by("number").values_list("number", flat=True)
    )
    if not empty:
        return None
    number = next((n for n in empty if n > after), empty[0])
    return Table.objects.get(round=rnd, number=number)


def _later_danish_published(rnd: Round) -> Round | None:
    """A later Danish round already published: a correction here does not change its
    pairing (rules.md §3)."""
    return (
        rnd.tournament.rounds.filter(number__gt=rnd.number, system=Round.System.DANISH)
        .exclude(state=Round.State.DRAFT).order_by("number").first()
    )


def _confirm(request, tournament, *, title, text="", button, items=(), ask_reason=False, hidden=None,
             reason_required=True):
    return render(request, "arbiter/round_confirm.html", {
        "tournament": tournament, "title": title, "text": text, "button": button, "items": list(items),
        "ask_reason": ask_reason, "hidden": hidden or {}, "reason_required": reason_required,
    })


# --------------------------------------------------------------------------- round pages


@arbiter_view
def round_current(request, tournament):
    """The latest round's page (the "Turni" tab), or the tournament page before round 1."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return redirect("tournament", slug=tournament.slug)
    return _round_redirect(last)


@arbiter_view
def round_detail(request, tournament, number):
    """One round: draft with the checker's report and hand adjustments, or the tables
    with each sheet's state, results and the actions of the cycle."""
    rnd = _round(tournament, number)
    rows, counts = [], {key: 0 for key in STATUS_LABELS}
    rest_vp, _rest_mp = selectors.rest_values(tournament)
    for table in selectors.round_tables(rnd):
        sheet = _sheet_of(table) if not table.bye else None
        status = sheet_status(sheet)
        if status:
            counts[status] += 1
        rows.append({
            "table": table, "ns": table.ns, "ew": table.ew, "resting": table.resting_pair,
            "sheet": sheet, "status": status, "status_label": STATUS_LABELS.get(status, ""),
            "sum_error_mark": status == "disputed" and sheet.sum_error,
            "can_validate": can_validate(rnd, sheet),
            "vp": (format_vp(rest_vp) if table.bye else
                   f"{format_vp(sheet.vp_ns)}–{format_vp(sheet.vp_ew)}" if status not in (None, "empty") else ""),
        })
    nxt = tournament.rounds.filter(number=number + 1).first()
    playing = [r for r in rows if not r["table"].bye]
    ready_to_close = bool(playing) and all(r["status"] == "validated" for r in playing)
    return render(request, "arbiter/round.html", {
        "tournament": tournament,
        "round": rnd,
        "rows": rows,
        "counts": counts,
        "status_labels": STATUS_LABELS,
        "next_round": nxt,
        "can_generate_next": rnd.state == Round.State.CLOSED and nxt is None
        and number < tournament.rounds_planned,
        "can_reopen": rnd.state == Round.State.CLOSED and (nxt is None or nxt.state == Round.State.DRAFT),
        "ready_to_close": ready_to_close,
        "to_validate": sum(1 for r in playing if bulk_validatable(r["sheet"])),
        "awaiting_confirmation": sum(1 for r in playing if r["status"] == "entered" and r["sheet"].entered_by_captain),
        "next_to_enter": next_table_to_enter(rnd) if rnd.state != Round.State.DRAFT else None,
        "later_danish": _later_danish_published(rnd),
        "penalties_url": _optional_url("penalties", tournament.slug),
        "tournament_url": reverse("tournament", args=[tournament.slug]),
        "first_by_lot": rnd.number == 1 and rnd.seed is not None,
        "round_numbers": list(tournament.rounds.order_by("number").values_list("number", flat=True)),
        "has_rest": any(r["table"].bye == Table.Bye.REST for r in rows),
        "standings_after": standings_link_round(rnd),
    })


def standings_link_round(rnd: Round) -> int | None:
    """The round whose standings the round page links (PDF and Excel alike): this round
    once closed, else the last closed round before it; None while no round is closed
    (then neither link is shown)."""
    if rnd.state == Round.State.CLOSED:
        return rnd.number
    return (rnd.tournament.rounds.filter(state=Round.State.CLOSED, number__lt=rnd.number)
            .order_by("-number").values_list("number", flat=True).first())


@arbiter_view
def round_generate(request, tournament):
    """Generate the next round as a draft (GET: confirmation, with the seed field for a
    first round by lot; it warns when an existing draft will be replaced)."""
    last = tournament.rounds.order_by("-number").first()
    draft = last if last is not None and last.state == Round.State.DRAFT else None
    number = draft.number if draft else (last.number + 1 if last else 1)
    if number > tournament.rounds_planned:
        # Every planned round exists: no offer the service would refuse (rules.md §1).
        return render(request, "arbiter/round_generate.html", {
            "tournament": tournament, "all_generated": True, "last": last,
            "closed_last": last.state == Round.State.CLOSED,
        })
    if request.method == "POST":
        seed = _int_field(request, "seed")
        rnd = services.generate_round(tournament=tournament, by=request.user, seed=seed)
        messages.success(request, _("Turno %(n)s generato (bozza): controlla e pubblica.") % {"n": rnd.number})
        return _round_redirect(rnd)
    return render(request, "arbiter/round_generate.html", {
        "tournament": tournament, "number": number, "draft": draft,
        "system": tournament.system_of_round(number),
        "ask_seed": number == 1 and tournament.first_round == Tournament.FirstRound.LOT,
    })


def _seated_numbers(rnd: Round) -> set[int]:
    return set(rnd.seats.values_list("pair__number", flat=True))


def _report_after_change(request, rnd: Round) -> None:
    rnd.refresh_from_db(fields=["check_report"])
    if rnd.check_report:
        messages.warning(request, _("Il controllo segnala problemi: vedi l'elenco sotto."))
    else:
        messages.success(request, _("Il controllo non segnala problemi."))


@arbiter_view
@require_POST
def round_swap(request, tournament, number):
    """Draft only: swap the seats of two pairs; the checker re-runs."""
    rnd = _round(tournament, number)
    a, b = _int_field(request, "pair_a"), _int_field(request, "pair_b")
    seated = _seated_numbers(rnd)
    if a is None or b is None or a == b:
        raise ArbiterError(_("Indica due numeri di coppia diversi."))
    for n in (a, b):
        if n not in seated:
            raise ArbiterError(_("La coppia %(n)s non è in questo turno.") % {"n": n})
    services.swap_pairs(round=rnd, pair_a=a, pair_b=b, by=request.user)
    messages.success(request, _("Coppie %(a)s e %(b)s scambiate.") % {"a": a, "b": b})
    _report_after_change(request, rnd)
    return _round_redirect(rnd)


@arbiter_view
@require_POST
def round_move_to_rest(request, tournament, number):
    """Draft only: give the rest to another pair; the checker re-runs (art. 33)."""
    rnd = _round(tournament, number)
    n = _int_field(request, "pair")
    if n is None or n not in _seated_numbers(rnd):
        raise ArbiterError(_("Indica il numero di una coppia di questo turno."))
    services.move_to_rest(round=rnd, pair=n, by=request.user)
    messages.success(request, _("Ora riposa la coppia %(n)s.") % {"n": n})
    _report_after_change(request, rnd)
    return _round_redirect(rnd)


@arbiter_view
def round_publish(request, tournament, number):
    """Publish the draft. With a non-empty check report, GET lists the problems and the
    arbiter confirms them (``publish_round(acknowledge_warnings=True)``)."""
    rnd = _round(tournament, number)
    if request.method == "POST":
        services.publish_round(round=rnd, by=request.user,
                               acknowledge_warnings=request.POST.get("acknowledge") == "1")
        messages.success(request, _("Turno %(n)s pubblicato: si gioca.") % {"n": number})
        return _round_redirect(rnd)
    return _confirm(
        request, tournament,
        title=_("Pubblicare il turno %(n)s?") % {"n": number},
        text=_("Il controllo ha segnalato questi problemi. Pubblicando li confermi:") if rnd.check_report
        else _("Il tabellone sarà affisso e gli score aperti."),
        items=rnd.check_report, button=_("Pubblica comunque") if rnd.check_report else _("Pubblica"),
        hidden={"acknowledge": "1"} if rnd.check_report else {},
    )


@arbiter_view
@require_POST
def round_validate_all(request, tournament, number):
    """Convenience: validate every sheet without a sum error that is confirmed by the
    other line or entered by the arbiter (``services.validate_entered_sheets``).
    Disputed sheets, sum errors and sheets a captain entered that the other line has
    not confirmed yet are left for the arbiter, and named in the messages."""
    rnd = _round(tournament, number)
    done = services.validate_entered_sheets(round=rnd, by=request.user)
    if done:
        messages.success(request, ngettext("Validato il tavolo %(t)s.", "Validati i tavoli %(t)s.", len(done))
                         % {"t": ", ".join(map(str, done))})
    else:
        messages.info(request, _("Nessuno score confermato o inserito dall'arbitro da validare."))
    waiting = list(_awaiting_confirmation(rnd).values_list("number", flat=True))
    if waiting:
        messages.info(request, ngettext(
            "Tavolo %(t)s: inserito da un capitano, attende la conferma dell'altra linea "
            "(o validalo tu, tavolo per tavolo).",
            "Tavoli %(t)s: inseriti da un capitano, attendono la conferma dell'altra linea "
            "(o validali tu, tavolo per tavolo).", len(waiting)) % {"t": ", ".join(map(str, waiting))})
    left = Table.objects.filter(round=rnd, bye="").exclude(sheet__state=ScoreSheet.State.VALIDATED).count()
    if left:
        messages.warning(request, ngettext("Resta %(n)s tavolo da inserire, correggere o validare.",
                                           "Restano %(n)s tavoli da inserire, correggere o validare.", left)
                         % {"n": left})
    return _round_redirect(rnd)


def _awaiting_confirmation(rnd: Round):
    """Tables whose sheet a captain entered and the other line has not confirmed yet
    (no sum error): validate-all leaves them alone."""
    return Table.objects.filter(round=rnd, bye="", sheet__state=ScoreSheet.State.ENTERED,
                                sheet__entered_by_captain=True, sheet__sum_error=False).order_by("number")


def bulk_validatable(sheet: ScoreSheet | None) -> bool:
    """Whether validate-all takes this sheet: no sum error, and confirmed by the other
    line or entered by the arbiter (mirrors ``services.validate_entered_sheets``)."""
    if sheet is None or sheet.sum_error:
        return False
    return sheet.state == ScoreSheet.State.CONFIRMED or (
        sheet.state == ScoreSheet.State.ENTERED and not sheet.entered_by_captain)


def tables_not_validated(rnd: Round) -> list[dict]:
    """The playing tables of ``rnd`` whose sheet is not validated yet, ascending:
    ``[{"number": table number, "status": badge key, "status_label": text}]``.
    ``close_round`` refuses while this list is not empty (rules.md §1, *closed*)."""
    pending = []
    for table in (Table.objects.filter(round=rnd, bye="").select_related("sheet").order_by("number")):
        sheet = _sheet_of(table)
        status = sheet_status(sheet) or "empty"
        if status != "validated":
            pending.append({"number": table.number, "status": status, "status_label": STATUS_LABELS[status]})
    return pending


@arbiter_view
def round_close(request, tournament, number):
    """Close the round (every sheet validated); standings freeze for the next pairing.

    GET: the confirmation, listing beforehand the tables not validated yet (state and
    link to each). A refused POST goes back to the round page with the message, not to
    the confirmation offering the same button again."""
    rnd = _round(tournament, number)
    if request.method == "POST":
        try:
            services.close_round(round=rnd, by=request.user)
        except ArbiterError as exc:
            messages.error(request, exc.message)
            return _round_redirect(rnd)
        messages.success(request, _("Turno %(n)s chiuso.") % {"n": number})
        return _round_redirect(rnd)
    pending = tables_not_validated(rnd) if rnd.state == Round.State.PUBLISHED else []
    for row in pending:
        row["url"] = reverse("sheet_corrections" if row["status"] in ("sum_error", "disputed") else "sheet",
                             args=[tournament.slug, number, row["number"]])
    return render(request, "arbiter/round_confirm.html", {
        "tournament": tournament, "title": _("Chiudere il turno %(n)s?") % {"n": number},
        "text": (_("È l'ultimo turno previsto: la classifica dopo questo turno è la classifica finale.")
                 if number >= tournament.rounds_planned
                 else _("La classifica dopo questo turno decide gli accoppiamenti successivi.")),
        "button": _("Chiudi il turno"), "pending": pending, "round": rnd,
        "cancel_url": reverse("round", args=[tournament.slug, number]),
    })


@arbiter_view
def round_reopen(request, tournament, number):
    """Reopen a closed round (reason required) while the next round is at most a draft;
    such a draft is discarded by the service."""
    rnd = _round(tournament, number)
    if request.method == "POST":
        reason = request.POST.get("reason", "").strip()
        if not reason:
            raise ArbiterError(_("Indica il motivo della riapertura."))
        services.reopen_round(round=rnd, by=request.user, reason=reason)
        messages.success(request, _("Turno %(n)s riaperto.") % {"n": number})
        return _round_redirect(rnd)
    nxt = tournament.rounds.filter(number=number + 1).first()
    text = _("Il turno torna in gioco e i suoi score si possono correggere.")
    if nxt is not None and nxt.state == Round.State.DRAFT:
        text += " " + _("La bozza del turno %(n)s sarà eliminata.") % {"n": nxt.number}
    return _confirm(request, tournament, title=_("Riaprire il turno %(n)s?") % {"n": number}, text=text,
                    button=_("Riapri"), ask_reason=True)


# --------------------------------------------------------------------------- score entry


LINES = (("ns", "N/S"), ("ew", gettext_lazy("E/O")))


@dataclass
class Grid:
    """The score-entry grid as typed (strings), so a refused save shows it again."""

    rows: list[dict]
    declared_ns: str = ""
    declared_ew: str = ""
    parts: bool = False
    errors: list[str] = field(default_factory=list)
    reason: str = ""


def _s(value) -> str:
    return "" if value is None else str(value)


def grid_from_sheet(sheet: ScoreSheet | None, hands_per_round: int) -> Grid:
    """The grid filled with a stored sheet (empty rows for an empty sheet)."""
    stored = {h.number: h for h in sheet.hands.all()} if sheet is not None else {}
    rows, parts = [], False
    for i in range(1, hands_per_round + 1):
        h = stored.get(i)
        row = {"number": i}
        for line, _label in LINES:
            row[line] = _s(getattr(h, f"{line}_score", None)) if h else ""
            row[f"{line}_base"] = _s(getattr(h, f"{line}_base", None)) if h else ""
            row[f"{line}_cards"] = _s(getattr(h, f"{line}_cards", None)) if h else ""
            parts = parts or bool(row[f"{line}_base"] or row[f"{line}_cards"])
        rows.append(row)
    return Grid(rows=rows, declared_ns=_s(sheet.declared_ns if sheet else None),
                declared_ew=_s(sheet.declared_ew if sheet else None), parts=parts)


def grid_from_post(post, hands_per_round: int) -> Grid:
    rows = []
    for i in range(1, hands_per_round + 1):
        row = {"number": i}
        for line, _label in LINES:
            for suffix in ("", "_base", "_cards"):
                row[f"{line}{suffix}"] = post.get(f"h{i}_{line}{suffix}", "").strip()
        rows.append(row)
    return Grid(rows=rows, declared_ns=post.get("declared_ns", "").strip(),
                declared_ew=post.get("declared_ew", "").strip(), parts=post.get("parts") == "1",
                reason=post.get("reason", "").strip())


class _NotInt(ValueError):
    pass


def _to_int(raw: str) -> int | None:
    raw = raw.replace("−", "-").replace(" ", "")
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise _NotInt(raw) from None


def parse_grid(grid: Grid) -> tuple[list[services.HandInput], tuple | None, list[str]]:
    """Turn the typed grid into ``HandInput`` rows (MP) and declared totals.

    Per hand and line: the total, or base + cards (a missing part counts 0) which fill
    the total. Returns ``(hands, declared or None, errors)``; errors are Italian
    sentences naming the hand and line. Multiples of 5 are checked by the service.
    """
    hands, errors = [], []
    for row in grid.rows:
        values = {}
        for line, label in LINES:
            where = _("Smazzata %(h)s, linea %(l)s") % {"h": row["number"], "l": label}
            try:
                total, base, cards = (_to_int(row[line]), _to_int(row[f"{line}_base"]),
                                      _to_int(row[f"{line}_cards"]))
            except _NotInt as exc:
                errors.append(_("%(w)s: «%(v)s» non è un numero intero.") % {"w": where, "v": exc.args[0]})
                continue
            if base is None and cards is None:
                if total is None:
                    errors.append(_("%(w)s: manca il punteggio.") % {"w": where})
                    continue
                values[line] = (total, None, None)
                continue
            base, cards = base or 0, cards or 0
            if total is None:
                total = base + cards
            elif total != base + cards:
                errors.append(_("%(w)s: base %(b)s + carte %(c)s = %(s)s, non %(t)s.")
                              % {"w": where, "b": base, "c": cards, "s": base + cards, "t": total})
                continue
            values[line] = (total, base, cards)
        if len(values) == 2:
            ns, ew = values["ns"], values["ew"]
            hands.append(services.HandInput(ns=ns[0], ew=ew[0], ns_base=ns[1], ns_cards=ns[2],
                                            ew_base=ew[1], ew_cards=ew[2]))
    declared = None
    try:
        d_ns, d_ew = _to_int(grid.declared_ns), _to_int(grid.declared_ew)
        if d_ns is not None or d_ew is not None:
            declared = (d_ns, d_ew)
    except _NotInt as exc:
        errors.append(_("Totale dichiarato: «%(v)s» non è un numero intero.") % {"v": exc.args[0]})
    return hands, declared, errors


# The grid marks the reason field required exactly when the service demands one.
correction_needs_reason = services.correction_needs_reason


def sheet_changes(sheet: ScoreSheet, hands: list[services.HandInput], declared: tuple | None) -> bool:
    """Whether saving ``hands`` (MP) and ``declared`` would change the stored sheet
    (an unchanged "Salva e valida" is a validation, not a correction)."""
    stored = [services.HandInput(h.ns_score, h.ew_score, h.ns_base, h.ns_cards, h.ew_base, h.ew_cards)
              for h in sheet.hands.order_by("number")]
    return stored != list(hands) or (sheet.declared_ns, sheet.declared_ew) != tuple(declared or (None, None))


def _sheet_context(request, tournament, rnd, table, sheet, grid, *, typed: Grid | None = None):
    scale = selectors.scale_of(tournament)
    playing = list(Table.objects.filter(round=rnd, bye="").order_by("number").values_list("number", flat=True))
    idx = playing.index(table.number) if table.number in playing else -1
    return {
        "tournament": tournament, "round": rnd, "table": table, "sheet": sheet, "grid": grid,
        "typed": typed, "ns": table.ns, "ew": table.ew,
        "status": sheet_status(sheet), "status_label": STATUS_LABELS.get(sheet_status(sheet), ""),
        "scale": scale, "scale_json": scale_to_dict(scale),
        "prev_table": playing[idx - 1] if idx > 0 else None,
        "next_table": playing[idx + 1] if 0 <= idx < len(playing) - 1 else None,
        "hand_numbers": range(1, tournament.hands_per_round + 1),
        "fgb": tournament.rule_set == Tournament.RuleSet.FGB,
        "read_only": rnd.state == Round.State.CLOSED and rnd.system != Round.System.MITCHELL,
        "later_danish": _later_danish_published(rnd),
        "needs_reason": correction_needs_reason(sheet, rnd),
    }


@arbiter_view
def sheet_entry(request, tournament, number, table):
    """Keyboard-fast score entry for one table (rules.md §2–4).

    POST ``h<i>_ns`` / ``h<i>_ew`` (totals) and optional ``h<i>_<line>_base`` /
    ``_cards``, ``declared_ns`` / ``declared_ew``, ``expected_version``, ``action``
    = ``save`` | ``validate``, ``reason`` (required to change a sheet confirmed,
    validated, disputed or entered by a captain, or of a closed round:
    :func:`correction_needs_reason`; audited). Refusals re-render the typed grid with the message; a
    stale version shows the current sheet and the typed values beside it. After a
    clean save: the next table still to enter.
    """
    rnd = _round(tournament, number)
    table_obj = _table(rnd, table)
    sheet = _sheet_of(table_obj)
    if sheet is None:
        messages.error(request, _("Il tavolo %(t)s non ha uno score (riposo o turno non pubblicato).") % {"t": table})
        return _round_redirect(rnd)
    hands_per_round = tournament.hands_per_round
    if request.method != "POST":
        grid = grid_from_sheet(sheet, hands_per_round)
        return render(request, "arbiter/sheet.html", _sheet_context(request, tournament, rnd, table_obj, sheet, grid))

    grid = grid_from_post(request.POST, hands_per_round)
    hands, declared, errors = parse_grid(grid)
    expected = _int_field(request, "expected_version")
    if not errors and not grid.reason and expected in (None, sheet.version) \
            and correction_needs_reason(sheet, rnd) and sheet_changes(sheet, hands, declared):
        errors = [_("Indica il motivo della correzione.")]
    if not errors:
        try:
            sheet = services.save_score_sheet(
                table=table_obj, hands=hands, declared=declared, by=request.user,
                expected_version=expected,
                validate=request.POST.get("action") == "validate", reason=grid.reason,
            )
        except StaleSheetError as exc:
            messages.error(request, exc.message)
            current = ScoreSheet.objects.get(pk=exc.current.pk)
            ctx = _sheet_context(request, tournament, rnd, table_obj, current,
                                 grid_from_sheet(current, hands_per_round), typed=grid)
            return render(request, "arbiter/sheet.html", ctx, status=409)
        except ArbiterError as exc:
            errors = [exc.message, *exc.details]
    if errors:
        grid.errors = errors
        ctx = _sheet_context(request, tournament, rnd, table_obj, sheet, grid)
        return render(request, "arbiter/sheet.html", ctx, status=400)

    vp = f"{format_vp(sheet.vp_ns)}–{format_vp(sheet.vp_ew)}"
    if sheet.sum_error:
        messages.warning(request, _("Tavolo %(t)s salvato con errore di somma (dichiarato %(d)s, somma %(s)s): "
                                    "correggi o accetta le smazzate.")
                         % {"t": table, "d": f"{sheet.declared_ns}/{sheet.declared_ew}",
                            "s": f"{sheet.mp_ns}/{sheet.mp_ew}"})
        return redirect("sheet", slug=tournament.slug, number=number, table=table)
    label = _("validato") if sheet.state == ScoreSheet.State.VALIDATED else _("salvato")
    messages.success(request, _("Tavolo %(t)s %(what)s: %(ns)s–%(ew)s MP, VP %(vp)s.")
                     % {"t": table, "what": label, "ns": sheet.mp_ns, "ew": sheet.mp_ew, "vp": vp})
    nxt = next_table_to_enter(rnd, after=table)
    if nxt is not None:
        return redirect("sheet", slug=tournament.slug, number=number, table=nxt.number)
    messages.info(request, _("Tutti gli score del turno sono inseriti."))
    return _round_redirect(rnd)


@arbiter_view
def sheet_next(request, tournament, number):
    """Go to the next table whose sheet is still empty (after ``?dopo=<table>``)."""
    rnd = _round(tournament, number)
    nxt = next_table_to_enter(rnd, after=_int_field(request, "dopo") or 0)
    if nxt is None:
        messages.info(request, _("Tutti gli score del turno sono inseriti."))
        return _round_redirect(rnd)
    return redirect("sheet", slug=tournament.slug, number=number, table=nxt.number)


@arbiter_view
@require_POST
def sheet_validate(request, tournament, number, table):
    """Validate one table's sheet (refused with a sum error or while empty)."""
    rnd = _round(tournament, number)
    services.validate_sheet(table=_table(rnd, table), by=request.user)
    messages.success(request, _("Tavolo %(t)s validato.") % {"t": table})
    return _back(request, reverse("round", args=[tournament.slug, number]))


@arbiter_view
def hand_calculator(request, tournament):
    """JSON helper for the entry grid: one line's hand score from burraco counts,
    closing, pot and card values (``scoring.hands``, rules.md §2, the tournament's
    rule set). Returns ``{"base", "cards", "score"}`` (MP) or ``{"error"}`` (400)."""
    def count(name):
        raw = request.GET.get(name, "").strip() or "0"
        return int(raw)

    try:
        detail = hand_rules.HandDetail(
            clean=count("clean"), dirty=count("dirty"), semi_clean=count("semi_clean"), royal=count("royal"),
            super_burraco=count("super_burraco"), closing=request.GET.get("closing") in ("1", "on", "true"),
            pot=request.GET.get("pot") or "taken", pot_cards=count("pot_cards"),
            cards_on_table=count("cards_on_table"), cards_in_hand=count("cards_in_hand"),
        )
        base = hand_rules.hand_base(detail, tournament.rule_set)
        cards = hand_rules.hand_cards(detail)
    except ValueError as exc:  # HandError is a ValueError; so is a non-number
        message = str(exc) if isinstance(exc, hand_rules.HandError) else _("Scrivi solo numeri interi.")
        return JsonResponse({"error": message}, status=400)
    return JsonResponse({"base": base, "cards": cards, "score": base + cards})


# --------------------------------------------------------------------------- corrections


REASON_REQUIRED = gettext_lazy("Indica il motivo della correzione: resta nel registro del tavolo.")


def reason_field(max_length: int = 300) -> forms.CharField:
    """The required reason of every correction (rules.md §3: the audit trail keeps who,
    when, old → new and why); blank or spaces only is refused with a clear message."""
    return forms.CharField(label=gettext_lazy("Motivo"), max_length=max_length,
                           error_messages={"required": REASON_REQUIRED})


class ReasonForm(forms.Form):
    reason = reason_field()


class SumErrorForm(forms.Form):
    """Sum error resolved by accepting the hands: the reason is required like any
    other correction (an empty one left the audit trail without a why)."""

    reason = reason_field()


class ArbitralForm(forms.Form):
    """An arbitral score (art. 15): VP for each line (0 to the scale maximum), optional MP."""

    vp_ns = forms.DecimalField(label=gettext_lazy("VP N/S"), min_value=0, max_digits=6, decimal_places=2,
                               localize=True)
    vp_ew = forms.DecimalField(label=gettext_lazy("VP E/O"), min_value=0, max_digits=6, decimal_places=2,
                               localize=True)
    mp_ns = forms.IntegerField(label=gettext_lazy("MP N/S"), required=False)
    mp_ew = forms.IntegerField(label=gettext_lazy("MP E/O"), required=False)
    reason = reason_field(max_length=200)


@arbiter_view
def sheet_corrections(request, tournament, number, table):
    """Corrections of one table (rules.md §3): sum error (accept the hands, or correct
    them in the grid), swapped lines (reason), arbitral score (art. 15), undo a
    validation; with the table's audit trail link. POST ``action`` picks one."""
    rnd = _round(tournament, number)
    table_obj = _table(rnd, table)
    sheet = _sheet_of(table_obj)
    if sheet is None:
        messages.error(request, _("Il tavolo %(t)s non ha uno score.") % {"t": table})
        return _round_redirect(rnd)
    action = request.POST.get("action") if request.method == "POST" else None
    swap_form = ReasonForm(request.POST if action == "swap" else None, prefix="swap")
    arbitral_form = ArbitralForm(request.POST if action == "arbitral" else None, prefix="arb",
                                 initial={"vp_ns": sheet.vp_ns, "vp_ew": sheet.vp_ew})
    sum_form = SumErrorForm(request.POST if action == "accept_sum" else None, prefix="sum")
    unvalidate_form = ReasonForm(request.POST if action == "unvalidate" else None, prefix="unv")
    done = None
    if action == "swap" and swap_form.is_valid():
        services.swap_sheet_lines(table=table_obj, by=request.user, reason=swap_form.cleaned_data["reason"])
        done = _("Linee invertite al tavolo %(t)s.")
    elif action == "arbitral" and arbitral_form.is_valid():
        d = arbitral_form.cleaned_data
        services.set_arbitral_score(table=table_obj, by=request.user, vp_ns=d["vp_ns"], vp_ew=d["vp_ew"],
                                    mp_ns=d["mp_ns"] or 0, mp_ew=d["mp_ew"] or 0, reason=d["reason"])
        done = _("Punteggio arbitrale assegnato al tavolo %(t)s.")
    elif action == "accept_sum" and sum_form.is_valid():
        services.accept_declared_totals(table=table_obj, by=request.user, reason=sum_form.cleaned_data["reason"])
        done = _("Tavolo %(t)s: valgono le smazzate, totali dichiarati scartati.")
    elif action == "unvalidate" and unvalidate_form.is_valid():
        services.unvalidate_sheet(table=table_obj, by=request.user, reason=unvalidate_form.cleaned_data["reason"])
        done = _("Tavolo %(t)s: validazione annullata.")
    if done:
        messages.success(request, done % {"t": table})
        return redirect("sheet_corrections", slug=tournament.slug, number=number, table=table)
    if action:
        messages.error(request, _("Correzione non eseguita: controlla il modulo qui sotto."))
    sheet.refresh_from_db()
    return render(request, "arbiter/sheet_corrections.html", {
        "tournament": tournament, "round": rnd, "table": table_obj, "sheet": sheet,
        "hands": list(sheet.hands.order_by("number")), "ns": table_obj.ns, "ew": table_obj.ew,
        "status": sheet_status(sheet), "status_label": STATUS_LABELS.get(sheet_status(sheet), ""),
        "swap_form": swap_form, "arbitral_form": arbitral_form, "sum_form": sum_form,
        "unvalidate_form": unvalidate_form, "later_danish": _later_danish_published(rnd),
        "scale": selectors.scale_of(tournament),
        "audit_url": reverse("audit", args=[tournament.slug]) + f"?round={number}&table={table}",
    }, status=400 if action else 200)


# --------------------------------------------------------------------------- withdrawals and late pairs


class WithdrawForm(forms.Form):
    pair = forms.TypedChoiceField(label=gettext_lazy("Coppia"), coerce=int)
    from_round = forms.IntegerField(label=gettext_lazy("Ritirata dal turno"), min_value=1)
    reason = forms.CharField(label=gettext_lazy("Motivo"), max_length=300)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        pairs = tournament.pairs.filter(status=Pair.Status.ACTIVE).prefetch_related("members").order_by("number")
        self.fields["pair"].choices = [(p.number, f"{p.number} {p.name}") for p in pairs]


def first_open_round(tournament: Tournament) -> int:
    """The first round not closed (drawn or not): where a withdrawal takes effect."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return 1
    return last.number + 1 if last.state == Round.State.CLOSED else last.number


@arbiter_view
def pair_withdraw(request, tournament):
    """Withdraw a pair from round k (art. 32): its opponent there gets the forced rest.
    GET ``?coppia=<n>&turno=<k>`` preselects; the page is the confirmation."""
    initial = {"pair": _int_field(request, "coppia"),
               "from_round": _int_field(request, "turno") or first_open_round(tournament)}
    form = WithdrawForm(request.POST or None, tournament=tournament, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        pair = get_object_or_404(Pair, tournament=tournament, number=d["pair"])
        try:
            services.withdraw_pair(pair=pair, from_round=d["from_round"], by=request.user, reason=d["reason"])
        except ArbiterError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Coppia %(n)s ritirata dal turno %(k)s.") % {"n": pair.number,
                                                                                 "k": d["from_round"]})
            rnd = tournament.rounds.filter(number=d["from_round"]).first()
            if rnd is not None:
                forced = rnd.tables.filter(bye=Table.Bye.FORCED).prefetch_related("seats__pair")
                for t in forced:
                    messages.info(request, _("Tavolo %(t)s: riposo forzato per la coppia %(p)s.")
                                  % {"t": t.number, "p": t.resting_pair.number})
                return _round_redirect(rnd)
            return redirect("tournament", slug=tournament.slug)
    return render(request, "arbiter/pair_withdraw.html", {"tournament": tournament, "form": form})


class LatePairForm(PairForm):
    number = None  # a late pair takes the next free number


@arbiter_view
def late_pair(request, tournament):
    """A late pair (art. 33): only during round 1, to complete the incomplete table."""
    form = LatePairForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            pair = services.add_late_pair(tournament=tournament, players=form.players(), by=request.user)
        except ArbiterError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Coppia tardiva %(n)s inserita al tavolo zoppo del turno 1.")
                             % {"n": pair.number})
            return redirect("round", slug=tournament.slug, number=1)
    rnd = tournament.rounds.filter(number=1).first()
    return render(request, "arbiter/late_pair.html", {"tournament": tournament, "form": form, "round": rnd})


# --------------------------------------------------------------------------- standings


def _secondary(cls: str) -> dict:
    """Column attrs of a secondary standings column, hidden on a phone (VP already have
    the penalties deducted; the rest is on the PDF and on a wider screen)."""
    return {"th": {"class": f"{cls} hide-phone"}, "td": {"class": f"{cls} hide-phone"}}


class StandingsTable(tables.Table):
    """Standings (rules.md §8) as a sortable table; rows are dicts built by :func:`standings`."""

    position = tables.Column(verbose_name=gettext_lazy("Pos."), accessor="position_label",
                             order_by=("position",), attrs={"td": {"class": "num"}})
    pair = tables.Column(verbose_name=gettext_lazy("Coppia"), attrs={"td": {"class": "num"}})
    players = tables.Column(verbose_name=gettext_lazy("Giocatori"), orderable=False)
    vp = tables.Column(verbose_name=gettext_lazy("VP"), attrs={"td": {"class": "num"}})
    penalty = tables.Column(verbose_name=gettext_lazy("Penalità"), attrs=_secondary("num"))
    mp_difference = tables.Column(verbose_name=gettext_lazy("Scarto MP"), attrs={"td": {"class": "num"}})
    mp_scored = tables.Column(verbose_name=gettext_lazy("MP totali"), attrs=_secondary("num"))
    played = tables.Column(verbose_name=gettext_lazy("Turni"), attrs=_secondary("num"))
    withdrawn = tables.Column(verbose_name=gettext_lazy("Ritirata"), attrs=_secondary("withdrawn"))

    class Meta:
        attrs = {"class": "grid compact", "id": "standings"}
        per_page = 100
        orderable = True

    def render_vp(self, value):
        return format_vp(value)

    def render_penalty(self, value):
        return f"−{format_vp(value)}" if value else ""

    def render_withdrawn(self, value):
        return _("ritirata") if value else ""


@arbiter_view
def standings(request, tournament):
    """Standings after the closed rounds, or after round N with ``?dopo=N`` (rules.md §8)."""
    closed = list(tournament.rounds.filter(state=Round.State.CLOSED).order_by("number")
                  .values_list("number", flat=True))
    after = _int_field(request, "dopo")
    if after is not None and after not in closed:
        after = None
    rows = selectors.standings(tournament, after_round=after)
    pairs = {
        p.number: p
        for p in tournament.pairs.prefetch_related(Prefetch("members", queryset=Player.objects.order_by("seat")))
    }
    data = [{
        "position": r.position, "position_label": r.position_label, "pair": r.pair,
        "players": pairs[r.pair].full_name if r.pair in pairs else "",
        "vp": r.vp, "penalty": r.penalty, "mp_difference": r.mp_difference, "mp_scored": r.mp_scored,
        "played": r.played, "withdrawn": r.withdrawn,
    } for r in rows]
    table = StandingsTable(data)
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    shown = after if after is not None else (closed[-1] if closed else None)
    return render(request, "arbiter/standings.html", {
        "tournament": tournament, "table": table, "closed": closed, "after": shown,
        "is_final": bool(closed) and shown == tournament.rounds_planned,
        "penalties_url": _optional_url("penalties", tournament.slug),
        "tournament_url": reverse("tournament", args=[tournament.slug]),
    })
