"""Undoing a withdrawal (rules.md §5, §15, art. 32) of a pair, an individual player or a team.

A withdrawal from round k is undone while round k is not published: nothing was played or
seated without the entrant yet. A draft of round k drawn after the withdrawal becomes
outdated again (``services.draft_staleness`` compares the inputs it was drawn from) and is
drawn again before publishing (rules.md §12). Once round k is published the withdrawal
stands: its tables were changed (forced rests) and may already be played.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import Pair, Player, Round, Team, Tournament
from .audit import audit
from .guard import write
from .locks import lock_tournament

_ACTIONS = {Pair: "pair_withdrawal_undone", Player: "player_withdrawal_undone", Team: "team_withdrawal_undone"}
_KEYS = {Pair: "pair", Player: "player", Team: "team"}


def last_published_round(tournament: Tournament) -> int:
    """The highest round number published or closed (0 before any): a withdrawal from a later
    round can still be undone (the entrants pages offer it)."""
    numbers = tournament.rounds.exclude(state=Round.State.DRAFT).values_list("number", flat=True)
    return max(numbers, default=0)


def withdrawal_undo_refusal(entrant: Pair | Player | Team) -> str | None:
    """Why the withdrawal of ``entrant`` (a ``Pair``, ``Player`` or ``Team``) cannot be undone
    now, or None: it is not withdrawn, or the round it withdrew from is already published or
    closed."""
    if entrant.status != "withdrawn" or entrant.withdrawn_from_round is None:
        return _("Non è ritirato: non c'è un ritiro da annullare.")
    tournament: Tournament = entrant.tournament
    drawn = (tournament.rounds.filter(number__gte=entrant.withdrawn_from_round)
             .exclude(state=Round.State.DRAFT).order_by("number").first())
    if drawn is not None:
        return _("Il turno %(round)s è già pubblicato: il ritiro non si annulla più (i tavoli sono "
                 "stati cambiati senza di lui).") % {"round": drawn.number}
    return None


@write
def undo_withdrawal(*, entrant: Pair | Player | Team, by, reason: str = "") -> Pair | Player | Team:
    """Put a withdrawn ``entrant`` (``Pair``, ``Player`` or ``Team``) back in play from the round
    it withdrew from (audited, with ``reason``). Raises ``ArbiterError``:
    :func:`withdrawal_undo_refusal`."""
    model = type(entrant)
    lock_tournament(entrant.tournament_id)  # who plays: services.locks
    entrant = model.objects.select_for_update().get(pk=entrant.pk)
    refusal = withdrawal_undo_refusal(entrant)
    if refusal:
        raise ArbiterError(refusal)
    from_round = entrant.withdrawn_from_round
    entrant.status, entrant.withdrawn_from_round = "active", None
    entrant.save(update_fields=["status", "withdrawn_from_round"])
    audit(tournament=entrant.tournament, by=by, action=_ACTIONS[model], round_number=from_round, reason=reason,
          old={_KEYS[model]: entrant.number, "from_round": from_round}, new={_KEYS[model]: entrant.number})
    return entrant
