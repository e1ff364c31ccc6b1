"""A tournament file's values checked as the pages and services check them, and its derived
values recomputed (after :func:`~tournaments.transfer.reader.read_plan` checked types,
choices, lengths and references).

A file is input like any form: the settings go through the settings page's checks (plan,
tie-breaks, team sizes, groups, the VP scale's hands), the sheets through the score entry's
(hands per round, multiples of 5, bounds, base + cards) and their totals, MP and VP are
computed again by ``scoring.sheets.sheet_totals`` from the hands and the scale (or, for an
arbitral score, checked as ``services.sheets.set_arbitral_score`` checks it); they must be
the file's. States that belong together: a closed round holds only validated sheets, rounds
are closed, then at most one published, then at most one draft, a draft round's sheets are
empty. Captain tokens and PINs have the shape the server gives them, and no two tables (nor
two teams) share a token; the clock's seconds stay within :data:`limits.MAX_CLOCK_SECONDS`;
the plan has a round for each round of the file. Every problem is
returned with its path in the file (``rounds[2].tables[4].sheet.vp_ns``); nothing here writes.
"""
from __future__ import annotations

import re
from decimal import Decimal

from django import forms as dj_forms
from django.utils.translation import gettext as _

from pairing.plan import PlanError, parse_plan
from scoring import sheets as sheet_rules
from scoring import vp as vp_rules

from ..errors import ArbiterError
from ..forms import TiebreakField
from ..i18n_messages import message_text
from ..kinds import KINDS
from ..models import Round, ScoreSheet
from ..registrations import limits
from ..registrations.reading import text_refusal
from ..services.tournament import check_plan

TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
PIN = re.compile(r"^[0-9]{4}$")
#: The largest number of a pair formed for one round (individual and team tournaments).
MAX_FORMED_NUMBER = 10 ** 6
#: Round states in the order a tournament passes through them: closed…, published?, draft?
STATE_ORDER = re.compile(r"^c*p?d?$")
STATE_LETTER = {Round.State.CLOSED: "c", Round.State.PUBLISHED: "p", Round.State.DRAFT: "d"}


def plan_length(text) -> int | None:
    """Rounds of the plan ``text`` (``"MMD|DD"``: 5), or None when it is malformed (refused
    by the settings' check already)."""
    try:
        return len(parse_plan(text if isinstance(text, str) else ""))
    except PlanError:
        return None


def scale_of_file(plan: dict, scale_here) -> vp_rules.VPScale | None:
    """The VP scale the file's sheets are computed with: the file's custom scale, else the
    one of that id on this server (``scale_here(scale_id)``, KeyError when none: the import
    refuses it later with its own sentence, and no sheet is checked then)."""
    if plan["scale"] is not None:
        return vp_rules.scale_from_dict(plan["scale"]["data"])
    try:
        return scale_here(plan["head"]["vp_scale"])
    except KeyError:
        return None


def _texts(errors: list, where: str, values: dict, names) -> None:
    for name in names:
        value = values.get(name)
        if isinstance(value, str):
            problem = text_refusal(value)
            if problem:
                errors.append(f"{where}.{name}: {problem}")


def _settings(errors: list, plan: dict, scale) -> None:
    head = plan["head"]
    kind = KINDS.get(head["kind"])
    _texts(errors, "tournament", head, ("name", "venue"))
    try:
        check_plan(head["plan"])
    except ArbiterError as exc:   # a malformed plan, or more than limits.MAX_ROUNDS rounds
        errors.append(f"tournament.plan: {exc.message}")
    try:
        keys = TiebreakField().to_python(head["tiebreaks"])
        if kind is not None and kind.data.excluded_tiebreaks:  # rules.md §9: none the kind excludes
            kind.normal_tiebreaks(keys)
    except dj_forms.ValidationError as exc:
        errors.append("tournament.tiebreaks: " + " ".join(exc.messages))
    except ArbiterError as exc:
        errors.append(f"tournament.tiebreaks: {exc.message}")
    if kind is not None:
        try:  # the kind's other rules (teams: rounds, scale, sizes); the tie-breaks are checked above
            kind.check_new_settings(dict(head, tiebreaks=None))
        except ArbiterError as exc:
            errors.append(f"tournament: {exc.message}")
    for name, low, high in (("hands_per_round", 1, limits.MAX_HANDS), ("mitchell_step", 1, limits.MAX_TABLES),
                            ("minutes_per_round", 1, 600), ("team_min_players", 1, 100),
                            ("team_max_players", 1, 100), ("groups", 1, limits.MAX_GROUPS)):
        value = head.get(name)
        if value is not None and not low <= value <= high:
            errors.append(f"tournament.{name}: " + _("atteso un numero da %(low)s a %(high)s") % {"low": low, "high": high})
    if not Decimal(0) <= head["bye_percent"] <= Decimal(100):
        errors.append("tournament.bye_percent: " + _("atteso un numero da %(low)s a %(high)s") % {"low": 0, "high": 100})
    # the teams of a team tournament (its rounds are matches), else the registered pairs
    entrants = len(plan["teams"]) if kind is not None and kind.data.has_matches else \
        sum(1 for _v, rnd, _t in plan["pairs"] if rnd is None)
    if head["groups"] > 1 and head["groups"] > entrants // 2:
        errors.append("tournament.groups: " + _("%(g)s gironi con %(n)s iscritti (almeno 2 per girone)")
                      % {"g": head["groups"], "n": entrants})
    if scale is not None and scale.hands and scale.hands != head["hands_per_round"] and plan["scale"] is None:
        errors.append("tournament.vp_scale: " + _("la tabella è per %(scale)s smazzate, il torneo ne gioca %(hands)s")
                      % {"scale": scale.hands, "hands": head["hands_per_round"]})
    order = head.get("mitchell_order")
    # the numbers the movement orders: pairs' (players' in an individual tournament's movement,
    # teams' in a team tournament)
    numbers = ({values.get("number") for values, _r, _t in plan["pairs"]}
               | {values.get("number") for values, *_rest in plan["players"]}
               | {values.get("number") for values, _c in plan["teams"]})
    if not isinstance(order, list):
        errors.append("tournament.mitchell_order: " + _("attesa una lista di numeri di coppia"))
    else:
        for k, n in enumerate(order):
            if isinstance(n, bool) or not isinstance(n, int) or n not in numbers:
                errors.append(f"tournament.mitchell_order[{k}]: " + _("la coppia %(n)s non è nel file") % {"n": repr(n)})
                break
        if len(set(x for x in order if isinstance(x, int))) != len(order):
            errors.append("tournament.mitchell_order: " + _("una coppia compare due volte"))


def _entrants(errors: list, plan: dict) -> None:
    groups = plan["head"]["groups"]
    for i, (values, rnd, _team) in enumerate(plan["pairs"]):
        most = limits.MAX_ENTRY_NUMBER if rnd is None else MAX_FORMED_NUMBER
        if values.get("number", 0) > most:
            errors.append(f"pairs[{i}].number: " + _("al massimo %(max)s") % {"max": most})
        if values.get("group") is not None and not 1 <= values["group"] <= groups:
            errors.append(f"pairs[{i}].group: " + _("atteso un girone da 1 a %(n)s") % {"n": groups})
        if (values.get("withdrawn_from_round") or 0) > limits.MAX_ROUNDS:
            errors.append(f"pairs[{i}].withdrawn_from_round: " + _("al massimo %(max)s") % {"max": limits.MAX_ROUNDS})
    seen_memberships: dict[str, int] = {}  # a membership number plays once in a tournament (§16)
    for i, (values, _pair, _team, _key) in enumerate(plan["players"]):
        membership = values.get("membership_number")
        if isinstance(membership, str) and membership:
            # read in its stored form (reader: «８８０００７» is 880007), so two spellings of one
            # number are one; the database's constraint would refuse it later without a path
            if membership in seen_memberships:
                errors.append(f"players[{i}].membership_number: "
                              + _("tessera ripetuta: è già di players[%(other)s]") % {"other": seen_memberships[membership]})
            seen_memberships.setdefault(membership, i)
        if (values.get("number") or 0) > limits.MAX_ENTRY_NUMBER:
            errors.append(f"players[{i}].number: " + _("al massimo %(max)s") % {"max": limits.MAX_ENTRY_NUMBER})
        _texts(errors, f"players[{i}]", values, ("first_name", "last_name", "membership_number", "club"))
        if (values.get("withdrawn_from_round") or 0) > limits.MAX_ROUNDS:
            errors.append(f"players[{i}].withdrawn_from_round: " + _("al massimo %(max)s") % {"max": limits.MAX_ROUNDS})
    team_tokens: set = set()   # Team.token is unique on the server: one link, one team
    for i, (values, _captain) in enumerate(plan["teams"]):
        if values.get("token") in team_tokens:
            errors.append(f"teams[{i}].token: " + _("lo stesso link del capitano è di due squadre"))
        team_tokens.add(values.get("token"))
        if values.get("number", 0) > limits.MAX_ENTRY_NUMBER:
            errors.append(f"teams[{i}].number: " + _("al massimo %(max)s") % {"max": limits.MAX_ENTRY_NUMBER})
        _texts(errors, f"teams[{i}]", values, ("name",))
        if not TOKEN.match(values.get("token", "")):
            errors.append(f"teams[{i}].token: " + _("link del capitano non valido"))
        if values.get("group") is not None and not 1 <= values["group"] <= groups:
            errors.append(f"teams[{i}].group: " + _("atteso un girone da 1 a %(n)s") % {"n": groups})


def _sheet(errors: list, where: str, sheet: dict, hands: list, *, hands_per_round: int, scale, rnd_state: str) -> None:
    state = sheet["state"]
    if any(h.get("number") != k for k, h in enumerate(hands, start=1)):
        errors.append(f"{where}.hands: " + _("le smazzate sono numerate 1, 2, 3… in ordine"))
        return
    if sheet["draft"] is not None and (state != ScoreSheet.State.EMPTY or not isinstance(sheet["draft"], dict)):
        # services.sheet_drafts: the arbiter's unfinished grid of a sheet still empty, an object
        errors.append(f"{where}.draft: " + _("una bozza dell'arbitro è di uno score ancora da inserire"))
        return
    if state == ScoreSheet.State.EMPTY:
        if hands or sheet["mp_ns"] or sheet["mp_ew"] or sheet["vp_ns"] or sheet["vp_ew"] or sheet["arbitral"]:
            errors.append(f"{where}: " + _("uno score da inserire non ha smazzate né punti"))
        return
    if rnd_state == Round.State.DRAFT:
        errors.append(f"{where}.state: " + _("un turno in bozza ha solo score da inserire"))
        return
    if scale is None:
        return
    if sheet["arbitral"]:   # as services.sheets.set_arbitral_score
        if hands:
            errors.append(f"{where}.hands: " + _("un punteggio arbitrale non ha smazzate"))
        if state != ScoreSheet.State.VALIDATED:
            errors.append(f"{where}.state: " + _("un punteggio arbitrale è validato"))
        for line in ("vp_ns", "vp_ew"):
            if not Decimal(0) <= sheet[line] <= Decimal(scale.max_vp):
                errors.append(f"{where}.{line}: " + _("I VP devono stare tra 0 e %(max)s.") % {"max": scale.max_vp})
                return
        for line in ("mp_ns", "mp_ew"):
            if sheet[line] % 5 or abs(sheet[line]) > sheet_rules.MAX_HAND_MP * hands_per_round:
                errors.append(f"{where}.{line}: " + _("%(mp)s non è multiplo di 5.") % {"mp": sheet[line]}
                              if sheet[line] % 5 else f"{where}.{line}: " + _("fuori dai limiti"))
                return
        return
    for k, h in enumerate(hands):
        for part in ("ns_base", "ns_cards", "ew_base", "ew_cards"):
            if h.get(part) is not None and abs(h[part]) > sheet_rules.MAX_HAND_MP:
                errors.append(f"{where}.hands[{k}].{part}: " + _("fuori dai limiti (al massimo %(max)s MP in valore "
                                                                "assoluto)") % {"max": sheet_rules.MAX_HAND_MP})
                return
        for line in ("ns", "ew"):
            base, cards, score = h.get(f"{line}_base"), h.get(f"{line}_cards"), h.get(f"{line}_score")
            if base is not None and cards is not None and score is not None and base + cards != score:
                errors.append(f"{where}.hands[{k}].{line}_score: " + _("base %(base)s + carte %(cards)s non fa "
                                                                      "%(total)s") % {"base": base, "cards": cards,
                                                                                      "total": score})
                return
    try:   # the score entry's own arithmetic (services.sheets._checked_totals)
        totals = sheet_rules.sheet_totals(
            [sheet_rules.HandScore(ns=h["ns_score"], ew=h["ew_score"]) for h in hands], scale,
            declared=(sheet["declared_ns"], sheet["declared_ew"]), expected_hands=hands_per_round)
    except sheet_rules.SheetError as exc:
        errors.append(f"{where}.hands: " + "; ".join(message_text(m) for m in exc.messages))
        return
    for name, value in (("mp_ns", totals.mp_ns), ("mp_ew", totals.mp_ew), ("vp_ns", Decimal(totals.vp_ns)),
                        ("vp_ew", Decimal(totals.vp_ew)), ("sum_error", totals.sum_error)):
        if sheet[name] != value:
            errors.append(f"{where}.{name}: " + _("%(file)s nel file, %(computed)s calcolato dalle smazzate e dalla "
                                                  "tabella VP") % {"file": sheet[name], "computed": value})
            return
    if state == ScoreSheet.State.VALIDATED and totals.sum_error:
        errors.append(f"{where}.state: " + _("uno score validato non resta con un errore di somma"))


def _clock_seconds(errors: list, where: str, values: dict, names, *, signed: bool = False) -> None:
    """The clock counters ``names`` of ``values`` within 0..MAX_CLOCK_SECONDS (``signed``:
    ±, time added to the room may be negative to correct a slip, services.clock)."""
    most = limits.MAX_CLOCK_SECONDS
    for name in names:
        value = values.get(name)
        if isinstance(value, int) and not (-most if signed else 0) <= value <= most:
            errors.append(f"{where}.{name}: " + _("atteso un numero da %(low)s a %(high)s")
                          % {"low": -most if signed else 0, "high": most})


def _rounds(errors: list, plan: dict, scale) -> None:
    head = plan["head"]
    numbers = [values["number"] for values, *_rest in plan["rounds"]]
    planned = plan_length(head["plan"])
    if planned is not None and len(numbers) > planned:
        # every round is one letter of the plan (rules.md §11): Tournament.system_of_round reads it
        errors.append("tournament.plan: " + _("il piano ha %(plan)s turni, il file ne contiene %(rounds)s")
                      % {"plan": planned, "rounds": len(numbers)})
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        errors.append("rounds: " + _("i turni sono numerati 1, 2, 3… senza salti"))
        return
    by_number = sorted(range(len(numbers)), key=lambda i: numbers[i])
    states = "".join(STATE_LETTER.get(plan["rounds"][i][0]["state"], "?") for i in by_number)
    if not STATE_ORDER.match(states):
        first = next(k for k in range(len(states) + 1) if not STATE_ORDER.match(states[:k + 1]))
        errors.append(f"rounds[{by_number[first]}].state: " + _(
            "i turni sono chiusi, poi al più uno pubblicato, poi al più una bozza"))
    tokens: set = set()   # a captain's link opens one table (Table.token is unique on the server)
    for i, (values, tables, _members, _matches) in enumerate(plan["rounds"]):
        _clock_seconds(errors, f"rounds[{i}]", values, ("clock_duration", "clock_paused_seconds"))
        _clock_seconds(errors, f"rounds[{i}]", values, ("clock_added_seconds",), signed=True)
        seen_tables, seated = set(), set()
        for j, (t, seats, sheet) in enumerate(tables):
            where = f"rounds[{i}].tables[{j}]"
            if t["number"] in seen_tables:
                errors.append(f"{where}.number: " + _("tavolo ripetuto"))
            seen_tables.add(t["number"])
            if not TOKEN.match(t["token"]):
                errors.append(f"{where}.token: " + _("link del capitano non valido"))
            elif t["token"] in tokens:
                errors.append(f"{where}.token: " + _("lo stesso link del capitano è di due tavoli"))
            tokens.add(t["token"])
            _clock_seconds(errors, where, t, ("clock_extra_seconds",))
            if not PIN.match(t["pin"]):
                errors.append(f"{where}.pin: " + _("il PIN ha 4 cifre"))
            for line, pair in seats.items():
                if pair is not None and pair in seated:
                    errors.append(f"{where}.{line}: " + _("la coppia %(n)s siede due volte in questo turno") % {"n": pair})
                seated.add(pair)
            if sheet is None:
                if values["state"] == Round.State.CLOSED and not t["bye"]:
                    errors.append(f"{where}.sheet: " + _("un turno chiuso ha tutti gli score validati"))
                continue
            sheet_values, hands = sheet
            _sheet(errors, f"{where}.sheet", sheet_values, hands, hands_per_round=head["hands_per_round"],
                   scale=scale, rnd_state=values["state"])
            if values["state"] == Round.State.CLOSED and not t["bye"] \
                    and sheet_values["state"] != ScoreSheet.State.VALIDATED:
                errors.append(f"{where}.sheet.state: " + _("un turno chiuso ha tutti gli score validati"))
    for i, (values, *_rest) in enumerate(plan["penalties"]):
        if (values.get("round_number") or 0) > limits.MAX_ROUNDS:
            errors.append(f"penalties[{i}].round_number: " + _("al massimo %(max)s") % {"max": limits.MAX_ROUNDS})


def check_consistency(plan: dict, scale) -> None:
    """Raise :class:`ArbiterError` (``details``: ``path: problem``, the first bad value
    first) when the plan of :func:`~tournaments.transfer.reader.read_plan` holds a setting,
    sheet or state the pages and services would refuse, or a derived value that is not
    what they compute. ``scale``: :func:`scale_of_file` (None: the sheets' VP are not
    checked here, the import refuses the unknown scale itself)."""
    errors: list[str] = []
    _settings(errors, plan, scale)
    _entrants(errors, plan)
    _rounds(errors, plan, scale)
    if errors:
        details = errors[:30]
        if len(errors) > 30:
            details.append(_("… e altri %(n)s errori.") % {"n": len(errors) - 30})
        raise ArbiterError(_("Il file del torneo contiene errori: nulla è stato importato."), details=details)
