"""The plan of a tournament as the arbiter writes it: sentences for a malformed plan and
for a change that would touch rounds already generated (rules.md §11).

The parsing itself is :func:`pairing.plan.parse_plan` (pure, shared with the random
tournament generator); this module only turns its refusals into Italian sentences.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from pairing.plan import PlanError, parse_plan

from .registrations import limits


def plan_refusal(plan: str) -> str | None:
    """The sentence that refuses ``plan`` (``"MM||DD"``, ``"|MM"``, ``"MX"``…, more than
    :data:`limits.MAX_ROUNDS` rounds), or None when it is valid (``"MMD|DD"``: five rounds,
    two sessions)."""
    try:
        rounds = parse_plan(plan)
    except PlanError as exc:
        return _sentence(exc)
    if len(rounds) > limits.MAX_ROUNDS:
        return _("Il piano ha %(n)s turni: al massimo %(max)s.") % {"n": len(rounds), "max": limits.MAX_ROUNDS}
    return None


def _sentence(exc: PlanError) -> str:
    if exc.code == "letter":
        return _("Il piano dei turni usa solo M (Mitchell), D (danese), R (girone all'italiana) "
                 "e | tra due sessioni (es. MMD|DD, RRRRR): «%(char)s» non è ammesso.") % {
            "char": exc.char}
    if exc.code == "leading":
        return _("Il piano non può iniziare con |: la barra separa due sessioni, "
                 "prima scrivi i turni della prima sessione (es. MMD|DD).")
    if exc.code == "trailing":
        return _("Il piano non può finire con |: dopo la barra scrivi i turni della "
                 "nuova sessione (es. MMD|DD).")
    if exc.code == "empty_session":
        return _("Il piano ha due | di seguito: ogni sessione deve avere almeno un turno "
                 "(es. MM|DD, non MM||DD).")
    return _("Il piano dei turni è vuoto: scrivi una lettera per turno, M (Mitchell), "
             "D (danese) o R (girone all'italiana), es. MMMD.")


def plan_prefix(plan: str, rounds: int) -> str:
    """The part of ``plan`` that covers its first ``rounds`` rounds, session bars included
    (``plan_prefix("MMD|DD", 4)`` → ``"MMD|D"``); "" for 0 rounds."""
    text, seen = [], 0
    for char in "".join((plan or "").split()).upper():
        if seen == rounds:
            break
        text.append(char)
        if char != "|":
            seen += 1
    return "".join(text)


def same_played_prefix(old: str, new: str, rounds: int) -> bool:
    """True when rounds 1..``rounds`` have the same system and the same session in both
    plans (``new`` valid): the only change allowed once those rounds are generated.

    ``"MM"`` → ``"MM|DD"`` with 2 rounds generated: True (a session appended).
    ``"MMDD"`` → ``"MM|DD"`` with 2 generated: True (rounds 3–4 not generated yet).
    ``"MMDD"`` → ``"M|MDD"`` with 2 generated: False (round 2 would change session).
    """
    def key(plan):
        try:
            return [(r.system, r.session) for r in parse_plan(plan)[:rounds]]
        except PlanError:  # an old plan saved before sessions: compare the letters
            return [(c, 1) for c in (plan or "").upper() if c in "MDR"][:rounds]
    return key(old) == key(new)


def plan_change_refusal(current: str, new: str, generated: int) -> str | None:
    """The sentence refusing to change the plan from ``current`` to ``new`` when
    ``generated`` rounds exist (drafts included), or None when the change is allowed.

    The plan is not a frozen setting (rules.md §12), but its generated prefix is: those
    rounds keep their system and their session; rounds and sessions after the last
    generated round may be added or changed (rules.md §11: ``MMD`` → ``MMD|DD`` while
    round 2 is played). A malformed ``new`` gets :func:`plan_refusal`'s sentence.
    """
    refusal = plan_refusal(new)
    if refusal:
        return refusal
    if same_played_prefix(current, new, generated):
        return None
    prefix = plan_prefix(current, generated)
    return _("Il piano può cambiare solo dopo l'ultimo turno generato (turno %(done)s): "
             "i turni già generati e le loro sessioni restano «%(prefix)s»; si possono "
             "aggiungere turni o una sessione in fondo (es. %(example)s).") % {
        "done": generated, "prefix": prefix, "example": prefix + "|DD"}


def last_round_rematch(tournament, number: int) -> dict:
    """``{"allow_rematch": True}`` for the Danish request of the plan's last round (the
    tournament's, not a session's) when «ultimo turno: rivincite ammesse» is on (rules.md §7,
    the modified Danish: "tranne che nell'ultimo turno"), else ``{}`` (pairing-io.md: the
    key is left out, so the requests of other rounds stay as they were)."""
    if tournament.last_round_rematches and number == tournament.rounds_planned:
        return {"allow_rematch": True}
    return {}
