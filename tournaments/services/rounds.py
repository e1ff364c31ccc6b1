"""The round cycle: generate a draft, adjust it, publish, close, reopen."""
from __future__ import annotations

import copy
import random

from django.utils import timezone
from django.utils.translation import gettext as _

import pairing
import pairing.check

from .. import selectors, signals
from ..errors import ArbiterError
from ..i18n_messages import coded, message_text, stored, stored_text
from ..kinds import kind_of
from ..kinds.individual import (
    individual_response_from_round,
    parse_hand_tables,
    repeated_partner_messages,
    swap_players_in_draft,
    write_individual_tables,
)
from ..models import (
    AuditAction,
    Round,
    ScoreSheet,
    Seat,
    Table,
    Tournament,
)
from .audit import audit
from .drafts import draft_inputs, draft_staleness, generation_state
from .groups import groups_refusal
from .guard import write
from .locks import lock_round, lock_tables, lock_tournament
from .pairing_requests import active_numbers, build_pairing_request

# the one lock order (tournament, round, tables, sheet): services.locks
_lock_tournament = lock_tournament
_lock_tables = lock_tables


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


def _draw(tournament: Tournament, number: int, seed: int | None) -> tuple[Round, dict]:
    """Pair round ``number`` of the locked ``tournament`` as a draft: tables, seats,
    checker report and ``drawn_from``. Returns the round and the pairing response."""
    # Read once, under the tournament's lock (services.locks), which every write that changes
    # who plays also takes: the draft records exactly the entrants and request it was drawn
    # from, so a withdrawal committed after the draw makes it outdated (rules.md §12).
    kind = kind_of(tournament)
    active = kind.active_numbers(tournament, number)
    if len(active) < kind.data.minimum_to_draw:
        raise ArbiterError(str(kind.data.too_few_to_draw))
    if number == 1 and tournament.first_round == Tournament.FirstRound.LOT and seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    if number > 1:
        first = tournament.rounds.filter(number=1).first()
        seed = first.seed if first else seed
    _refuse_round_robin_groups(tournament, number)
    request = build_pairing_request(tournament, number, seed=seed)  # the kind's request
    if request["system"] == "mitchell" and not tournament.mitchell_order:
        # in groups (rules.md §19) the groups' orders one after the other: each group's
        # order is this one restricted to it (services.groups.with_groups)
        tournament.mitchell_order = request.get("pairs") or [n for g in request["groups"] for n in g]
        tournament.save(update_fields=["mitchell_order"])
        # the same request, now as it reads with the order stored (what draft_staleness
        # builds again); still under the tournament's lock, nothing else changed
        request = build_pairing_request(tournament, number, seed=seed)
    drawn_request = copy.deepcopy(request)  # as drawn, whatever the engine adds to it
    try:
        response = pairing.run(request)
    except pairing.PairingError as exc:
        # the engine's refusal in the reader's language (its code, pairing.messages)
        raise ArbiterError(_("Accoppiamento impossibile: %(reason)s") % {"reason": message_text(exc)}) from exc
    drawn_from = draft_inputs(tournament, number, seed, active=active, request=drawn_request)
    drawn_from["seed"] = seed
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        system=kind.round_system(tournament, number, request),
        step=tournament.mitchell_step,
        seed=seed if number == 1 else None,
        pairing_request=request,
        # kept as {"code", "params", "text"}: shown in the reader's language (Round.warning_messages)
        warnings=[stored(m) for m in (adjustment_messages(response)
                                      + repeated_partner_messages(response)
                                      + list(response.get("warnings", [])))],
        explanations=list(response.get("explanations", [])),
        drawn_from=drawn_from,
    )
    kind.write_tables(rnd, response)
    rnd.check_report = [stored(m) for m in _check(request, response)]
    rnd.save(update_fields=["check_report"])
    return rnd, response


def _refuse_round_robin_groups(tournament: Tournament, number: int) -> None:
    """A round-robin round needs every pair in a group of at least 2 (rules.md §14), and so
    does any round of a field split into groups (Danish and Mitchell in groups, §19)."""
    if tournament.system_of_round(number) != Round.System.ROUND_ROBIN and tournament.groups <= 1:
        return
    refusal = groups_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)


@write
def generate_round(
    *,
    tournament: Tournament,
    by,
    seed: int | None = None,
    expected_round: int | None = None,
    expected_state: str | None = None,
) -> Round:
    """Pair the next round as a draft (rules.md §6–7) and run the checker on it.

    Re-generating while the round is still a draft replaces the draft. Refused while
    the previous round is not closed, beyond the planned rounds, or with fewer than
    two active pairs. Returns the draft round with ``warnings``, ``explanations``
    and ``check_report`` (checker violations) filled in, and ``drawn_from`` recording
    what it was drawn from (rules.md §12, see :func:`draft_staleness`).

    ``expected_round`` / ``expected_state``: the round number the generate form offered
    and the :func:`generation_state` it showed, so a repeated or stale post changes nothing.
    The tournament row is locked; when the state has moved on because that very request
    already generated the round (a double click, three identical posts), the round is returned as it is,
    with nothing written and no second audit entry (``rnd.already_generated`` is True);
    any other change since the form was shown raises ``ArbiterError`` (stale form).
    Without them (service callers, scripts) the current state is taken as meant.
    """
    tournament = _lock_tournament(tournament)
    if expected_state is not None:
        if expected_state != generation_state(tournament):
            done = tournament.rounds.filter(number=expected_round).first() if expected_round else None
            if done is not None and done.drawn_from.get("form_state") == expected_state:
                done.already_generated = True
                return done
            raise ArbiterError(
                _("La pagina mostrava uno stato superato del torneo (un turno è stato generato o "
                  "modificato nel frattempo): ricaricala e riprova.")
            )
    number = _next_round_number(tournament)
    if expected_round is not None and expected_round != number:
        raise ArbiterError(
            _("La pagina offriva il turno %(expected)s, ma ora si genera il turno %(number)s: ricaricala e riprova.")
            % {"expected": expected_round, "number": number}
        )
    if number > tournament.rounds_planned:
        raise ArbiterError(_("Il piano prevede %(rounds)s turni: sono già stati generati tutti.")
                           % {"rounds": tournament.rounds_planned})
    existing = tournament.rounds.filter(number=number).first()
    if existing is not None:
        existing.delete()  # a draft: regenerate replaces it
    with selectors.same_standings():  # the request's ranking and the draft's inputs: one read
        rnd, response = _draw(tournament, number, seed)
    if expected_state is not None:
        rnd.drawn_from["form_state"] = expected_state
        rnd.save(update_fields=["drawn_from"])
    audit(
        tournament=tournament, by=by, action=AuditAction.ROUND_GENERATED, round_number=number,
        new={"system": rnd.system, "seed": rnd.seed, "tables": response.get("tables"), "bye": response.get("bye")},
    )
    rnd.already_generated = False
    return rnd


@write
def redraw_round(*, round: Round, by) -> Round:
    """Draw an outdated draft again from the current standings and settings (rules.md
    §12: "one click draws it again"), with the same seed for a first round by lot.

    Only a draft; manual changes to it are lost (they were made on the old pairing).
    A draft that is not outdated is returned unchanged and nothing is audited, so a
    repeated click is harmless. Audited as ``round_redrawn`` with the reasons.
    Raises ``ArbiterError`` when the round is no longer a draft.
    """
    tournament = _lock_tournament(round.tournament)
    rnd = _draft(round)
    reasons = draft_staleness(rnd)
    if not reasons:
        rnd.already_generated = True
        return rnd
    _lock_tables(rnd)
    number, seed = rnd.number, rnd.drawn_from.get("seed")
    old_tables = response_from_round(rnd)["tables"]
    rnd.delete()
    new, response = _draw(tournament, number, seed)
    audit(
        tournament=tournament, by=by, action=AuditAction.ROUND_REDRAWN, round_number=number,
        old={"tables": old_tables, "reasons": reasons},
        new={"system": new.system, "seed": new.seed, "tables": response.get("tables"), "bye": response.get("bye")},
    )
    new.already_generated = False
    return new


def adjustment_messages(response: dict) -> list:
    """One message per second-rest exchange of a Mitchell response (rules.md §5, §6).

    Args:
        response: a pairing response; its ``adjustments`` ``[{"rests": S, "plays": R,
            "table": t, "line": "ns"|"ew"}]`` (pairing-io.md) and ``forced_byes`` are read.
    Returns:
        ``i18n_messages.Coded`` messages (codes ``round.exchange``, ``round.exchange_forced``
        when S has a forced rest), whose text is Italian, e.g. "La coppia 4 riposa al posto
        della coppia 5, che ha già riposato (art. 33); la 5 gioca al tavolo 2 in E/O.";
        stored with ``i18n_messages.stored`` they are shown in the reader's language.
    """
    out = []
    forced = set(response.get("forced_byes") or [])
    for a in response.get("adjustments") or []:
        if "line" not in a:  # an individual movement's exchange: individual.repeated_partner_messages
            continue
        code = "round.exchange_forced" if a["rests"] in forced else "round.exchange"
        out.append(coded(code, rests=a["rests"], plays=a["plays"], table=a["table"], line=a["line"]))
    return out


def adjustment_sentences(response: dict) -> list[str]:
    """The :func:`adjustment_messages` of ``response`` as sentences in the active language."""
    return [message_text(m) for m in adjustment_messages(response)]


def response_from_round(rnd: Round) -> dict:
    """The round's current tables in the pairing-io.md response shape (for the checker), as
    its tournament's kind reads them (:meth:`tournaments.kinds.Kind.response_from_round`)."""
    return kind_of(rnd.tournament).response_from_round(rnd)


def _check(request: dict, response: dict) -> list:
    """The checker's report (pairing.check); an individual system the checker does not know
    yet gives an empty report rather than a failure (the checker belongs to the pairing engines)."""
    individual_request = (request.get("kind") == "individual"
                          or request.get("system") in ("danish-individual", "individual-movement"))
    try:
        report = pairing.check.check(request, response)
    except (pairing.PairingError, KeyError, TypeError, ValueError):
        if individual_request:
            return []
        raise
    if individual_request and any(str(r).startswith("richiesta non valida") for r in report):
        return []  # the checker does not read this request shape (yet): nothing to report
    return report


def recheck_draft(rnd: Round) -> None:
    """Re-run the checker on the draft's current tables. The repeated meetings the engine
    itself listed (unavoidable, already in the draft's warnings) stay listed if still
    there; any other repeat, e.g. made by a hand change, is reported. The engine's
    second-rest exchanges (Mitchell ``adjustments``) are kept too, so a hand change
    undone leaves a clean report."""
    response = response_from_round(rnd)
    try:
        engine = pairing.run(rnd.pairing_request)
    except pairing.PairingError:
        engine = {}
    kind_of(rnd.tournament).keep_engine_findings(response, engine)
    rnd.check_report = [stored(m) for m in _check(rnd.pairing_request, response)]
    rnd.save(update_fields=["check_report"])


def _draft(rnd: Round) -> Round:
    rnd = lock_round(rnd)
    if rnd.state != Round.State.DRAFT:
        raise ArbiterError(_("Il turno è già pubblicato: il tabellone non si modifica più."))
    return rnd


@write
def swap_pairs(*, round: Round, pair_a: int, pair_b: int, by) -> Round:
    """Draft only: exchange the seats of two pairs (numbers); the checker re-runs. In a team
    tournament the numbers are teams: each takes the other's match and side, or rest (rules.md
    §15, pairing by hand)."""
    rnd = _draft(round)
    new = kind_of(rnd.tournament).swap_in_draft(rnd, pair_a, pair_b)
    recheck_draft(rnd)
    audit(tournament=rnd.tournament, by=by, action=AuditAction.DRAFT_SWAP, round_number=rnd.number, new=new)
    return rnd


@write
def swap_players(*, round: Round, player_a: int, player_b: int, by) -> Round:
    """Draft of an individual tournament only: exchange the places of two players (numbers:
    line, seat, or rest), e.g. for a first round by hand (rules.md §9); the checker re-runs.
    Raises ``ArbiterError`` for a published round or a player not in it."""
    rnd = _draft(round)
    swap_players_in_draft(rnd, player_a, player_b)
    recheck_draft(rnd)
    audit(tournament=rnd.tournament, by=by, action=AuditAction.DRAFT_SWAP, round_number=rnd.number,
          new={"players": [player_a, player_b]})
    return rnd


@write
def set_first_round_by_hand(*, round: Round, text: str, by) -> Round:
    """Draft of round 1 of an individual tournament: replace its tables with the arbiter's
    (rules.md §9, first round by hand). ``text``: one table a line, ``"1+2 v 3+4"`` (see
    :func:`individual.parse_hand_tables`); the players in play not written rest. The
    individual first-round engine validates it (every player once, at most three resting)
    and the checker re-runs. Raises ``ArbiterError`` for a line that does not read, an
    unknown or repeated player, too many resting players, or a round that is not a draft
    of round 1."""
    rnd = _draft(round)
    tournament = rnd.tournament
    if not kind_of(tournament).data.first_round_by_hand or rnd.number != 1:
        raise ArbiterError(_("Il primo turno a mano si scrive solo nella bozza del turno 1 di un torneo individuale."))
    tables = parse_hand_tables(text)
    players = active_numbers(tournament, 1)
    written = {p for t in tables for line in (t["ns"], t["ew"]) for p in line}
    request = {"system": "first_round", "kind": "individual", "method": "hand", "players": players,
               "tables": tables, "rest": [p for p in players if p not in written]}
    try:
        response = pairing.run(request)
    except pairing.PairingError as exc:
        raise ArbiterError(_("Tavoli non validi: %(reason)s") % {"reason": message_text(exc)}) from exc
    old = individual_response_from_round(rnd)["tables"]
    rnd.seats.all().delete()
    rnd.tables.all().delete()
    rnd.formed_pairs.all().delete()
    write_individual_tables(rnd, response)
    rnd.pairing_request = request
    rnd.save(update_fields=["pairing_request"])
    recheck_draft(rnd)
    audit(tournament=tournament, by=by, action=AuditAction.DRAFT_BY_HAND, round_number=1,
          old={"tables": old}, new={"tables": response["tables"], "rest": response.get("rest", [])})
    return rnd


@write
def move_to_rest(*, round: Round, pair: int, by) -> Round:
    """Draft only: give the rest to pair ``pair`` (number) instead of the current resting
    pair, which takes its seat. The checker re-runs and warns (art. 33)."""
    rnd = _draft(round)
    resting = kind_of(rnd.tournament).resting_number(rnd)
    if resting == pair:
        return rnd
    return swap_pairs(round=rnd, pair_a=resting, pair_b=pair, by=by)


def idle_pairs_seatable(rnd: Round) -> tuple[Table, Table] | None:
    """``(rest table, forced-rest table)`` when the two idle pairs of ``rnd`` may be seated
    together (:func:`seat_idle_pairs_together`), else None.

    Allowed when the round is a draft, or published with no score sheet entered yet
    (the pairs can still play all the hands); the round has exactly one rest table
    (*riposo*) and one forced-rest table (*riposo forzato*, opponent withdrawn), each
    with one pair; the two pairs have not met before (rules.md §5, art. 32–33); and in a
    round drawn in groups they are of the same group (§14, §19).
    """
    if rnd.state == Round.State.CLOSED or not kind_of(rnd.tournament).data.idle_entrants_share_a_table:
        return None  # individual rests are single players: they cannot form a table of two lines
    if rnd.state == Round.State.PUBLISHED and ScoreSheet.objects.filter(
            table__round=rnd).exclude(state=ScoreSheet.State.EMPTY).exists():
        return None
    rests = list(rnd.tables.filter(bye=Table.Bye.REST))
    forced = list(rnd.tables.filter(bye=Table.Bye.FORCED))
    if len(rests) != 1 or len(forced) != 1:
        return None
    a, b = rests[0].resting_pair, forced[0].resting_pair
    if a is None or b is None or rests[0].seats.count() != 1 or forced[0].seats.count() != 1:
        return None
    groups = (rnd.pairing_request or {}).get("groups")
    if groups and not any(a.number in g and b.number in g for g in groups):
        return None  # rules.md §14, §19: a table never holds pairs of two groups
    met, _last = selectors.meetings(rnd.tournament, before_round=rnd.number)
    if any({a.number, b.number} == {m[0], m[1]} for m in met):
        return None
    return rests[0], forced[0]


@write
def seat_idle_pairs_together(*, round: Round, by) -> Round:
    """Seat the resting pair and the forced-resting pair at one normal table.

    Args:
        round: a draft, or a published round with no score sheet entered.
        by: the arbiter (user or :class:`Actor`).
    Returns:
        the round. The forced-rest table (the incomplete table, with its pair's seat and
        line) becomes a normal table: the resting pair takes the empty line; the rest
        table is removed. On a published round the table's score sheet is opened; on a
        draft the checker re-runs (it reports the change from the movement).
    Raises:
        ArbiterError: not allowed (see :func:`idle_pairs_seatable`: no rest and forced rest
            together, the two pairs already met, a sheet already entered, round closed).

    Source: rules.md §5 (art. 32, 33).
    """
    rnd = lock_round(round)
    tables = idle_pairs_seatable(rnd)
    if tables is None:
        raise ArbiterError(_("Le due coppie a riposo non si possono far giocare insieme: serve un turno "
                             "non chiuso, senza score inseriti, con un riposo e un riposo forzato, e le due "
                             "coppie non devono essersi già incontrate."))
    rest_table, forced_table = tables
    rest_seat = rest_table.seats.select_related("pair").get()
    forced_seat = forced_table.seats.select_related("pair").get()
    line = Seat.Line.EW if forced_seat.line == Seat.Line.NS else Seat.Line.NS
    resting = rest_seat.pair
    rest_table.delete()  # its seat goes with it
    Seat.objects.create(round=rnd, table=forced_table, pair=resting, line=line)
    Table.objects.filter(pk=forced_table.pk).update(bye=Table.Bye.NONE)
    if rnd.state == Round.State.PUBLISHED:
        ScoreSheet.objects.get_or_create(table_id=forced_table.pk)
    else:
        recheck_draft(rnd)
    ns, ew = (forced_seat.pair.number, resting.number) if line == Seat.Line.EW else (
        resting.number, forced_seat.pair.number)
    audit(tournament=rnd.tournament, by=by, action=AuditAction.IDLE_PAIRS_SEATED, round_number=rnd.number,
          old={"rest": resting.number, "forced_rest": forced_seat.pair.number},
          new={"table": forced_table.number, "ns": ns, "ew": ew})
    return rnd


@write
def publish_round(*, round: Round, by, acknowledge_warnings: bool = False) -> Round:
    """Publish a draft: the table list is posted and score sheets are opened.

    Refused when the draft is outdated (:func:`draft_staleness`, rules.md §12; the
    reasons are the error's ``details``), when a pair in play is missing from the
    tables or sits twice, and when a pair seated is no longer in play (withdrawn); when the checker reports other violations (e.g. an
    avoidable rematch after a manual change) the arbiter must acknowledge them.
    """
    rnd = _draft(round)
    tournament = rnd.tournament
    reasons = draft_staleness(rnd)
    if reasons:
        raise ArbiterError(
            _("La bozza del turno %(round)s è superata: ridisegnala prima di pubblicarla (regole §12).")
            % {"round": rnd.number},
            details=reasons,
        )
    active = set(active_numbers(tournament, rnd.number))
    seated = kind_of(tournament).seated_numbers(rnd)
    missing = sorted(active - set(seated))
    if missing:
        raise ArbiterError(
            _("Impossibile pubblicare: %(pairs)s senza tavolo né riposo.")
            % {"pairs": ", ".join(str(n) for n in missing)}
        )
    # and nobody seated who is not in play (withdrawn after the draw: art. 32, rules.md §5)
    extra = sorted(set(seated) - active)
    if extra:
        raise ArbiterError(
            _("Impossibile pubblicare: %(pairs)s non sono più in gara ma hanno un tavolo o un riposo: "
              "ridisegna il turno.")
            % {"pairs": ", ".join(str(n) for n in extra)}
        )
    if rnd.check_report and not acknowledge_warnings:
        raise ArbiterError(_("Il controllo ha segnalato problemi: confermali per pubblicare."),
                           details=[stored_text(item) for item in rnd.check_report])
    _lock_tables(rnd)
    # every playing table's empty sheet, in one INSERT (the tables are locked: none appears
    # meanwhile); a sheet already there (a round published, reopened as a draft) is kept
    with_sheet = set(ScoreSheet.objects.filter(table__round=rnd).values_list("table_id", flat=True))
    ScoreSheet.objects.bulk_create([ScoreSheet(table_id=table_id) for table_id in
                                    rnd.tables.filter(bye="").values_list("pk", flat=True)
                                    if table_id not in with_sheet])
    rnd.state = Round.State.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["state", "published_at"])
    audit(tournament=tournament, by=by, action=AuditAction.ROUND_PUBLISHED, round_number=rnd.number,
          new={"acknowledged": list(rnd.check_report) if acknowledge_warnings else []})
    return rnd


@write
def close_round(*, round: Round, by) -> Round:
    """Close a published round: every playing table's sheet must be validated.

    Once committed, the tournament's export (and on SQLite a copy of the database) is
    written to ``settings.ARBITRO_BACKUP_DIR`` (``tournaments.transfer.backups``); a failed
    backup is logged and never undoes the close."""
    rnd = lock_round(round)
    if rnd.state != Round.State.PUBLISHED:
        raise ArbiterError(_("Si può chiudere solo un turno pubblicato."))
    pending = list(
        rnd.tables.filter(bye="").exclude(sheet__state=ScoreSheet.State.VALIDATED).values_list("number", flat=True)
    )
    if pending:
        message = (_("Impossibile chiudere il turno: score non validati ai tavoli %(tables)s.")
                   % {"tables": ", ".join(map(str, pending))})
        drafts = list(rnd.tables.filter(bye="", sheet__draft__isnull=False).order_by("number")
                      .values_list("number", flat=True))
        if drafts:  # say which are the arbiter's unfinished drafts
            message += " " + (_("Bozze incomplete ai tavoli %(tables)s: completale o salvale per intero.")
                              % {"tables": ", ".join(map(str, drafts))})
        raise ArbiterError(message)
    rnd.state = Round.State.CLOSED
    rnd.closed_at = timezone.now()
    rnd.save(update_fields=["state", "closed_at"])
    audit(tournament=rnd.tournament, by=by, action=AuditAction.ROUND_CLOSED, round_number=rnd.number)
    signals.round_closed.send(sender=Round, tournament=rnd.tournament, round_number=rnd.number)
    return rnd


def reopen_refusal(rnd: Round) -> str | None:
    """Why round ``rnd`` cannot be reopened now, or ``None`` if it can (a read, no write).

    Only a closed round reopens, and only while the next round is at most a draft (a
    published pairing depended on these results). The reopen page shows the sentence
    before any form; :func:`reopen_round` raises it.
    """
    if rnd.state != Round.State.CLOSED:
        return _("Il turno %(round)s non è chiuso: non c'è niente da riaprire.") % {"round": rnd.number}
    nxt = rnd.tournament.rounds.filter(number=rnd.number + 1).first()
    if nxt is not None and nxt.state != Round.State.DRAFT:
        return (_("Il turno %(next)s è già pubblicato: il turno %(round)s non si può più riaprire. "
                  "Trascrizioni, linee invertite e punteggi arbitrali si applicano direttamente allo "
                  "score del turno chiuso (art. 31).")
                % {"next": nxt.number, "round": rnd.number})
    return None


@write
def reopen_round(*, round: Round, by, reason: str = "") -> Round:
    """Reopen a closed round, allowed only while the next round is at most a draft;
    that draft is discarded because its pairing depended on these results.

    Reopening is not needed for a correction: every kind allowed at that moment
    applies to the closed round's sheet directly (rules.md §3, art. 31;
    :func:`tournaments.services.corrections.correction_refusal`)."""
    rnd = lock_round(round)
    refusal = reopen_refusal(rnd)
    if refusal:
        raise ArbiterError(refusal)
    nxt = rnd.tournament.rounds.filter(number=rnd.number + 1).first()
    if nxt is not None:
        nxt.delete()
    rnd.state = Round.State.PUBLISHED
    rnd.closed_at = None
    rnd.save(update_fields=["state", "closed_at"])
    audit(tournament=rnd.tournament, by=by, action=AuditAction.ROUND_REOPENED, round_number=rnd.number, reason=reason,
          new={"draft_discarded": nxt is not None})
    return rnd


