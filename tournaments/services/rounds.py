"""The round cycle: generate a draft, adjust it, publish, close, reopen."""
from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import pairing
import pairing.check

from .. import selectors
from ..errors import ArbiterError
from ..models import (
    Pair,
    Round,
    ScoreSheet,
    Seat,
    Table,
    Tournament,
)
from .audit import audit


def _lock_tournament(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _active_pairs(tournament: Tournament, round_number: int) -> list[Pair]:
    return [p for p in tournament.pairs.all().order_by("number") if p.is_active_in(round_number)]


def build_pairing_request(tournament: Tournament, number: int, *, seed: int | None = None) -> dict:
    """The JSON request (pairing-io.md) for round ``number`` of ``tournament``.

    Mitchell: the movement order is fixed at the first Mitchell round (pair number
    order, or shuffled by ``seed`` when the first round is drawn by lot) and kept in
    ``Tournament.mitchell_order``; withdrawn pairs stay in it as ``absent`` seats
    (rules.md §6). Danish: ranking from the standings after the previous round
    (rules.md §7, §8), every earlier meeting, and the pairs that already rested.
    """
    system = tournament.system_of_round(number)
    pairs = list(tournament.pairs.order_by("number"))
    if system == Round.System.MITCHELL:
        order = list(tournament.mitchell_order or [])
        known = set(order)
        missing = [p.number for p in pairs if p.number not in known]
        if not order and seed is not None:
            random.Random(seed).shuffle(missing)
        order += missing
        previous_mitchell = tournament.rounds.filter(number__lt=number, system=Round.System.MITCHELL).count()
        absent = [p.number for p in pairs if not p.is_active_in(number)]
        request = {
            "system": "mitchell",
            "pairs": order,
            "round": previous_mitchell + 1,
            "step": tournament.mitchell_step,
        }
        if absent:
            request["absent"] = absent
        return request
    active = [p for p in pairs if p.is_active_in(number)]
    active_numbers = {p.number for p in active}
    if number == 1 or not tournament.rounds.filter(number__lt=number).exists():
        ranking = [p.number for p in active]
        if tournament.first_round == Tournament.FirstRound.LOT and seed is not None:
            random.Random(seed).shuffle(ranking)
    else:
        ranking = [row.pair for row in selectors.standings(tournament, after_round=number - 1)
                   if row.pair in active_numbers]
        ranking += [n for n in sorted(active_numbers) if n not in set(ranking)]
    met, met_last = selectors.meetings(tournament, before_round=number)
    rested = selectors.rested_pairs(tournament, before_round=number)
    return {
        "system": "danish",
        "ranking": ranking,
        "met": met,
        "met_last_round": met_last,
        "rested": sorted(rested & active_numbers),
        "avoid_rematches": tournament.rematch_window,
    }


def _next_round_number(tournament: Tournament) -> int:
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return 1
    if last.state == Round.State.DRAFT:
        return last.number
    if last.state != Round.State.CLOSED:
        raise ArbiterError(
            _("Il turno %(round)s è ancora in gioco: chiudilo prima di generare il turno %(next)s.")
            % {"round": last.number, "next": last.number + 1}
        )
    return last.number + 1


@transaction.atomic
def generate_round(*, tournament: Tournament, by, seed: int | None = None) -> Round:
    """Pair the next round as a draft (rules.md §6–7) and run the checker on it.

    Re-generating while the round is still a draft replaces the draft. Refused while
    the previous round is not closed, beyond the planned rounds, or with fewer than
    two active pairs. Returns the draft round with ``warnings``, ``explanations``
    and ``check_report`` (checker violations) filled in.
    """
    tournament = _lock_tournament(tournament)
    number = _next_round_number(tournament)
    if number > tournament.rounds_planned:
        raise ArbiterError(_("Il piano prevede %(rounds)s turni: sono già stati generati tutti.")
                           % {"rounds": tournament.rounds_planned})
    existing = tournament.rounds.filter(number=number).first()
    if existing is not None:
        existing.delete()  # a draft: regenerate replaces it
    if len(_active_pairs(tournament, number)) < 2:
        raise ArbiterError(_("Servono almeno due coppie in gara per generare un turno."))
    if number == 1 and tournament.first_round == Tournament.FirstRound.LOT and seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    if number > 1:
        first = tournament.rounds.filter(number=1).first()
        seed = first.seed if first else seed
    request = build_pairing_request(tournament, number, seed=seed)
    if request["system"] == "mitchell" and not tournament.mitchell_order:
        tournament.mitchell_order = request["pairs"]
        tournament.save(update_fields=["mitchell_order"])
    try:
        response = pairing.run(request)
    except pairing.PairingError as exc:
        raise ArbiterError(_("Accoppiamento impossibile: %(reason)s") % {"reason": exc}) from exc
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        system=request["system"],
        step=tournament.mitchell_step,
        seed=seed if number == 1 else None,
        pairing_request=request,
        warnings=list(response.get("warnings", [])),
        explanations=list(response.get("explanations", [])),
    )
    _write_tables(rnd, response)
    rnd.check_report = pairing.check.check(request, response)
    rnd.save(update_fields=["check_report"])
    audit(
        tournament=tournament, by=by, action="round_generated", round_number=number,
        new={"system": rnd.system, "seed": rnd.seed, "tables": response.get("tables"), "bye": response.get("bye")},
    )
    return rnd


def _write_tables(rnd: Round, response: dict) -> None:
    """Create the round's tables and seats from a pairing response (pairing-io.md).

    A listed table with one empty seat (Mitchell, opponent withdrawn) is a forced rest
    at its movement table number; the ordinary rest and any other forced rest get a
    table of their own after the last one (the Mitchell phantom's table T when free).
    """
    pairs = {p.number: p for p in rnd.tournament.pairs.all()}
    used_numbers: set[int] = set()
    seated: set[int] = set()
    for t in response["tables"]:
        present = [line for line in ("ns", "ew") if t.get(line) is not None]
        bye = Table.Bye.NONE if len(present) == 2 else Table.Bye.FORCED
        table = Table.objects.create(round=rnd, number=t["table"], bye=bye)
        used_numbers.add(t["table"])
        for line in present:
            Seat.objects.create(round=rnd, table=table, pair=pairs[int(t[line])], line=line)
            seated.add(int(t[line]))
    byes = []
    if response.get("bye") is not None:
        byes.append((int(response["bye"]), Table.Bye.REST))
    byes += [(int(p), Table.Bye.FORCED) for p in response.get("forced_byes") or [] if int(p) not in seated]
    for pair_number, kind in byes:
        number = max(used_numbers, default=0) + 1
        used_numbers.add(number)
        table = Table.objects.create(round=rnd, number=number, bye=kind)
        Seat.objects.create(round=rnd, table=table, pair=pairs[pair_number], line=Seat.Line.NS)


def response_from_round(rnd: Round) -> dict:
    """The round's current tables in the pairing-io.md response shape (for the checker).

    A forced rest at a movement table is listed as a table with an empty seat and in
    ``forced_byes`` (the Mitchell shape, see ``pairing.mitchell``).
    """
    tables, bye, forced = [], None, []
    for table in rnd.tables.prefetch_related("seats__pair").order_by("number"):
        ns, ew = table.ns, table.ew
        if table.bye == Table.Bye.REST:
            bye = table.resting_pair.number
            continue
        if table.bye == Table.Bye.FORCED:
            forced.append(table.resting_pair.number)
        tables.append({"table": table.number, "ns": ns.number if ns else None, "ew": ew.number if ew else None})
    response = {"tables": tables, "bye": bye, "rematches": [], "warnings": []}
    if forced or rnd.system == Round.System.MITCHELL:
        response["forced_byes"] = forced
    return response


def _recheck(rnd: Round) -> None:
    rnd.check_report = pairing.check.check(rnd.pairing_request, response_from_round(rnd))
    rnd.save(update_fields=["check_report"])


def _draft(rnd: Round) -> Round:
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.state != Round.State.DRAFT:
        raise ArbiterError(_("Il turno è già pubblicato: il tabellone non si modifica più."))
    return rnd


@transaction.atomic
def swap_pairs(*, round: Round, pair_a: int, pair_b: int, by) -> Round:
    """Draft only: exchange the seats of two pairs (numbers); the checker re-runs."""
    rnd = _draft(round)
    seat_a = rnd.seats.select_related("table").get(pair__number=pair_a)
    seat_b = rnd.seats.select_related("table").get(pair__number=pair_b)
    pa, pb = seat_a.pair_id, seat_b.pair_id
    # Three steps so the unique (round, pair) constraint holds at every statement.
    Seat.objects.filter(pk=seat_a.pk).delete()
    Seat.objects.filter(pk=seat_b.pk).update(pair_id=pa)
    Seat.objects.create(round=rnd, table=seat_a.table, line=seat_a.line, pair_id=pb)
    _recheck(rnd)
    audit(tournament=rnd.tournament, by=by, action="draft_swap", round_number=rnd.number,
          new={"pairs": [pair_a, pair_b]})
    return rnd


@transaction.atomic
def move_to_rest(*, round: Round, pair: int, by) -> Round:
    """Draft only: give the rest to pair ``pair`` (number) instead of the current resting
    pair, which takes its seat. The checker re-runs and warns (art. 33)."""
    rnd = _draft(round)
    rest_table = rnd.tables.filter(bye=Table.Bye.REST).first()
    if rest_table is None:
        raise ArbiterError(_("In questo turno non riposa nessuno (numero pari di coppie)."))
    resting = rest_table.seats.get()
    if resting.pair.number == pair:
        return rnd
    return swap_pairs(round=rnd, pair_a=resting.pair.number, pair_b=pair, by=by)


@transaction.atomic
def publish_round(*, round: Round, by, acknowledge_warnings: bool = False) -> Round:
    """Publish a draft: the table list is posted and score sheets are opened.

    Refused when a pair in play is missing from the tables or sits twice; when the
    checker reports other violations (e.g. an avoidable rematch after a manual
    change) the arbiter must acknowledge them.
    """
    rnd = _draft(round)
    tournament = rnd.tournament
    active = {p.number for p in _active_pairs(tournament, rnd.number)}
    seated = list(rnd.seats.values_list("pair__number", flat=True))
    missing = sorted(active - set(seated))
    if missing:
        raise ArbiterError(
            _("Impossibile pubblicare: %(pairs)s senza tavolo né riposo.")
            % {"pairs": ", ".join(str(n) for n in missing)}
        )
    if rnd.check_report and not acknowledge_warnings:
        raise ArbiterError(_("Il controllo ha segnalato problemi: confermali per pubblicare."),
                           details=rnd.check_report)
    for table in rnd.tables.filter(bye=""):
        ScoreSheet.objects.get_or_create(table=table)
    rnd.state = Round.State.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["state", "published_at"])
    audit(tournament=tournament, by=by, action="round_published", round_number=rnd.number,
          new={"acknowledged": list(rnd.check_report) if acknowledge_warnings else []})
    return rnd


@transaction.atomic
def close_round(*, round: Round, by) -> Round:
    """Close a published round: every playing table's sheet must be validated."""
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.state != Round.State.PUBLISHED:
        raise ArbiterError(_("Si può chiudere solo un turno pubblicato."))
    pending = list(
        rnd.tables.filter(bye="").exclude(sheet__state=ScoreSheet.State.VALIDATED).values_list("number", flat=True)
    )
    if pending:
        raise ArbiterError(
            _("Impossibile chiudere il turno: score non validati ai tavoli %(tables)s.")
            % {"tables": ", ".join(map(str, pending))}
        )
    rnd.state = Round.State.CLOSED
    rnd.closed_at = timezone.now()
    rnd.save(update_fields=["state", "closed_at"])
    audit(tournament=rnd.tournament, by=by, action="round_closed", round_number=rnd.number)
    return rnd


@transaction.atomic
def reopen_round(*, round: Round, by, reason: str = "") -> Round:
    """Reopen a closed round, allowed only while the next round is at most a draft;
    that draft is discarded because its pairing depended on these results.

    Reopening is not needed for a correction: every kind allowed at that moment
    applies to the closed round's sheet directly (rules.md §3, art. 31;
    :func:`tournaments.services.sheets.correction_refusal`)."""
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.state != Round.State.CLOSED:
        raise ArbiterError(_("Il turno non è chiuso."))
    nxt = rnd.tournament.rounds.filter(number=rnd.number + 1).first()
    if nxt is not None and nxt.state != Round.State.DRAFT:
        raise ArbiterError(
            _("Il turno %(next)s è già pubblicato: il turno %(round)s non si può più riaprire. "
              "Trascrizioni, linee invertite e punteggi arbitrali si applicano direttamente allo "
              "score del turno chiuso (art. 31).")
            % {"next": nxt.number, "round": rnd.number}
        )
    if nxt is not None:
        nxt.delete()
    rnd.state = Round.State.PUBLISHED
    rnd.closed_at = None
    rnd.save(update_fields=["state", "closed_at"])
    audit(tournament=rnd.tournament, by=by, action="round_reopened", round_number=rnd.number, reason=reason,
          new={"draft_discarded": nxt is not None})
    return rnd


