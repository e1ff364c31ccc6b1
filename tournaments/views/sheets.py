"""Score entry per table (the arbiter's keyboard grid), the hand calculator and
corrections of a sheet (art. 30–31). Writes go through :mod:`tournaments.services`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django import forms
from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring import hands as hand_rules
from scoring import sheets as sheet_rules
from scoring.vp import format_vp, scale_to_dict

from .. import selectors, services
from ..errors import ArbiterError, StaleSheetError
from ..i18n_messages import message_text
from ..models import CorrectionKind, Round, ScoreSheet, Table, Tournament
from ..selectors.corrections import closed_correction_message, corrected_tables, standings_snapshot, table_audit_url
from .common import arbiter_view
from .disputes import decision_page, decision_url
from .rounds import (
    _back,
    _int_field,
    _later_danish_published,
    _round,
    _round_redirect,
    _sheet_of,
    _table,
    next_table_to_enter,
    sheet_status,
    status_label,
)

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
    kind: str = ""
    decision: str = ""  # the arbiter's decision on a disputed sheet ("Salva e valida")


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
                reason=post.get("reason", "").strip(), kind=post.get("kind", "").strip(),
                decision=post.get("decision", "").strip()[:300])


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
        for line, value in values.items():  # every wrong value in the same answer (not one per save)
            errors.extend(message_text(m) for m in sheet_rules.hand_value_problems(row["number"], line, value[0]))
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
    if errors and declared and len(hands) == len(grid.rows):
        # the sum check too, so the arbiter sees it with the other problems (rules.md §3)
        sums = (sum(h.ns for h in hands), sum(h.ew for h in hands))
        for label, said, total in ((_("N/S"), declared[0], sums[0]), (_("E/O"), declared[1], sums[1])):
            if said is not None and said != total:
                errors.append(_("Errore di somma, linea %(line)s: dichiarato %(declared)s, somma delle smazzate "
                                "%(sum)s.") % {"line": label, "declared": said, "sum": total})
    return hands, declared, errors


# The grid marks the reason field required exactly when the service demands one.
correction_needs_reason = services.correction_needs_reason

# The kinds of correction made in the grid; swapped lines and arbitral scores have their
# own forms on the corrections page (rules.md §3).
GRID_KINDS = (CorrectionKind.TRANSCRIPTION, CorrectionKind.SUM_ERROR)


def grid_kinds(sheet: ScoreSheet, rnd: Round) -> list[tuple[str, str, str | None]]:
    """The grid's kind choices ``[(value, label, refusal or None)]`` for ``sheet``."""
    return [k for k in services.allowed_correction_kinds(sheet, rnd) if k[0] in GRID_KINDS]


def sheet_changes(sheet: ScoreSheet, hands: list[services.HandInput], declared: tuple | None) -> bool:
    """Whether saving ``hands`` (MP) and ``declared`` would change the stored sheet
    (an unchanged "Salva e valida" is a validation, not a correction)."""
    stored = [services.HandInput(h.ns_score, h.ew_score, h.ns_base, h.ns_cards, h.ew_base, h.ew_cards)
              for h in sheet.hands.order_by("number")]
    return stored != list(hands) or (sheet.declared_ns, sheet.declared_ew) != tuple(declared or (None, None))


def _sheet_context(request, tournament, rnd, table, sheet, grid, *, typed: Grid | None = None):
    scale = selectors.scales.scale_of(tournament)
    playing = list(Table.objects.filter(round=rnd, bye="").order_by("number").values_list("number", flat=True))
    idx = playing.index(table.number) if table.number in playing else -1
    closed = rnd.state == Round.State.CLOSED
    correcting = request.method == "POST" or request.GET.get("correggi") == "1"
    return {
        "tournament": tournament, "round": rnd, "table": table, "sheet": sheet, "grid": grid,
        "typed": typed, "ns": table.ns, "ew": table.ew,
        "status": sheet_status(sheet), "status_label": status_label(sheet),
        "scale": scale, "scale_json": scale_to_dict(scale),
        "prev_table": playing[idx - 1] if idx > 0 else None,
        "next_table": playing[idx + 1] if 0 <= idx < len(playing) - 1 else None,
        "hand_numbers": range(1, tournament.hands_per_round + 1),
        "fgb": tournament.rule_set == Tournament.RuleSet.FGB,
        "later_danish": _later_danish_published(rnd),
        "needs_reason": correction_needs_reason(sheet, rnd),
        "grid_kinds": grid_kinds(sheet, rnd) if sheet.state != ScoreSheet.State.EMPTY else [],
        # rules.md §3: a closed round's grid is read-only until "Correggi" (?correggi=1);
        # then its fields wait for a correction kind (entry.js; the service refuses anyway)
        "locked": closed and not correcting,
        "needs_kind_first": closed and correcting,
        # a correction after the round closed (rules.md §13), linked to the table's audit entries
        "corrected": table.number in corrected_tables(rnd),
        "corrected_audit_url": table_audit_url(tournament, rnd.number, table.number),
    }


def _version_field(request, name: str) -> int | None:
    """POST ``name``: the sheet version the page showed. ``None`` when absent or blank (the
    check is skipped, as for an old page); a value that is not a version (letters, 30
    digits) is refused with a sentence (ArbiterError), never read as "no version"."""
    raw = (request.POST.get(name) or "").strip()
    if not raw:
        return None
    if not raw.isdecimal() or len(raw) > 9:
        raise ArbiterError(_("Versione dello score non leggibile: ricarica la pagina e riprova."))
    return int(raw)


@arbiter_view
def sheet_entry(request, tournament, number, table):
    """Keyboard-fast score entry for one table (rules.md §2–4).

    POST ``h<i>_ns`` / ``h<i>_ew`` (totals) and optional ``h<i>_<line>_base`` /
    ``_cards``, ``declared_ns`` / ``declared_ew``, ``expected_version``, ``action``
    = ``save`` | ``validate``, ``kind`` (``transcription`` | ``sum_error``: required
    for every change of a sheet already entered, art. 31; audited), ``reason``
    (required to change a sheet confirmed, validated, disputed or entered by a
    captain, or of a closed round: :func:`correction_needs_reason`; audited). A closed
    round's sheet is corrected here directly, without reopening the round (the kind
    decides whether it is still allowed). Refusals re-render the typed grid with the message; a
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
        if sheet.draft is not None:  # the arbiter's unfinished draft
            grid = grid_from_post(sheet.draft.get("cells", {}), hands_per_round)
            grid.parts = bool(sheet.draft.get("parts"))
        return render(request, "arbiter/sheet.html", _sheet_context(request, tournament, rnd, table_obj, sheet, grid))

    grid = grid_from_post(request.POST, hands_per_round)
    if request.POST.get("action") == "draft":
        return _save_draft(request, tournament, rnd, table_obj, sheet, grid)
    hands, declared, errors = parse_grid(grid)
    parse_failed = bool(errors)  # the kind and reason checks below join these, all in one answer
    expected = _version_field(request, "expected_version")
    if request.POST.get("round_state") == Round.State.PUBLISHED and rnd.state == Round.State.CLOSED:
        # a page opened while the round was in play, sent after it closed (Back button):
        # say so, save nothing, show the sheet as it is with the typed values beside it
        messages.error(request, services.closed_since_message(rnd))
        ctx = _sheet_context(request, tournament, rnd, table_obj, sheet,
                             grid_from_sheet(sheet, hands_per_round), typed=grid)
        ctx["closed_since"] = True
        return render(request, "arbiter/sheet.html", ctx, status=409)
    validating_dispute = (request.POST.get("action") == "validate" and sheet.state == ScoreSheet.State.DISPUTED
                          and expected in (None, sheet.version))
    if validating_dispute and not errors and not sheet_changes(sheet, hands, declared) and not grid.decision:
        # trust: "Salva e valida" of a disputed sheet left as it is asks for the arbiter's decision
        return decision_page(request, tournament, rnd, table_obj, sheet, back="score", reason=grid.reason)
    if validating_dispute and not grid.decision:
        # trust: a disputed sheet changed and validated in one go still records the decision
        errors.append(services.dispute_refusal(table_obj.number))
    if not parse_failed and expected in (None, sheet.version) and sheet.state != ScoreSheet.State.EMPTY \
            and sheet_changes(sheet, hands, declared):
        if not grid.kind:
            errors.append(services.correction_refusal("", rnd=rnd, sheet=sheet))
        if not grid.reason and correction_needs_reason(sheet, rnd):
            errors.append(_("Indica il motivo della correzione."))
    closed_before = None
    if rnd.state == Round.State.CLOSED and not errors:  # what the correction moves (rules.md §13)
        closed_before = (standings_snapshot(tournament), (sheet.vp_ns, sheet.vp_ew), sheet.version)
    if not errors:
        try:
            sheet = services.save_score_sheet(
                table=table_obj, hands=hands, declared=declared, by=request.user,
                expected_version=expected,
                validate=request.POST.get("action") == "validate", reason=grid.reason, kind=grid.kind,
                decision=grid.decision,
            )
        except StaleSheetError as exc:
            messages.error(request, exc.message)
            current = ScoreSheet.objects.get(pk=exc.current.pk)
            ctx = _sheet_context(request, tournament, rnd, table_obj, current,
                                 grid_from_sheet(current, hands_per_round), typed=grid)
            ctx["closed_since"] = Round.objects.get(pk=rnd.pk).state == Round.State.CLOSED
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
    if closed_before is not None and sheet.version != closed_before[2]:
        kind = dict(CorrectionKind.choices).get(grid.kind, grid.kind)
        messages.success(request, closed_correction_message(tournament, rnd, table, str(kind), closed_before[0],
                                                            closed_before[1], (sheet.vp_ns, sheet.vp_ew)))
        return _round_redirect(rnd)
    label = _("validato") if sheet.state == ScoreSheet.State.VALIDATED else _("salvato")
    messages.success(request, _("Tavolo %(t)s %(what)s: %(ns)s–%(ew)s MP, VP %(vp)s.")
                     % {"t": table, "what": label, "ns": sheet.mp_ns, "ew": sheet.mp_ew, "vp": vp})
    nxt = next_table_to_enter(rnd, after=table)
    if nxt is not None:
        return redirect("sheet", slug=tournament.slug, number=number, table=nxt.number)
    messages.info(request, _("Tutti gli score del turno sono inseriti."))
    return _round_redirect(rnd)


def _save_draft(request, tournament, rnd, table_obj, sheet, grid):
    """"Salva bozza": keep the typed cells without the completeness check."""
    cells = {key: value for key, value in request.POST.items()
             if (key.startswith("h") and "_" in key) or key in ("declared_ns", "declared_ew")}
    try:
        sheet = services.save_sheet_draft(table=table_obj, cells=cells, by=request.user, parts=grid.parts,
                                          expected_version=_version_field(request, "expected_version"))
    except StaleSheetError as exc:
        messages.error(request, exc.message)
        current = ScoreSheet.objects.get(pk=exc.current.pk)
        ctx = _sheet_context(request, tournament, rnd, table_obj, current,
                             grid_from_sheet(current, tournament.hands_per_round), typed=grid)
        return render(request, "arbiter/sheet.html", ctx, status=409)
    except ArbiterError as exc:
        grid.errors = [exc.message, *exc.details]
        return render(request, "arbiter/sheet.html",
                      _sheet_context(request, tournament, rnd, table_obj, sheet, grid), status=400)
    messages.info(request, _("Tavolo %(t)s: bozza salvata, incompleta. Non conta finché non la salvi per "
                             "intero; il turno non si chiude con una bozza aperta.") % {"t": table_obj.number})
    return _round_redirect(rnd)


@arbiter_view
def sheet_draft_discard(request, tournament, number, table):
    """"Scarta bozza": GET asks for confirmation, POST (``expected_version``)
    throws the arbiter's draft away; the sheet stays empty and captains may enter it again."""
    rnd = _round(tournament, number)
    table_obj = _table(rnd, table)
    sheet = _sheet_of(table_obj)
    sheet_url = reverse("sheet", args=[tournament.slug, number, table])
    if sheet is None or sheet.draft is None:
        messages.info(request, _("Tavolo %(t)s: non c'è una bozza da scartare.") % {"t": table})
        return redirect(sheet_url)
    if request.method != "POST":
        return render(request, "arbiter/confirm.html", {
            "tournament": tournament,
            "title": _("Scartare la bozza del tavolo %(t)s?") % {"t": table},
            "text": _("Le smazzate scritte finora si perdono; lo score torna vuoto e i capitani possono di "
                      "nuovo inserirlo. L'operazione resta nel registro."),
            "button": _("Scarta la bozza"), "hidden": {"expected_version": sheet.version},
        })
    try:
        services.discard_sheet_draft(table=table_obj, by=request.user,
                                     expected_version=_version_field(request, "expected_version"))
    except StaleSheetError as exc:
        messages.error(request, exc.message)
        return redirect(sheet_url)
    messages.success(request, _("Tavolo %(t)s: bozza scartata, lo score è vuoto.") % {"t": table})
    return redirect(sheet_url)


@arbiter_view
def sheet_next(request, tournament, number):
    """Go to the next table whose sheet is still empty (after ``?dopo=<table>``)."""
    rnd = _round(tournament, number)
    if rnd.state == Round.State.DRAFT:  # a draft has no sheets yet: nothing to enter
        messages.info(request, _("Il turno %(n)s non è ancora pubblicato: gli score si inseriscono dopo la "
                                 "pubblicazione.") % {"n": rnd.number})
        return _round_redirect(rnd)
    nxt = next_table_to_enter(rnd, after=_int_field(request, "dopo") or 0)
    if nxt is None:
        messages.info(request, _("Tutti gli score del turno sono inseriti."))
        return _round_redirect(rnd)
    return redirect("sheet", slug=tournament.slug, number=number, table=nxt.number)


@arbiter_view
@require_POST
def sheet_validate(request, tournament, number, table):
    """Validate one table's sheet (refused with a sum error or while empty). ``expected_version``
    (optional): the version the arbiter looked at; a sheet changed since is refused with the
    current one (he validates only what he saw). A disputed sheet goes to its decision page instead
    (trust: :func:`.disputes.sheet_validate_disputed`)."""
    rnd = _round(tournament, number)
    table_obj = _table(rnd, table)
    sheet, expected = _sheet_of(table_obj), _version_field(request, "expected_version")
    if sheet is not None and sheet.state == ScoreSheet.State.DISPUTED and expected in (None, sheet.version):
        return redirect(decision_url(tournament.slug, number, table, back="turno", version=expected))
    try:
        services.validate_sheet(table=table_obj, by=request.user, expected_version=expected)
    except StaleSheetError as exc:
        messages.error(request, exc.message)
        return redirect("round", slug=tournament.slug, number=number)
    messages.success(request, _("Tavolo %(t)s validato.") % {"t": table})
    return _back(request, reverse("round", args=[tournament.slug, number]))


@arbiter_view
def hand_calculator(request, tournament):
    """JSON helper for the entry grid: one line's hand score from burraco counts,
    closing, pot and card values (``scoring.hands``, rules.md §2, the tournament's
    rule set). ``other_closing=1``: the other line of the same hand closed (then this one
    may not). Returns ``{"base", "cards", "score"}`` (MP) or ``{"error"}`` (400)."""
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
        # only one line closes in a hand (rules.md §2): the grid says whether the other line
        # of the same hand was already calculated as closing
        hand_rules.check_single_closing(detail.closing, request.GET.get("other_closing") in ("1", "on", "true"))
        base = hand_rules.hand_base(detail, tournament.rule_set)
        cards = hand_rules.hand_cards(detail)
    except ValueError as exc:  # HandError is a ValueError; so is a non-number
        message = str(exc) if isinstance(exc, hand_rules.HandError) else _("Scrivi solo numeri interi.")
        return JsonResponse({"error": message}, status=400)
    return JsonResponse({"base": base, "cards": cards, "score": base + cards})




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
    mp_ns = forms.IntegerField(label=gettext_lazy("MP N/S"), required=False, min_value=-1_000_000,
                               max_value=1_000_000)
    mp_ew = forms.IntegerField(label=gettext_lazy("MP E/O"), required=False, min_value=-1_000_000,
                               max_value=1_000_000)
    reason = reason_field(max_length=200)


@arbiter_view
def sheet_corrections(request, tournament, number, table):
    """Corrections of one table (rules.md §3, art. 31): sum error (accept the hands, or
    correct them in the grid), swapped lines (reason), arbitral score (art. 15), undo a
    validation; with the table's audit trail link. POST ``action`` picks one. The page
    lists every correction kind and whether it is still allowed; a closed round is
    corrected directly. A refusal re-renders the page with the typed form (400)."""
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
    done, refusal = None, None
    closed_before = None
    if rnd.state == Round.State.CLOSED and action in ("swap", "arbitral", "accept_sum"):
        closed_before = (standings_snapshot(tournament), (sheet.vp_ns, sheet.vp_ew))
    try:
        if action == "swap" and swap_form.is_valid():
            services.swap_sheet_lines(table=table_obj, by=request.user, reason=swap_form.cleaned_data["reason"])
            done = _("Linee invertite al tavolo %(t)s.")
        elif action == "arbitral" and arbitral_form.is_valid():
            d = arbitral_form.cleaned_data
            services.set_arbitral_score(table=table_obj, by=request.user, vp_ns=d["vp_ns"], vp_ew=d["vp_ew"],
                                        mp_ns=d["mp_ns"] or 0, mp_ew=d["mp_ew"] or 0, reason=d["reason"])
            done = _("Punteggio arbitrale assegnato al tavolo %(t)s.")
        elif action == "accept_sum" and sum_form.is_valid():
            services.accept_declared_totals(table=table_obj, by=request.user,
                                            reason=sum_form.cleaned_data["reason"])
            done = _("Tavolo %(t)s: valgono le smazzate, totali dichiarati scartati.")
        elif action == "unvalidate" and unvalidate_form.is_valid():
            services.unvalidate_sheet(table=table_obj, by=request.user,
                                      reason=unvalidate_form.cleaned_data["reason"])
            done = _("Tavolo %(t)s: validazione annullata.")
    except ArbiterError as exc:  # refused by the rules (e.g. art. 31): the typed form stays
        refusal = exc.message
    if done and closed_before is not None:  # a closed round: the kind and what moved (rules.md §13)
        kinds = {"swap": CorrectionKind.SWAPPED_LINES, "arbitral": CorrectionKind.ARBITRAL,
                 "accept_sum": CorrectionKind.SUM_ERROR}
        sheet.refresh_from_db()
        messages.success(request, closed_correction_message(
            tournament, rnd, table, str(kinds[action].label), closed_before[0], closed_before[1],
            (sheet.vp_ns, sheet.vp_ew)))
        return redirect("sheet_corrections", slug=tournament.slug, number=number, table=table)
    if done:
        messages.success(request, done % {"t": table})
        return redirect("sheet_corrections", slug=tournament.slug, number=number, table=table)
    if refusal:
        messages.error(request, refusal)
    elif action:
        messages.error(request, _("Correzione non eseguita: controlla il modulo qui sotto."))
    sheet.refresh_from_db()
    return render(request, "arbiter/sheet_corrections.html", {
        "tournament": tournament, "round": rnd, "table": table_obj, "sheet": sheet,
        "hands": list(sheet.hands.order_by("number")), "ns": table_obj.ns, "ew": table_obj.ew,
        "status": sheet_status(sheet), "status_label": status_label(sheet),
        "swap_form": swap_form, "arbitral_form": arbitral_form, "sum_form": sum_form,
        "unvalidate_form": unvalidate_form, "later_danish": _later_danish_published(rnd),
        "kinds": services.allowed_correction_kinds(sheet, rnd),
        "sum_refusal": services.correction_refusal(CorrectionKind.SUM_ERROR, rnd=rnd, sheet=sheet),
        "scale": selectors.scales.scale_of(tournament),
        "audit_url": reverse("audit", args=[tournament.slug]) + f"?round={number}&table={table}",
    }, status=400 if action else 200)


