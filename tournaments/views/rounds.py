"""The arbiter's round cycle (rules.md §1): generate → adjust → publish → score entry →
validate → close. Score entry is in :mod:`.sheets`, withdrawals and late pairs in
:mod:`.incidents`, the standings page in :mod:`.standings`.

Every write calls one function of :mod:`tournaments.services`; these views only
parse input, call it and render. A refusal (``ArbiterError``) becomes a message;
on the score-entry grid it is shown next to the values just typed so nothing is
lost (README.md, "Layout").
"""
from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.vp import format_vp

from .. import selectors, services, wording
from ..clock import MAX_ADD_MINUTES
from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import Round, ScoreSheet, Table, Tournament
from ..selectors.corrections import corrected_tables
from ..selectors.sheets import STATUS_LABELS, sheet_status, status_label  # noqa: F401 (one set of names)
from ..services import lateness
from ..transfer import backups
from . import round_cache
from .board_stamp import board_stamp
from .common import arbiter_view, query_int
from .round_table import rows_html
from .teams import team_matches


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def _table(rnd: Round, number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament").prefetch_related("seats__pair__members", "seats__pair__line_members__player"),
        round=rnd, number=number,
    )


def _sheet_of(table: Table) -> ScoreSheet | None:
    try:
        return table.sheet
    except ScoreSheet.DoesNotExist:
        return None


def can_validate(rnd: Round, sheet: ScoreSheet | None) -> bool:
    """Whether a sheet gets its own "Valida" button (round page and live board alike):
    round in play, sheet entered (by a captain or the arbiter), confirmed or disputed,
    and no sum error (``services.validate_sheet`` refuses one; rules.md §3). For a disputed
    sheet the button opens its decision page (trust: ``views.disputes``), never one click."""
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
    """POST or GET ``name`` as an integer, ``None`` when missing, not a number or beyond the
    database's 64-bit integers (``common.query_int``)."""
    return query_int(request.POST.get(name) or request.GET.get(name))


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
        rnd.tournament.rounds.filter(number__gt=rnd.number,
                                     system__in=[Round.System.DANISH, Round.System.DANISH_INDIVIDUAL])
        .exclude(state=Round.State.DRAFT).order_by("number").first()
    )


def _confirm(request, tournament, *, title, text="", button, items=(), ask_reason=False, hidden=None,
             reason_required=True, cancel_url=None):
    return render(request, "arbiter/round_confirm.html", {
        "tournament": tournament, "title": title, "text": text, "button": button, "items": list(items),
        "ask_reason": ask_reason, "hidden": hidden or {}, "reason_required": reason_required,
        "cancel_url": cancel_url,
    })




@arbiter_view
def round_current(request, tournament):
    """The latest round's page (the "Turni" tab), or the tournament page before round 1."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return redirect("tournament", slug=tournament.slug)
    return _round_redirect(last)


def table_url(name: str, slug: str, number: int):
    """``table number → URL`` of the per-table page ``name`` of round ``number``, built from
    one ``reverse()`` (not one per table: 250-table round pages)."""
    marker = 987654321
    head, tail = reverse(name, args=[slug, number, marker]).split(str(marker))
    return lambda table: f"{head}{table}{tail}"


def round_rows(tournament: Tournament, rnd: Round) -> list[dict]:
    """The rows of the round page's table list, one per table, ascending (no
    model instances, every label and URL computed here once, not by template tags in the
    loop). Keys: ``number``, ``bye`` (``""``/``"rest"``/``"forced"``), ``bye_label``,
    ``ns``/``ew``/``resting`` (``{"number", "name"}`` or None), ``sheet``
    (:class:`selectors.SheetSummary` or None), ``status`` (:func:`sheet_status`),
    ``status_label``, ``sum_error_mark``, ``awaiting`` (entered by a captain, not confirmed),
    ``dispute_note``, ``can_validate``, ``entered_at``, ``extra_seconds`` and ``extra_minutes`` (the table's extra clock time), ``mp`` (``(ns, ew)``
    or None), ``vp`` (text), and the URLs ``sheet_url``, ``validate_url``,
    ``corrections_url``, ``audit_url``, ``decide_url`` (a disputed sheet's decision page, else ""),
    ``corrected`` (corrected after the round closed: :func:`selectors.corrections.corrected_tables`),
    ``group`` (the table's group in a round drawn in groups, rules.md §14, §19; else None)."""
    rest_vp, _rest_mp = selectors.scales.rest_values(tournament)
    rest_vp = format_vp(rest_vp)
    bye_labels = {value: str(label) for value, label in Table.Bye.choices}
    status_labels = {key: str(label) for key, label in STATUS_LABELS.items()}
    sheet_url = table_url("sheet", tournament.slug, rnd.number)
    validate_url = table_url("sheet_validate", tournament.slug, rnd.number)
    corrections_url = table_url("sheet_corrections", tournament.slug, rnd.number)
    decide_url = table_url("sheet_validate_disputed", tournament.slug, rnd.number)
    audit_url = f"{reverse('audit', args=[tournament.slug])}?round={rnd.number}&table="
    corrected = corrected_tables(rnd)  # corrections after the round closed (rules.md §13)
    groups = selectors.table_groups(rnd)
    rows = []
    for table in selectors.round_page_tables(rnd):
        n, bye = table["number"], table["bye"]
        sheet = table["sheet"] if not bye else None
        status = sheet_status(sheet)
        filled = status not in (None, "empty", "draft")  # the arbiter's draft is not a result yet
        rows.append({
            "number": n, "bye": bye, "bye_label": bye_labels.get(bye, ""), "ns": table["ns"], "ew": table["ew"],
            "resting": (table["ns"] or table["ew"]) if bye else None,
            "resting_line": ("ns" if table["ns"] else "ew") if bye else "",
            "sheet": sheet, "status": status, "status_label": status_labels.get(status, ""),
            "sum_error_mark": status == "disputed" and sheet.sum_error,
            "awaiting": status == "awaiting",
            "dispute_note": sheet.dispute_note if status == "disputed" else "",
            "arbitral": sheet is not None and sheet.arbitral,
            "can_validate": can_validate(rnd, sheet),
            "entered_at": entry_time_label(sheet.entered_clock_seconds) if filled else "",
            "extra_seconds": table["clock_extra_seconds"], "extra_minutes": table["clock_extra_seconds"] // 60,
            "mp": (sheet.mp_ns, sheet.mp_ew) if filled else None,
            "vp": (rest_vp if bye else f"{format_vp(sheet.vp_ns)}–{format_vp(sheet.vp_ew)}" if filled else ""),
            # trust: a disputed sheet's "Valida" opens the arbiter's decision page
            "decide_url": f"{decide_url(n)}?da=turno&versione={sheet.version}" if status == "disputed" else "",
            "sheet_url": sheet_url(n), "validate_url": validate_url(n), "corrections_url": corrections_url(n),
            "audit_url": f"{audit_url}{n}",
            "corrected": n in corrected,
            "group": groups.get(n),
        })
    return rows


def _rows_and_html(tournament: Tournament, rnd: Round) -> tuple[list[dict], str]:
    rows = round_rows(tournament, rnd)
    return rows, rows_html(rows, in_play=rnd.state != Round.State.DRAFT)


@arbiter_view
def round_detail(request, tournament, number):
    """One round: draft with the checker's report and hand adjustments, or the tables
    with each sheet's state, results and the actions of the cycle.

    A 250-table round answers within the room's load (``bench/round_page.py``):
    the rows come from :func:`round_rows` (three flat queries) and are written by
    :func:`.round_table.rows_html`, and the per-table "Valida" buttons share one form
    (one CSRF token for the page)."""
    rnd = _round(tournament, number)
    if rnd.state == Round.State.CLOSED:
        for warning in backups.take_failures(tournament.pk):  # a failed automatic backup
            messages.warning(request, warning)
    # per round version (round_cache): rows and their HTML are built once between two writes
    rows, html = round_cache.cached("round", round_cache.round_version(rnd, board_stamp(rnd)),
                                    lambda: _rows_and_html(tournament, rnd))
    counts = {key: 0 for key in STATUS_LABELS}
    for row in rows:
        if row["status"]:
            counts[row["status"]] += 1
    others = _rounds_around(tournament, rnd)
    nxt = others["next"]
    playing = [r for r in rows if not r["bye"]]
    outdated = services.draft_staleness(rnd) if rnd.state == Round.State.DRAFT else []
    ready_to_close = bool(playing) and all(r["status"] == "validated" for r in playing)
    # The first playing table whose sheet is empty (as next_table_to_enter(rnd), without a query).
    next_to_enter = next((r for r in playing if r["status"] == "empty"), None) \
        if rnd.state != Round.State.DRAFT else None
    return render(request, "arbiter/round.html", {
        "tournament": tournament,
        "round": rnd,
        "rows_html": html,
        "grouped": any(r.get("group") for r in rows),  # rules.md §19: the tables' group column
        "counts": counts,
        "status_labels": STATUS_LABELS,
        "next_round": nxt,
        "can_generate_next": rnd.state == Round.State.CLOSED and nxt is None
        and number < tournament.rounds_planned,
        "can_reopen": rnd.state == Round.State.CLOSED and (nxt is None or nxt.state == Round.State.DRAFT),
        "ready_to_close": ready_to_close,
        "to_validate": sum(1 for r in playing if bulk_validatable(r["sheet"])),
        "awaiting_confirmation": sum(1 for r in playing if r["awaiting"]),
        "awaiting_rows": [r for r in playing if r["awaiting"] and r["can_validate"]],
        "any_validate": any(r["can_validate"] for r in rows),
        "next_to_enter": next_to_enter,
        "later_danish": others["later_danish"],
        "penalties_url": _optional_url("penalties", tournament.slug),
        "tournament_url": reverse("tournament", args=[tournament.slug]),
        "first_by_lot": rnd.number == 1 and rnd.seed is not None,
        "matches": team_matches(rnd, {r["number"]: r["status"] for r in rows}),
        "round_numbers": others["numbers"],
        "has_rest": any(r["bye"] == Table.Bye.REST for r in rows)
        or (kind_of(tournament).data.has_matches and rnd.matches.filter(bye="rest").exists()),
        "idle_pairs": _idle_pairs(rnd),
        "standings_after": others["standings_after"],
        "outdated": outdated,
        "generate_state": services.generation_state(tournament),
        "lateness": _lateness_help(tournament) if rnd.state == Round.State.PUBLISHED else None,
        **_clock_context(rnd),
    })


@dataclass(frozen=True)
class _RoundRef:
    """Another round of the tournament as the round page shows it: its number and state."""

    number: int
    state: str


def _rounds_around(tournament: Tournament, rnd: Round) -> dict:
    """What the round page shows of the tournament's other rounds, from one read of their
    numbers, states and systems (the page is polled every second; these were four queries):
    ``next`` (round ``rnd.number + 1`` or None), ``later_danish`` (as
    :func:`_later_danish_published`), ``numbers`` (every round's, ascending) and
    ``standings_after`` (as :func:`standings_link_round`)."""
    rows = list(tournament.rounds.order_by("number").values_list("number", "state", "system"))
    danish = (Round.System.DANISH, Round.System.DANISH_INDIVIDUAL)
    closed_before = [n for n, state, _system in rows if state == Round.State.CLOSED and n < rnd.number]
    return {
        "next": next((_RoundRef(n, state) for n, state, _system in rows if n == rnd.number + 1), None),
        "later_danish": next((_RoundRef(n, state) for n, state, system in rows
                              if n > rnd.number and system in danish and state != Round.State.DRAFT), None),
        "numbers": [n for n, _state, _system in rows],
        "standings_after": rnd.number if rnd.state == Round.State.CLOSED else max(closed_before, default=None),
    }


def _lateness_help(tournament) -> dict:
    """The «Ritardo» form's help, from the settings (rules.md §22, ``services.lateness``):
    ``{"grace", "forfeit"}`` minutes, ``penalty_mp``, ``present_vp`` and ``late_vp`` (text;
    a match's, from the team scale, with the summed margin)."""
    values = lateness.late_values(tournament)
    values.update(lateness.match_values(tournament) or {})
    return {"grace": lateness.GRACE_MINUTES, "forfeit": lateness.FORFEIT_MINUTES,
            "penalty_mp": values["penalty_mp"], "present_vp": format_vp(values["present_vp"]),
            "late_vp": format_vp(values["late_vp"])}


def entry_time_label(seconds: int | None) -> str:
    """When a sheet was entered relative to the round clock (rules.md §11, slow tables):
    :func:`tournaments.wording.clock_entered_text` ("inserito 3:10 prima della fine", "+2:05
    oltre il tempo", "" when the clock had not started)."""
    return wording.clock_entered_text(seconds)


def _clock_context(rnd: Round) -> dict:
    if rnd.state != Round.State.PUBLISHED:
        return {}
    data = selectors.clock.clock_json(rnd)
    return {"clock": data, "clock_minutes": data["duration"] // 60,
            "clock_added_minutes": rnd.clock_added_seconds // 60}


CLOCK_ACTIONS = ("start", "pause", "resume", "add", "table")


@arbiter_view
@require_POST
def round_clock(request, tournament, number):
    """The round clock's buttons (rules.md §11). POST ``action``: ``start``, ``pause``,
    ``resume``, ``add`` (``minutes`` to the whole room) or ``table`` (``minutes`` more for
    table number ``table``). A refusal becomes a message; every action is audited."""
    rnd = _round(tournament, number)
    action = request.POST.get("action", "")
    if action not in CLOCK_ACTIONS:
        raise ArbiterError(_("Azione dell'orologio sconosciuta."))
    if action == "start":
        services.start_clock(round=rnd, by=request.user)
        messages.success(request, _("Orologio avviato."))
    elif action == "pause":
        services.pause_clock(round=rnd, by=request.user)
        messages.success(request, _("Orologio in pausa."))
    elif action == "resume":
        services.resume_clock(round=rnd, by=request.user)
        messages.success(request, _("Orologio ripartito."))
    else:
        minutes = _int_field(request, "minutes")
        if minutes is None:
            raise ArbiterError(_("Indica un numero di minuti tra 1 e %(max)s.") % {"max": MAX_ADD_MINUTES})
        if action == "add":
            services.add_clock_minutes(round=rnd, minutes=minutes, by=request.user)
            messages.success(request, _("%(m)s minuti dati a tutta la sala.") % {"m": minutes})
        else:
            number_ = _int_field(request, "table")
            table = Table.objects.filter(round__tournament=tournament, round=rnd, number=number_).first() \
                if number_ is not None else None
            if table is None:
                raise ArbiterError(_("Il turno %(r)s non ha un tavolo %(t)s.")
                                   % {"r": rnd.number, "t": request.POST.get("table", "")[:6]})
            services.give_table_extra_time(table=table, round=rnd, minutes=minutes, by=request.user)
            messages.success(request, _("%(m)s minuti in più al tavolo %(t)s.") % {"m": minutes, "t": table.number})
    return _round_redirect(rnd)


def _idle_pairs(rnd: Round) -> tuple | None:
    """(resting pair, forced-resting pair, table) when they may play together, else None."""
    tables = services.idle_pairs_seatable(rnd)
    if tables is None:
        return None
    rest_table, forced_table = tables
    return rest_table.resting_pair.number, forced_table.resting_pair.number, forced_table.number


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
        # The form posts the round it offered and the state it showed:
        # a repeated or stale post changes nothing (see services.generate_round).
        rnd = services.generate_round(
            tournament=tournament, by=request.user, seed=_int_field(request, "seed"),
            expected_round=_int_field(request, "expected_round"),
            expected_state=request.POST.get("state") or None,
        )
        if rnd.already_generated:
            messages.info(request, _("Il turno %(n)s era già stato generato con questa richiesta: "
                                     "nulla è cambiato.") % {"n": rnd.number})
        else:
            messages.success(request, _("Turno %(n)s generato (bozza): controlla e pubblica.") % {"n": rnd.number})
        return _round_redirect(rnd)
    return render(request, "arbiter/round_generate.html", {
        "tournament": tournament, "number": number, "draft": draft,
        "state": services.generation_state(tournament),
        "system": Round.System(tournament.system_of_round(number)).label,
        "ask_seed": number == 1 and tournament.first_round == Tournament.FirstRound.LOT,
    })


def _seated_numbers(rnd: Round) -> set[int]:
    """The numbers the arbiter may type by hand in the draft: pairs, or teams."""
    return kind_of(rnd.tournament).hand_numbers(rnd)


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
    if kind_of(tournament).data.swaps_players:  # swap two players (a first round by hand, rules.md §9)
        if a is None or b is None or a == b:
            raise ArbiterError(_("Indica due numeri di giocatore diversi."))
        services.swap_players(round=rnd, player_a=a, player_b=b, by=request.user)
        messages.success(request, _("Giocatori %(a)s e %(b)s scambiati.") % {"a": a, "b": b})
        _report_after_change(request, rnd)
        return _round_redirect(rnd)
    seated = _seated_numbers(rnd)  # pairs, or teams by their numbers
    if a is None or b is None or a == b:
        raise ArbiterError(wording.by_kind(tournament, pairs=_("Indica due numeri di coppia diversi."),
                                           individual=_("Indica due numeri di coppia diversi."),
                                           teams=_("Indica due numeri di squadra diversi.")))
    for n in (a, b):
        if n not in seated:
            missing = wording.by_kind(tournament, pairs=_("La coppia %(n)s non è in questo turno."),
                                      individual=_("La coppia %(n)s non è in questo turno."),
                                      teams=_("La squadra %(n)s non è in questo turno."))
            raise ArbiterError(missing % {"n": n})
    services.swap_pairs(round=rnd, pair_a=a, pair_b=b, by=request.user)
    done = wording.by_kind(tournament, pairs=_("Coppie %(a)s e %(b)s scambiate."),
                           individual=_("Coppie %(a)s e %(b)s scambiate."),
                           teams=_("Squadre %(a)s e %(b)s scambiate."))
    messages.success(request, done % {"a": a, "b": b})
    _report_after_change(request, rnd)
    return _round_redirect(rnd)


@arbiter_view
@require_POST
def round_by_hand(request, tournament, number):
    """Draft of round 1 of an individual tournament: the arbiter's tables, one a line
    ("1+2 v 3+4"), replace the draft's (``services.set_first_round_by_hand``)."""
    rnd = _round(tournament, number)
    services.set_first_round_by_hand(round=rnd, text=request.POST.get("tables", "")[:20000], by=request.user)
    messages.success(request, _("Tavoli del turno 1 scritti a mano."))
    _report_after_change(request, rnd)
    return _round_redirect(rnd)


@arbiter_view
@require_POST
def round_seat_idle_pairs(request, tournament, number):
    """Seat the resting pair and the forced-resting pair together at the incomplete table
    (draft, or published with no sheet entered; ``services.seat_idle_pairs_together``)."""
    rnd = _round(tournament, number)
    pairs = _idle_pairs(rnd)
    services.seat_idle_pairs_together(round=rnd, by=request.user)
    messages.success(request, _("Le coppie %(a)s e %(b)s giocano insieme al tavolo %(t)s.")
                     % {"a": pairs[0], "b": pairs[1], "t": pairs[2]})
    if rnd.state == Round.State.DRAFT:
        _report_after_change(request, rnd)
    return _round_redirect(rnd)


@arbiter_view
@require_POST
def round_move_to_rest(request, tournament, number):
    """Draft only: give the rest to another pair; the checker re-runs (art. 33)."""
    rnd = _round(tournament, number)
    n = _int_field(request, "pair")
    if n is None or n not in _seated_numbers(rnd):
        raise ArbiterError(wording.by_kind(tournament, pairs=_("Indica il numero di una coppia di questo turno."),
                                           individual=_("Indica il numero di una coppia di questo turno."),
                                           teams=_("Indica il numero di una squadra di questo turno.")))
    services.move_to_rest(round=rnd, pair=n, by=request.user)
    done = wording.by_kind(tournament, pairs=_("Ora riposa la coppia %(n)s."),
                           individual=_("Ora riposa la coppia %(n)s."), teams=_("Ora riposa la squadra %(n)s."))
    messages.success(request, done % {"n": n})
    _report_after_change(request, rnd)
    return _round_redirect(rnd)


@arbiter_view
@require_POST
def round_redraw(request, tournament, number):
    """Draw an outdated draft again in one click (rules.md §12); a draft already
    current is left as it is (a repeated click changes nothing)."""
    rnd = services.redraw_round(round=_round(tournament, number), by=request.user)
    if rnd.already_generated:
        messages.info(request, _("La bozza del turno %(n)s è già aggiornata: nulla è cambiato.") % {"n": number})
    else:
        messages.success(request, _("Turno %(n)s ridisegnato con la classifica e le impostazioni attuali.")
                         % {"n": number})
    return _round_redirect(rnd)


@arbiter_view
def round_publish(request, tournament, number):
    """Publish the draft. With a non-empty check report, GET lists the problems and the
    arbiter confirms them (``publish_round(acknowledge_warnings=True)``). An outdated
    draft goes back to its page, which says why and offers the redraw."""
    rnd = _round(tournament, number)
    if request.method == "GET" and rnd.state == Round.State.DRAFT and services.draft_staleness(rnd):
        return _round_redirect(rnd)
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
        items=rnd.check_messages, button=_("Pubblica comunque") if rnd.check_report else _("Pubblica"),
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
    waiting = list(_awaiting_confirmation(rnd).values_list("number", flat=True))
    # One sentence with both counts; the round page lists the waiting
    # sheets, each with its own "Valida" (after looking at it)
    text = ngettext("%(n)s score validato", "%(n)s score validati", len(done)) % {"n": len(done)}
    if done:
        text += " " + ngettext("(tavolo %(t)s)", "(tavoli %(t)s)", len(done)) % {"t": ", ".join(map(str, done))}
    if waiting:
        text += "; " + ngettext(
            "%(m)s inserito da un capitano non ancora confermato dall'altra linea: tavolo %(t)s. "
            "Guardalo e validalo dall'elenco qui sotto, se è giusto.",
            "%(m)s inseriti dai capitani non ancora confermati dall'altra linea: tavoli %(t)s. "
            "Guardali e validali uno per uno dall'elenco qui sotto, se sono giusti.",
            len(waiting)) % {"m": len(waiting), "t": ", ".join(map(str, waiting))}
    else:
        text += "."
    (messages.success if done else messages.info)(request, text)
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


class _RedirectThen(HttpResponseRedirect):
    """A redirect that runs ``after`` (jobs ``() -> None``) once it has been sent: the WSGI
    server calls ``close()`` after writing the answer, so the browser follows the redirect
    while they run."""

    def __init__(self, url: str, *, after: list):
        super().__init__(url)
        self._after = list(after)

    def close(self):
        jobs, self._after = self._after, []
        try:
            for job in jobs:
                job()
        finally:
            super().close()


@arbiter_view
def round_close(request, tournament, number):
    """Close the round (every sheet validated); standings freeze for the next pairing.

    GET: the confirmation, listing beforehand the tables not validated yet (state and
    link to each). A refused POST goes back to the round page with the message, not to
    the confirmation offering the same button again."""
    rnd = _round(tournament, number)
    if request.method == "POST":
        try:
            # the automatic backup runs once this answer is sent (transfer.backups): a
            # failure is shown on the closed round's page
            with backups.deferred_backups() as later:
                services.close_round(round=rnd, by=request.user)
        except ArbiterError as exc:
            messages.error(request, exc.message)
            return _round_redirect(rnd)
        messages.success(request, _("Turno %(n)s chiuso.") % {"n": number})
        return _RedirectThen(reverse("round", args=[tournament.slug, rnd.number]), after=later)
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
    refusal = services.reopen_refusal(rnd)
    if refusal and request.method != "POST":
        # said before the form, and no form that could only be refused
        return render(request, "arbiter/refused.html", {
            "tournament": tournament, "round": rnd, "refusal": refusal,
            "title": _("Riaprire il turno %(n)s?") % {"n": number},
            "back_url": reverse("round", args=[tournament.slug, number]),
            "back_label": _("Torna al turno %(n)s") % {"n": number},
        })
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
    # "Annulla" stays on this round's page, not wherever the arbiter came from
    return _confirm(request, tournament, title=_("Riaprire il turno %(n)s?") % {"n": number}, text=text,
                    button=_("Riapri"), ask_reason=True,
                    cancel_url=reverse("round", args=[tournament.slug, number]))


