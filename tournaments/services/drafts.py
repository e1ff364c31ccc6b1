"""What a draft was drawn from, and whether it is outdated (rules.md §12): the inputs are
recorded on the round (``Round.drawn_from``) and computed again to compare."""
from __future__ import annotations

import hashlib
import json

from django.utils.translation import gettext as _

from .. import selectors
from ..kinds import kind_of
from ..models import (
    Round,
    Tournament,
)
from ..plans import last_round_rematch
from .pairing_requests import active_numbers, build_pairing_request


def generation_state(tournament: Tournament) -> str:
    """A short digest of what the generate form shows: the rounds (number, id, state,
    closing time), the pairs (number, status, round of withdrawal), plan and first-round
    rule. The form posts it back with the round number it offered; generating changes
    it, so a repeated or stale post is told apart and changes
    nothing."""
    rounds = [
        [n, pk, state, closed.isoformat() if closed else None]
        for n, pk, state, closed in tournament.rounds.order_by("number").values_list(
            "number", "pk", "state", "closed_at")
    ]
    # the entrants: pairs, numbered players or teams (the digest's key stays "pairs")
    pairs = [list(row) for row in kind_of(tournament).entrants(tournament).order_by("number")
             .values_list("number", "status", "withdrawn_from_round")]
    return _digest({"rounds": rounds, "pairs": pairs, "plan": tournament.plan.upper(),
                    "first_round": tournament.first_round})[:20]


def _canonical(value):
    """``value`` as plain JSON values (tuples → lists, Decimal → str), as stored in a JSONField."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(_canonical(value), sort_keys=True).encode()).hexdigest()


def _pairing_settings(tournament: Tournament, number: int) -> dict:
    """The settings a draft of round ``number`` depends on (rules.md §12): its system,
    the tie-break order (it ranks the pairs: Danish pairing, who rests), the Mitchell
    step (Mitchell) or the rematch rule (Danish; a round robin has neither: its groups are
    in the request), and for round 1 the first-round rule."""
    system = tournament.system_of_round(number)
    settings = {"system": system, "tiebreaks": tournament.tiebreaks}
    if system == Round.System.MITCHELL:
        settings["mitchell_step"] = tournament.mitchell_step
    elif system == Round.System.DANISH:
        settings["rematch_window"] = tournament.rematch_window
        if last_round_rematch(tournament, number):  # only when on: older drafts stay current
            settings["last_round_rematches"] = True
    if number == 1:
        settings["first_round"] = tournament.first_round
    return settings


def _standings_snapshot(tournament: Tournament, number: int) -> list[list]:
    """The standings a draft of round ``number`` was ranked from (after round
    ``number - 1``, closed rounds only), one ``[pair, position, VP, MP difference,
    MP scored, withdrawn]`` per pair; empty for round 1."""
    if number == 1 or not tournament.rounds.filter(number__lt=number).exists():
        return []
    return [
        [row.pair, row.position, f"{row.vp}", row.mp_difference, row.mp_scored, row.withdrawn]
        for row in selectors.standings(tournament, after_round=number - 1)
    ]


def draft_inputs(tournament: Tournament, number: int, seed: int | None, *,
                 active: list[int] | None = None, request: dict | None = None) -> dict:
    """Everything a draft of round ``number`` is computed from, as plain JSON values:
    ``settings`` (:func:`_pairing_settings`), ``active`` (pair numbers in play),
    ``standings`` (:func:`_standings_snapshot`), ``request`` (the pairing request,
    pairing-io.md, from :func:`build_pairing_request`) and their ``digest``.

    ``active`` and ``request``: the entrants in play and the request the draw itself used
    (``services.rounds._draw``), recorded as they are instead of read a second time; when
    omitted (a staleness check) they are read now."""
    with selectors.same_standings():  # the snapshot and the request's ranking: one read
        inputs = _canonical({
            "settings": _pairing_settings(tournament, number),
            "active": active if active is not None else active_numbers(tournament, number),
            "standings": _standings_snapshot(tournament, number),
            "request": request if request is not None else build_pairing_request(tournament, number, seed=seed),
        })
    inputs["digest"] = _digest(inputs)
    return inputs


def _setting_label(key: str) -> str:
    if key == "system":
        return _("sistema del turno")
    return str(Tournament._meta.get_field(key).verbose_name)


def _setting_value(key: str, value) -> str:
    """A setting's value as the settings page shows it (choice labels, not codes)."""
    if isinstance(value, bool):
        return _("sì") if value else _("no")
    choices = dict(Round.System.choices) if key == "system" else dict(
        Tournament._meta.get_field(key).choices or ())
    return str(choices.get(value, value))


def draft_staleness(rnd: Round) -> list[str]:
    """Why the draft ``rnd`` is outdated, as sentences in plain Italian; empty when it
    is not (or when ``rnd`` is not a draft, or was drawn before drafts recorded their
    inputs).

    The draft records what it was drawn from (``Round.drawn_from``); the same inputs
    are computed again now and compared (rules.md §12): a sheet correction, swapped
    lines, an arbitral score or a penalty change the standings; a withdrawal changes the
    pairs in play; a change of tie-breaks, rematch rule or Mitchell step changes the
    settings. A change that touches none of them (e.g. the venue) leaves the draft
    current.
    """
    if rnd.state != Round.State.DRAFT or not rnd.drawn_from.get("digest"):
        return []
    tournament = rnd.tournament
    then = rnd.drawn_from
    now = draft_inputs(tournament, rnd.number, then.get("seed"))
    if now["digest"] == then["digest"]:
        return []
    reasons = []
    then_settings = then.get("settings", {})
    # a key only recorded when on (last_round_rematches) counts as off when absent
    for key in list(then_settings) + [k for k in now["settings"] if k not in then_settings]:
        old, new = then_settings.get(key), now["settings"].get(key)
        if key == "last_round_rematches":
            old, new = bool(old), bool(new)
        if new != old:
            reasons.append(_("«%(setting)s» è cambiato: era %(old)s, ora %(new)s.")
                           % {"setting": _setting_label(key), "old": _setting_value(key, old),
                              "new": _setting_value(key, new)})
    gone = sorted(set(then.get("active", [])) - set(now["active"]))
    added = sorted(set(now["active"]) - set(then.get("active", [])))
    kind = kind_of(tournament)
    for numbers, sentence in ((gone, kind.data.gone_from_play), (added, kind.data.entered_play)):
        if numbers:  # withdrawn, entered (rules.md §12)
            reasons.append(sentence % {"n": len(numbers), "numbers": ", ".join(map(str, numbers))})
    old_rows = {row[0]: row for row in then.get("standings", [])}
    new_rows = {row[0]: row for row in now["standings"]}
    changed = sorted(p for p in set(old_rows) | set(new_rows)
                     if (old_rows.get(p) or [None] * 6)[2:5] != (new_rows.get(p) or [None] * 6)[2:5])
    if changed:
        reasons.append(kind.data.standings_changed
                       % {"round": rnd.number - 1, "numbers": ", ".join(map(str, changed))})
    elif [r[:2] for r in then.get("standings", [])] != [r[:2] for r in now["standings"]]:
        reasons.append(_("L'ordine della classifica dopo il turno %(round)s è cambiato.")
                       % {"round": rnd.number - 1})
    if not reasons:
        reasons.append(_("I dati dell'accoppiamento (incontri, riposi o movimento Mitchell) sono cambiati."))
    return reasons


def record_adjusted_inputs(rnd: Round) -> None:
    """After a service completes a current draft in place (a late pair takes the rest
    table, art. 33), record the inputs it now answers to, so the completed draft does
    not read as outdated. Keeps the seed and the generate form's state."""
    inputs = draft_inputs(rnd.tournament, rnd.number, rnd.drawn_from.get("seed"))
    for key in ("seed", "form_state"):
        if key in rnd.drawn_from:
            inputs[key] = rnd.drawn_from[key]
    rnd.drawn_from = inputs
    rnd.save(update_fields=["drawn_from"])


