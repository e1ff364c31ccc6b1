"""Every write of Arbitro: keyword-only arguments, one transaction, one audit entry.

Views parse input, call one function here and render. The rules themselves live in
``pairing`` (who meets whom) and ``scoring`` (what a result is worth); this module
turns database rows into the plain values those rules take and writes back what
they return (architecture.md, "The flow of one round").

Refusals the arbiter can act on raise :class:`tournaments.errors.ArbiterError`
with an Italian message.
"""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

import pairing
import pairing.check
from scoring import sheets as sheet_rules

from . import selectors
from .errors import ArbiterError, StaleSheetError
from .models import (
    AuditEntry,
    HandRow,
    Pair,
    Penalty,
    Player,
    Round,
    ScoreSheet,
    Seat,
    Table,
    Tournament,
)

# --------------------------------------------------------------------------- audit


@dataclass(frozen=True)
class Actor:
    """Who does a write: a logged-in arbiter (``user``) or a captain (``label``)."""

    label: str
    user: object | None = None

    @classmethod
    def arbiter(cls, user) -> "Actor":
        if user is None:
            return cls(label="sistema")
        name = getattr(user, "get_username", lambda: "")() or "?"
        return cls(label=f"{name} (arbitro)", user=user if getattr(user, "pk", None) else None)

    @classmethod
    def system(cls) -> "Actor":
        return cls(label="sistema")


def _as_actor(by) -> Actor:
    if isinstance(by, Actor):
        return by
    return Actor.arbiter(by)


def audit(
    *,
    tournament: Tournament,
    by,
    action: str,
    old=None,
    new=None,
    reason: str = "",
    round_number: int | None = None,
    table_number: int | None = None,
) -> AuditEntry:
    """Write one audit entry (who, when, what, old → new, why). Call inside the write's transaction."""
    actor = _as_actor(by)
    return AuditEntry.objects.create(
        tournament=tournament,
        user=actor.user,
        actor=actor.label[:80],
        action=action,
        old=old,
        new=new,
        reason=(reason or "")[:300],
        round_number=round_number,
        table_number=table_number,
    )


# --------------------------------------------------------------------------- tournament


TOURNAMENT_SETTINGS = (
    "name", "slug", "date", "venue", "kind", "hands_per_round", "vp_scale", "plan",
    "mitchell_step", "rematch_window", "bye_percent", "bye_mp", "tiebreaks", "rule_set",
    "first_round", "public_enabled", "projector_enabled",
)
# Settings that change results already entered: refused once a round is published.
_FROZEN_ONCE_PLAYED = ("hands_per_round", "vp_scale", "kind", "rule_set")


@transaction.atomic
def create_tournament(*, by, **fields) -> Tournament:
    """Create a tournament with the given settings (rules.md §1); returns it."""
    unknown = set(fields) - set(TOURNAMENT_SETTINGS)
    if unknown:
        raise TypeError(f"unknown tournament fields: {sorted(unknown)}")
    _check_plan(fields.get("plan", "MMMD"))
    actor = _as_actor(by)
    tournament = Tournament.objects.create(created_by=actor.user, **fields)
    audit(tournament=tournament, by=actor, action="tournament_created", new={"name": tournament.name})
    return tournament


def _check_plan(plan: str) -> None:
    if not plan or any(c not in "MDmd" for c in plan):
        raise ArbiterError(_("Il piano dei turni usa solo le lettere M (Mitchell) e D (danese), es. MMMD."))


@transaction.atomic
def update_tournament(*, tournament: Tournament, by, **fields) -> Tournament:
    """Change settings. Settings that change entered results (hands, VP scale, rule set,
    kind) are refused once a round has been published; the plan may only change for
    rounds not yet generated."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    played = tournament.rounds.exclude(state=Round.State.DRAFT).exists()
    old, new = {}, {}
    for key, value in fields.items():
        if key not in TOURNAMENT_SETTINGS:
            raise TypeError(f"unknown tournament field {key}")
        current = getattr(tournament, key)
        if current == value:
            continue
        if played and key in _FROZEN_ONCE_PLAYED:
            raise ArbiterError(
                _("Impossibile cambiare «%(setting)s»: ci sono già turni pubblicati.")
                % {"setting": Tournament._meta.get_field(key).verbose_name}
            )
        if key == "plan":
            _check_plan(value)
            done = tournament.rounds.count()
            if value[:done].upper() != current[:done].upper():
                raise ArbiterError(_("Il piano può cambiare solo per i turni non ancora generati."))
        old[key], new[key] = _jsonable(current), _jsonable(value)
        setattr(tournament, key, value)
    if new:
        tournament.save()
        audit(tournament=tournament, by=by, action="tournament_updated", old=old, new=new)
    return tournament


def _jsonable(value):
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)


# --------------------------------------------------------------------------- pairs


@dataclass(frozen=True)
class PlayerData:
    """A player as typed or imported: names trimmed by the caller."""

    first_name: str
    last_name: str
    membership_number: str = ""
    club: str = ""


def _pair_has_results(pair: Pair) -> bool:
    return pair.seats.exclude(round__state=Round.State.DRAFT).exists()


def _check_players(tournament: Tournament, players: Sequence[PlayerData], *, exclude_pair: Pair | None = None):
    if len(players) != 2:
        raise ArbiterError(_("Una coppia è formata da due giocatori."))
    for p in players:
        if not p.first_name.strip() or not p.last_name.strip():
            raise ArbiterError(_("Nome e cognome di ogni giocatore sono obbligatori."))
    numbers = [p.membership_number for p in players if p.membership_number]
    if len(numbers) != len(set(numbers)):
        raise ArbiterError(_("Lo stesso giocatore (tessera) non può comparire due volte nella coppia."))
    taken = Player.objects.filter(tournament=tournament, membership_number__in=numbers)
    if exclude_pair is not None:
        taken = taken.exclude(pair=exclude_pair)
    clash = taken.first()
    if clash:
        raise ArbiterError(
            _("Il giocatore con tessera %(membership)s (%(name)s) è già iscritto al torneo.")
            % {"membership": clash.membership_number, "name": clash.display_name}
        )


@transaction.atomic
def add_pair(
    *, tournament: Tournament, players: Sequence[PlayerData], by, number: int | None = None, late: bool = False
) -> Pair:
    """Register a pair of two players; ``number`` defaults to the next free pair number.

    Raises ArbiterError for a missing name, a player already registered (same
    membership number), or a pair number already in use. Once round 2 is paired no
    pair may enter (seed code art. 33): see :func:`add_late_pair` for round 1.
    """
    if not late and tournament.rounds.exists():
        raise ArbiterError(
            _("Il torneo è già iniziato: una coppia tardiva può entrare solo durante il turno 1 "
              "per completare il tavolo zoppo (art. 33).")
        )
    _check_players(tournament, players)
    if number is None:
        number = (tournament.pairs.aggregate(m=Max("number"))["m"] or 0) + 1
    if tournament.pairs.filter(number=number).exists():
        raise ArbiterError(_("Il numero di coppia %(number)s è già usato.") % {"number": number})
    try:
        with transaction.atomic():
            pair = Pair.objects.create(tournament=tournament, number=number, late_entry=late)
            for seat, p in enumerate(players, start=1):
                Player.objects.create(
                    tournament=tournament, pair=pair, seat=seat,
                    first_name=p.first_name.strip(), last_name=p.last_name.strip(),
                    membership_number=p.membership_number.strip(), club=p.club.strip(),
                )
    except IntegrityError as exc:  # a race with another arbiter window
        raise ArbiterError(_("Coppia non salvata: numero o giocatore già presenti.")) from exc
    audit(
        tournament=tournament, by=by, action="pair_added",
        new={"number": number, "players": [f"{p.last_name} {p.first_name}" for p in players]},
    )
    return pair


@transaction.atomic
def update_pair(*, pair: Pair, players: Sequence[PlayerData], by, number: int | None = None) -> Pair:
    """Change a pair's players or number. The number is frozen once the pair has played."""
    tournament = pair.tournament
    _check_players(tournament, players, exclude_pair=pair)
    old = {"number": pair.number, "players": [pl.display_name for pl in pair.players]}
    if number is not None and number != pair.number:
        if _pair_has_results(pair):
            raise ArbiterError(_("Il numero di una coppia che ha già giocato non si cambia."))
        if tournament.pairs.filter(number=number).exclude(pk=pair.pk).exists():
            raise ArbiterError(_("Il numero di coppia %(number)s è già usato.") % {"number": number})
        pair.number = number
        pair.save(update_fields=["number"])
    members = {pl.seat: pl for pl in pair.members.all()}
    for seat, p in enumerate(players, start=1):
        pl = members.get(seat) or Player(tournament=tournament, pair=pair, seat=seat)
        pl.first_name, pl.last_name = p.first_name.strip(), p.last_name.strip()
        pl.membership_number, pl.club = p.membership_number.strip(), p.club.strip()
        pl.save()
    pair = Pair.objects.prefetch_related("members").get(pk=pair.pk)
    audit(
        tournament=tournament, by=by, action="pair_updated", old=old,
        new={"number": pair.number, "players": [pl.display_name for pl in pair.players]},
    )
    return pair


@transaction.atomic
def remove_pair(*, pair: Pair, by) -> None:
    """Delete a pair and its players. Refused once the pair has results (use withdrawal)."""
    if pair.seats.exists():
        raise ArbiterError(
            _("La coppia %(pair)s è già in un turno: non si può cancellare, si può solo ritirare.")
            % {"pair": pair.number}
        )
    tournament = pair.tournament
    old = {"number": pair.number, "players": [pl.display_name for pl in pair.players]}
    pair.members.all().delete()
    pair.delete()
    audit(tournament=tournament, by=by, action="pair_removed", old=old)


@transaction.atomic
def import_pairs(*, tournament: Tournament, rows: Iterable, by) -> int:
    """Save registration rows (``tournaments.registrations.RegistrationRow``) all-or-nothing.

    The caller validated them (``registrations.validate``); a database refusal here
    rolls everything back. Returns the number of pairs created.
    """
    if tournament.rounds.exists():
        raise ArbiterError(_("Il torneo è già iniziato: l'importazione delle iscrizioni è chiusa."))
    count = 0
    next_number = (tournament.pairs.aggregate(m=Max("number"))["m"] or 0) + 1
    for row in rows:
        number = row.number if row.number is not None else next_number
        next_number = max(next_number, number + 1)
        pair = Pair.objects.create(tournament=tournament, number=number)
        Player.objects.bulk_create(
            [
                Player(tournament=tournament, pair=pair, seat=seat, first_name=p.first_name,
                       last_name=p.last_name, membership_number=p.membership_number, club=p.club)
                for seat, p in enumerate(row.players, start=1)
            ]
        )
        count += 1
    audit(tournament=tournament, by=by, action="registrations_imported", new={"pairs": count})
    return count


# --------------------------------------------------------------------------- rounds


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
    that draft is discarded because its pairing depended on these results."""
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.state != Round.State.CLOSED:
        raise ArbiterError(_("Il turno non è chiuso."))
    nxt = rnd.tournament.rounds.filter(number=rnd.number + 1).first()
    if nxt is not None and nxt.state != Round.State.DRAFT:
        raise ArbiterError(
            _("Il turno %(next)s è già pubblicato: il turno %(round)s non si può più riaprire.")
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


# --------------------------------------------------------------------------- score sheets


def _sheet_snapshot(sheet: ScoreSheet) -> dict:
    hands = [[h.ns_score, h.ew_score] for h in sheet.hands.all().order_by("number")]
    return {
        "hands": hands,
        "declared": [sheet.declared_ns, sheet.declared_ew],
        "mp": [sheet.mp_ns, sheet.mp_ew],
        "vp": [str(sheet.vp_ns), str(sheet.vp_ew)],
        "state": sheet.state,
    }


def _content_hash(hands: Sequence, declared) -> str:
    payload = json.dumps(
        {"h": [[h.ns, h.ew, h.ns_base, h.ns_cards, h.ew_base, h.ew_cards] for h in hands], "d": list(declared or (None, None))},
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass(frozen=True)
class HandInput:
    """One hand as entered: each line's total, optionally with base and cards."""

    ns: int
    ew: int
    ns_base: int | None = None
    ns_cards: int | None = None
    ew_base: int | None = None
    ew_cards: int | None = None


def _locked_sheet(table: Table) -> tuple[ScoreSheet, Round]:
    sheet = ScoreSheet.objects.select_for_update().select_related("table__round__tournament").get(table=table)
    return sheet, sheet.table.round


def _may_correct(rnd: Round, actor: Actor, sheet: ScoreSheet) -> None:
    if rnd.state == Round.State.DRAFT:
        raise ArbiterError(_("Il turno non è ancora pubblicato."))
    if actor.user is None:  # captain
        if rnd.state == Round.State.CLOSED:
            raise ArbiterError(_("Il turno è chiuso: lo score è in sola lettura."))
        if sheet.state in (ScoreSheet.State.CONFIRMED, ScoreSheet.State.VALIDATED):
            raise ArbiterError(_("Lo score è già confermato: solo l'arbitro può modificarlo."))
        return
    if rnd.state == Round.State.CLOSED and rnd.system != Round.System.MITCHELL:
        raise ArbiterError(
            _("Il turno danese è chiuso: riaprilo per correggere (rules §3: correzioni di somma "
              "dopo la chiusura solo nei turni Mitchell).")
        )


def correction_needs_reason(sheet: ScoreSheet, rnd: Round) -> bool:
    """True when an arbiter's change to ``sheet`` is a correction that must state its reason
    in the audit trail (rules.md §3): the sheet is confirmed, validated or disputed, a
    captain entered it, or the round is closed. A first entry, or the arbiter's change to
    the arbiter's own unvalidated entry, needs none."""
    if sheet.state == ScoreSheet.State.EMPTY:
        return False
    return (
        sheet.state in (ScoreSheet.State.CONFIRMED, ScoreSheet.State.VALIDATED, ScoreSheet.State.DISPUTED)
        or sheet.entered_by_captain
        or rnd.state == Round.State.CLOSED
    )


@transaction.atomic
def save_score_sheet(
    *,
    table: Table,
    hands: Sequence[HandInput],
    by,
    declared: tuple[int | None, int | None] | None = None,
    expected_version: int | None = None,
    reason: str = "",
    validate: bool = False,
) -> ScoreSheet:
    """Store a table's score sheet, hand by hand (rules.md §2–4).

    ``hands``: one :class:`HandInput` per hand, MP, multiples of 5, may be negative;
    the round's hand count must match. ``declared``: the totals as written on the
    paper sheet, if any; a difference from the sum sets ``sum_error``. Totals,
    difference and VP are always derived (``scoring.sheets.sheet_totals``).

    ``expected_version``: the sheet version the writer started from; a different
    current version raises :class:`StaleSheetError` carrying the current sheet (two
    captains saving at once). Re-sending the same content stores nothing new.
    Captains (``Actor`` without user) may not change a confirmed or validated sheet
    nor any sheet of a closed round; the arbiter may correct a closed Mitchell round
    (rules.md §3). Every change is audited with old → new.
    """
    actor = _as_actor(by)
    sheet, rnd = _locked_sheet(table)
    tournament = rnd.tournament
    new_hash = _content_hash(hands, declared)
    if sheet.content_hash == new_hash and sheet.state != ScoreSheet.State.EMPTY:
        # An idempotent re-send (e.g. a captain's retry after a lost answer) succeeds even
        # when the sheet has been confirmed meanwhile: it changes nothing.
        if validate and sheet.state != ScoreSheet.State.VALIDATED and actor.user is not None:
            return validate_sheet(table=table, by=actor)
        return sheet
    _may_correct(rnd, actor, sheet)
    if expected_version is not None and expected_version != sheet.version:
        raise StaleSheetError(
            _("Lo score è stato modificato da un altro dispositivo: ecco la versione attuale."), current=sheet
        )
    if actor.user is not None and correction_needs_reason(sheet, rnd) and not reason.strip():
        raise ArbiterError(_("Indica il motivo della correzione."))
    if len(hands) != tournament.hands_per_round:
        raise ArbiterError(
            _("Lo score deve avere %(hands)s smazzate (ricevute %(received)s).")
            % {"hands": tournament.hands_per_round, "received": len(hands)}
        )
    scale = selectors.scale_of(tournament)
    try:
        totals = sheet_rules.sheet_totals(
            [sheet_rules.HandScore(ns=h.ns, ew=h.ew) for h in hands],
            scale,
            declared=declared,
            expected_hands=tournament.hands_per_round,
        )
    except sheet_rules.SheetError as exc:
        raise ArbiterError(str(exc)) from exc
    for h in hands:
        for base, cards, total, label in ((h.ns_base, h.ns_cards, h.ns, _("N/S")),
                                         (h.ew_base, h.ew_cards, h.ew, _("E/O"))):
            if base is not None and cards is not None and base + cards != total:
                raise ArbiterError(_("Linea %(line)s: base %(base)s + carte %(cards)s non fa %(total)s.")
                                   % {"line": label, "base": base, "cards": cards, "total": total})
    old = _sheet_snapshot(sheet) if sheet.state != ScoreSheet.State.EMPTY else None
    sheet.hands.all().delete()
    HandRow.objects.bulk_create(
        [
            HandRow(sheet=sheet, number=i, ns_score=h.ns, ew_score=h.ew, ns_base=h.ns_base,
                    ns_cards=h.ns_cards, ew_base=h.ew_base, ew_cards=h.ew_cards)
            for i, h in enumerate(hands, start=1)
        ]
    )
    sheet.declared_ns, sheet.declared_ew = declared if declared else (None, None)
    sheet.mp_ns, sheet.mp_ew = totals.mp_ns, totals.mp_ew
    sheet.vp_ns, sheet.vp_ew = Decimal(totals.vp_ns), Decimal(totals.vp_ew)
    sheet.sum_error = totals.sum_error
    sheet.arbitral = False
    sheet.content_hash = new_hash
    sheet.version += 1
    if actor.user is None:
        sheet.state = ScoreSheet.State.ENTERED
        sheet.entered_by = actor.label[:60]
        sheet.entered_by_captain = True
        sheet.confirmed_by = ""
    else:
        if old is None or sheet.state == ScoreSheet.State.DISPUTED or sheet.entered_by_captain:
            sheet.entered_by = actor.label[:60]  # the arbiter's entry or correction replaces the captain's
            sheet.entered_by_captain = False
        if validate and not sheet.sum_error:
            sheet.state = ScoreSheet.State.VALIDATED
        elif sheet.state in (ScoreSheet.State.EMPTY, ScoreSheet.State.DISPUTED):
            sheet.state = ScoreSheet.State.ENTERED
    sheet.save()
    audit(
        tournament=tournament, by=actor, action="sheet_saved" if old is None else "sheet_corrected",
        round_number=rnd.number, table_number=sheet.table.number,
        old=old, new=_sheet_snapshot(sheet), reason=reason,
    )
    return sheet


def _transition(table: Table, by, *, allowed: set, new_state: str, action: str, reason: str = "",
                captain_ok: bool = False, **extra) -> ScoreSheet:
    actor = _as_actor(by)
    sheet, rnd = _locked_sheet(table)
    if actor.user is None and not captain_ok:
        raise ArbiterError(_("Solo l'arbitro può farlo."))
    if actor.user is None and rnd.state != Round.State.PUBLISHED:
        raise ArbiterError(_("Il turno non è in gioco: lo score è in sola lettura."))
    if sheet.state not in allowed:
        raise ArbiterError(_("Operazione non ammessa: lo score è «%(state)s».")
                           % {"state": sheet.get_state_display()})
    old_state = sheet.state
    sheet.state = new_state
    for key, value in extra.items():
        setattr(sheet, key, value)
    sheet.version += 1
    sheet.save()
    audit(tournament=rnd.tournament, by=actor, action=action, round_number=rnd.number,
          table_number=sheet.table.number, old={"state": old_state}, new={"state": new_state, **extra},
          reason=reason)
    return sheet


@transaction.atomic
def confirm_sheet(*, table: Table, by) -> ScoreSheet:
    """The other line's captain confirms the entered sheet; afterwards only the arbiter changes it."""
    label = _as_actor(by).label[:60]
    return _transition(table, by, allowed={ScoreSheet.State.ENTERED}, new_state=ScoreSheet.State.CONFIRMED,
                       action="sheet_confirmed", captain_ok=True, confirmed_by=label)


@transaction.atomic
def dispute_sheet(*, table: Table, by, note: str = "") -> ScoreSheet:
    """The other line disputes the entered sheet; the arbiter is alerted on the board."""
    return _transition(table, by, allowed={ScoreSheet.State.ENTERED}, new_state=ScoreSheet.State.DISPUTED,
                       action="sheet_disputed", captain_ok=True, reason=note, dispute_note=note[:300])


@transaction.atomic
def validate_sheet(*, table: Table, by) -> ScoreSheet:
    """The arbiter validates a sheet. Refused while it is empty or flagged with a sum error."""
    sheet = ScoreSheet.objects.get(table=table)
    if sheet.sum_error:
        raise ArbiterError(
            _("Tavolo %(table)s: errore di somma (dichiarato %(declared_ns)s/%(declared_ew)s, "
              "somma delle smazzate %(mp_ns)s/%(mp_ew)s). Correggi prima di validare.")
            % {"table": table.number, "declared_ns": sheet.declared_ns, "declared_ew": sheet.declared_ew,
               "mp_ns": sheet.mp_ns, "mp_ew": sheet.mp_ew}
        )
    return _transition(
        table, by,
        allowed={ScoreSheet.State.ENTERED, ScoreSheet.State.CONFIRMED, ScoreSheet.State.DISPUTED},
        new_state=ScoreSheet.State.VALIDATED, action="sheet_validated",
    )


@transaction.atomic
def validate_entered_sheets(*, round: Round, by) -> list[int]:
    """Validate, in one transaction, every sheet of ``round`` without a sum error that is
    either confirmed by the other line or entered by the arbiter. Left for the arbiter:
    disputed sheets, sum errors, and sheets a captain entered that the other line has
    not confirmed yet (validating them would take away that line's right to dispute).

    Returns the table numbers validated (ascending).
    """
    tables = Table.objects.filter(
        Q(sheet__state=ScoreSheet.State.CONFIRMED)
        | Q(sheet__state=ScoreSheet.State.ENTERED, sheet__entered_by_captain=False),
        round=round, bye="", sheet__sum_error=False,
    ).order_by("number")
    done = []
    for table in tables:
        validate_sheet(table=table, by=by)
        done.append(table.number)
    return done


@transaction.atomic
def unvalidate_sheet(*, table: Table, by, reason: str = "") -> ScoreSheet:
    """Undo a validation while the round is still open; ``reason`` is required (audit trail)."""
    if not reason.strip():
        raise ArbiterError(_("Indica il motivo della correzione."))
    if table.round.state == Round.State.CLOSED:
        raise ArbiterError(_("Il turno è chiuso."))
    return _transition(table, by, allowed={ScoreSheet.State.VALIDATED}, new_state=ScoreSheet.State.ENTERED,
                       action="sheet_unvalidated", reason=reason)


@transaction.atomic
def accept_declared_totals(*, table: Table, by, reason: str = "") -> ScoreSheet:
    """Sum error: the arbiter decides the hands are right and drops the declared totals."""
    sheet = ScoreSheet.objects.get(table=table)
    hands = [HandInput(h.ns_score, h.ew_score, h.ns_base, h.ns_cards, h.ew_base, h.ew_cards)
             for h in sheet.hands.order_by("number")]
    return save_score_sheet(table=table, hands=hands, declared=None, by=by,
                            reason=reason or "errore di somma: valgono le smazzate")


@transaction.atomic
def swap_sheet_lines(*, table: Table, by, reason: str) -> ScoreSheet:
    """Swapped lines (*inversione*, rules.md §3): N/S and E/W scores exchanged, at any time
    when the table agrees; audited with the reason."""
    actor = _as_actor(by)
    if actor.user is None:
        raise ArbiterError(_("Solo l'arbitro può invertire le linee."))
    if not reason.strip():
        raise ArbiterError(_("Indica il motivo della correzione."))
    sheet, rnd = _locked_sheet(table)
    if sheet.state == ScoreSheet.State.EMPTY:
        raise ArbiterError(_("Lo score è vuoto."))
    old = _sheet_snapshot(sheet)
    for h in sheet.hands.all():
        h.ns_score, h.ew_score = h.ew_score, h.ns_score
        h.ns_base, h.ew_base = h.ew_base, h.ns_base
        h.ns_cards, h.ew_cards = h.ew_cards, h.ns_cards
        h.save()
    sheet.declared_ns, sheet.declared_ew = sheet.declared_ew, sheet.declared_ns
    sheet.mp_ns, sheet.mp_ew = sheet.mp_ew, sheet.mp_ns
    sheet.vp_ns, sheet.vp_ew = sheet.vp_ew, sheet.vp_ns
    sheet.version += 1
    sheet.content_hash = ""
    sheet.save()
    audit(tournament=rnd.tournament, by=actor, action="sheet_lines_swapped", round_number=rnd.number,
          table_number=table.number, old=old, new=_sheet_snapshot(sheet), reason=reason)
    return sheet


@transaction.atomic
def set_arbitral_score(
    *, table: Table, by, vp_ns: Decimal, vp_ew: Decimal, mp_ns: int = 0, mp_ew: int = 0, reason: str
) -> ScoreSheet:
    """Arbitral score (*punteggio arbitrale*, art. 15): the arbiter assigns VP (and MP)
    to a table directly. VP need not sum to the scale total (e.g. both lines at fault);
    each must lie between 0 and the scale maximum. The sheet is validated."""
    actor = _as_actor(by)
    if actor.user is None:
        raise ArbiterError(_("Solo l'arbitro assegna un punteggio arbitrale."))
    if not reason.strip():
        raise ArbiterError(_("Indica il motivo del punteggio arbitrale."))
    sheet, rnd = _locked_sheet(table)
    _may_correct(rnd, actor, sheet)
    scale = selectors.scale_of(rnd.tournament)
    vp_ns, vp_ew = Decimal(vp_ns), Decimal(vp_ew)
    for v in (vp_ns, vp_ew):
        if v < 0 or v > scale.max_vp:
            raise ArbiterError(_("I VP devono stare tra 0 e %(max)s.") % {"max": scale.max_vp})
    for mp in (mp_ns, mp_ew):
        if mp % 5:
            raise ArbiterError(_("%(mp)s non è multiplo di 5.") % {"mp": mp})
    old = _sheet_snapshot(sheet)
    sheet.hands.all().delete()
    sheet.mp_ns, sheet.mp_ew, sheet.vp_ns, sheet.vp_ew = mp_ns, mp_ew, vp_ns, vp_ew
    sheet.declared_ns = sheet.declared_ew = None
    sheet.sum_error = False
    sheet.arbitral = True
    sheet.arbitral_note = reason[:200]
    sheet.state = ScoreSheet.State.VALIDATED
    sheet.version += 1
    sheet.content_hash = ""
    sheet.save()
    audit(tournament=rnd.tournament, by=actor, action="arbitral_score", round_number=rnd.number,
          table_number=table.number, old=old, new=_sheet_snapshot(sheet), reason=reason)
    return sheet


# --------------------------------------------------------------------------- withdrawals, late pairs, penalties


@transaction.atomic
def withdraw_pair(*, pair: Pair, from_round: int, by, reason: str = "") -> Pair:
    """Withdraw a pair from round ``from_round`` on (rules.md §5–6, art. 32).

    It keeps its results of earlier rounds. If round ``from_round`` is published, its
    opponent gets the forced rest (*riposo forzato*) there; if it is a draft, the
    draft is discarded to be generated again without the pair. Refused for a round
    already closed or before a round whose sheet the pair already played.
    """
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    tournament = pair.tournament
    if pair.status == Pair.Status.WITHDRAWN:
        raise ArbiterError(_("La coppia %(pair)s è già ritirata dal turno %(round)s.")
                           % {"pair": pair.number, "round": pair.withdrawn_from_round})
    closed = tournament.rounds.filter(number__gte=from_round, state=Round.State.CLOSED).exists()
    if closed or from_round < 1:
        raise ArbiterError(_("Il turno %(round)s è già chiuso: il ritiro vale dal primo turno non chiuso.")
                           % {"round": from_round})
    rnd = tournament.rounds.filter(number=from_round).first()
    if rnd is not None and rnd.state == Round.State.DRAFT:
        rnd.delete()  # drawn with the pair in it: the arbiter generates it again
        rnd = None
    if rnd is not None:
        seat = rnd.seats.select_related("table").filter(pair=pair).first()
        if seat is not None:
            table = seat.table
            sheet = ScoreSheet.objects.filter(table=table).first()
            if sheet is not None and sheet.state != ScoreSheet.State.EMPTY:
                raise ArbiterError(
                    _("Al tavolo %(table)s del turno %(round)s lo score è già inserito: "
                      "ritira la coppia dal turno successivo.") % {"table": table.number, "round": from_round}
                )
            if sheet is not None:
                sheet.delete()
            seat.delete()
            if table.bye:
                table.delete()
            else:
                table.bye = Table.Bye.FORCED  # the opponent keeps its seat and line
                table.save(update_fields=["bye"])
    pair.status = Pair.Status.WITHDRAWN
    pair.withdrawn_from_round = from_round
    pair.save(update_fields=["status", "withdrawn_from_round"])
    audit(tournament=tournament, by=by, action="pair_withdrawn", reason=reason, round_number=from_round,
          new={"pair": pair.number, "from_round": from_round})
    return pair


@transaction.atomic
def add_late_pair(*, tournament: Tournament, players: Sequence[PlayerData], by) -> Pair:
    """A late pair (art. 33): only while round 1 is drawn or played and round 2 is not
    paired, and only to complete the incomplete table — it takes the resting pair's
    table as its opponent (in a Mitchell round, the phantom's N/S seat)."""
    tournament = _lock_tournament(tournament)
    rounds = list(tournament.rounds.order_by("number"))
    if not rounds or len(rounds) > 1 or rounds[0].state == Round.State.CLOSED:
        raise ArbiterError(
            _("Una coppia tardiva può entrare solo durante il turno 1, per completare il tavolo zoppo (art. 33).")
        )
    rnd = rounds[0]
    rest_table = rnd.tables.filter(bye=Table.Bye.REST).first()
    if rest_table is None:
        raise ArbiterError(_("Non c'è un tavolo zoppo da completare: il numero di coppie è pari (art. 33)."))
    pair = add_pair(tournament=tournament, players=players, by=by, late=True)
    resting = rest_table.seats.get()
    if rnd.system == Round.System.MITCHELL:
        order = list(tournament.mitchell_order)
        t = (len(order) + 1) // 2
        order.insert(t - 1, pair.number)  # the phantom's N/S seat of table T (pairing-io.md)
        tournament.mitchell_order = order
        tournament.save(update_fields=["mitchell_order"])
        if resting.line != Seat.Line.EW:
            resting.line = Seat.Line.EW
            resting.save(update_fields=["line"])
        Seat.objects.create(round=rnd, table=rest_table, pair=pair, line=Seat.Line.NS)
    else:
        resting.line = Seat.Line.NS
        resting.save(update_fields=["line"])
        Seat.objects.create(round=rnd, table=rest_table, pair=pair, line=Seat.Line.EW)
    rest_table.bye = Table.Bye.NONE
    rest_table.save(update_fields=["bye"])
    if rnd.state == Round.State.PUBLISHED:
        ScoreSheet.objects.get_or_create(table=rest_table)
    req = dict(rnd.pairing_request)
    if req.get("system") == "mitchell":
        req["pairs"] = list(tournament.mitchell_order)
    else:
        req["ranking"] = list(req.get("ranking", [])) + [pair.number]
    rnd.pairing_request = req
    rnd.save(update_fields=["pairing_request"])
    _recheck(rnd)
    audit(tournament=tournament, by=by, action="late_pair_added", round_number=1, table_number=rest_table.number,
          new={"pair": pair.number, "opponent": resting.pair.number})
    return pair


@transaction.atomic
def add_penalty(*, pair: Pair, vp: Decimal, reason: str, by, round_number: int | None = None) -> Penalty:
    """A VP penalty in the overall standings (art. 23); the opponents gain nothing."""
    vp = Decimal(vp)
    if vp <= 0:
        raise ArbiterError(_("La penalità è un numero positivo di VP da togliere."))
    if not reason.strip():
        raise ArbiterError(_("Indica il motivo della penalità."))
    if round_number is not None and not 1 <= round_number <= pair.tournament.rounds_planned:
        raise ArbiterError(_("Turno %(round)s inesistente: il piano ha %(rounds)s turni.")
                           % {"round": round_number, "rounds": pair.tournament.rounds_planned})
    actor = _as_actor(by)
    penalty = Penalty.objects.create(tournament=pair.tournament, pair=pair, vp=vp, reason=reason,
                                     round_number=round_number, created_by=actor.user)
    audit(tournament=pair.tournament, by=actor, action="penalty_added", round_number=round_number,
          new={"pair": pair.number, "vp": str(vp)}, reason=reason)
    return penalty


@transaction.atomic
def remove_penalty(*, penalty: Penalty, by, reason: str = "") -> None:
    """Cancel a penalty (kept in the audit trail)."""
    audit(tournament=penalty.tournament, by=by, action="penalty_removed", round_number=penalty.round_number,
          old={"pair": penalty.pair.number, "vp": str(penalty.vp), "reason": penalty.reason}, reason=reason)
    penalty.delete()


# --------------------------------------------------------------------------- custom VP scales
# A custom scale belongs to no tournament, so it has no place in a tournament's audit
# trail (AuditEntry.tournament is required): creation and deletion are logged instead.


@transaction.atomic
def create_custom_scale(*, scale, by):
    """Store an arbiter's VP scale (rules.md §4), e.g. for 2-hand rounds.

    ``scale``: a ``scoring.vp.VPScale`` (from ``scale_from_rows`` or ``scale_from_csv``),
    validated again here and stored as ``scale_to_dict`` in ``CustomScale.data``. Its id
    must differ from every built-in and custom scale. Returns the ``CustomScale``.
    Raises ArbiterError: id taken, or the scale invalid (``details`` lists every problem).
    """
    import logging

    from scoring import vp as vp_rules

    from .models import CustomScale

    try:
        vp_rules.validate_scale(scale)
    except vp_rules.ScaleError as exc:
        raise ArbiterError(_("Tabella VP non valida."), details=exc.messages) from exc
    if scale.id in vp_rules.builtin_scales() or CustomScale.objects.filter(scale_id=scale.id).exists():
        raise ArbiterError(_("Esiste già una tabella VP con codice «%(code)s».") % {"code": scale.id})
    try:
        with transaction.atomic():
            custom = CustomScale.objects.create(
                scale_id=scale.id, name=scale.name, data=vp_rules.scale_to_dict(scale)
            )
    except IntegrityError as exc:  # the same id saved from another window meanwhile
        raise ArbiterError(_("Esiste già una tabella VP con codice «%(code)s».") % {"code": scale.id}) from exc
    logging.getLogger("arbitro.scales").info("%s created VP scale %s", _as_actor(by).label, scale.id)
    return custom


@transaction.atomic
def delete_custom_scale(*, scale_id: str, by) -> None:
    """Delete a custom VP scale. Refused while a tournament uses it (its results would
    lose their scale) and for a built-in scale. Raises ArbiterError."""
    import logging

    from .models import CustomScale

    custom = CustomScale.objects.select_for_update().filter(scale_id=scale_id).first()
    if custom is None:
        raise ArbiterError(_("La tabella «%(code)s» non è una tabella personalizzata.") % {"code": scale_id})
    users = list(Tournament.objects.filter(vp_scale=scale_id).values_list("name", flat=True)[:5])
    if users:
        raise ArbiterError(
            _("La tabella «%(name)s» è usata dal torneo %(tournaments)s: non si può cancellare.")
            % {"name": custom.name, "tournaments": ", ".join(users)}
        )
    custom.delete()
    logging.getLogger("arbitro.scales").info("%s deleted VP scale %s", _as_actor(by).label, scale_id)
