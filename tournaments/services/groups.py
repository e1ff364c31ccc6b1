"""Groups (*gironi*): splitting the pairs (teams), and when it is frozen.

rules.md §14: the arbiter may split the field into groups (by lot, by number, by hand); each
group plays its own round robin in the same rounds, tables numbered group after group;
standings per group and overall. §19: with groups set, Danish and Mitchell rounds are played
within each group too (:func:`with_groups`); an
individual tournament has no groups. The split is stored on the pairs (``Pair.group``, 1..G)
and the tournament (``groups`` = G, ``group_split``, ``group_seed``); the pairing request of
an ``R`` round carries one list of pair numbers per group (:mod:`.pairing_requests`).
"""
from __future__ import annotations

import random

from django.utils.translation import gettext as _

from pairing.round_robin import lot_groups, snake_groups

from ..errors import ArbiterError
from ..kinds import kind_of
from ..kinds._groups import in_groups
from ..models import AuditAction, Round, Tournament
from .audit import audit
from .guard import write

__all__ = ["split_groups", "groups_frozen", "group_lists", "groups_refusal", "groups_individual_refusal",
           "groups_frozen_message"]


def groups_frozen(tournament: Tournament) -> bool:
    """True once a round-robin round, or any round drawn in groups (a Danish or Mitchell
    round of a split field, rules.md §19: its request carries ``groups``), has been
    published: the groups no longer change (its schedule, sheets and results depend on
    them). A draft does not freeze them (it becomes outdated and is drawn again, rules.md
    §12); a round drawn before the split does not either."""
    published = tournament.rounds.exclude(state=Round.State.DRAFT)
    if published.filter(system=Round.System.ROUND_ROBIN).exists():
        return True
    return any(isinstance(r, dict) and "groups" in r
               for r in published.values_list("pairing_request", flat=True))


def group_lists(tournament: Tournament) -> list[list[int]]:
    """The entrant numbers (pairs or teams) of each group, group 1 first, each in number
    order; ``[[all]]`` when the field is not split. Withdrawn entrants are included (they
    keep their slot in the schedule, rules.md §5 art. 32); one with no group is left out
    (see :func:`groups_refusal`)."""
    return kind_of(tournament).group_lists(tournament)


def groups_frozen_message(tournament: Tournament) -> str | None:
    """Why the groups no longer change (:func:`groups_frozen`), or None while they may."""
    if not groups_frozen(tournament):
        return None
    if tournament.rounds.filter(system=Round.System.ROUND_ROBIN).exclude(state=Round.State.DRAFT).exists():
        return _("I gironi non si cambiano più: un turno del girone all'italiana è già stato pubblicato.")
    return _("I gironi non si cambiano più: un turno giocato nei gironi è già stato pubblicato.")


def groups_individual_refusal() -> str:
    """The sentence refusing groups to an individual tournament (rules.md §19: the partners
    change every round, so a group of players would not stay a group)."""
    return _("Un torneo individuale non si divide in gironi: i gironi valgono per i tornei a coppie "
             "e a squadre.")


def groups_refusal(tournament: Tournament) -> str | None:
    """Why a round-robin round cannot be drawn with the current groups, or None: with more
    than one group, every pair must have a group and every group at least 2 pairs."""
    if tournament.groups <= 1:
        return None
    kind = kind_of(tournament)
    entrants = kind.entrants(tournament)
    missing = list(entrants.filter(group__isnull=True).order_by("number")
                   .values_list("number", flat=True))
    if missing:
        return kind.data.groups_refusals["no_group"] % {"pairs": ", ".join(map(str, missing))}
    small = [k + 1 for k, g in enumerate(group_lists(tournament)) if len(g) < 2]
    if small:
        return kind.data.groups_refusals["too_small"] % {"group": small[0]}
    return None


@write(retry=False)
def split_groups(*, tournament: Tournament, by, count: int, method: str,
                 seed: int | None = None, assignment: dict[int, int] | None = None) -> list[list[int]]:
    """Split the pairs into ``count`` groups for the round-robin rounds (rules.md §14).

    Args:
        tournament: the tournament (its row is locked).
        by: the arbiter (user or :class:`Actor`).
        count: G ≥ 1 groups; 1 removes the split (one round robin of the whole field).
        method: ``"lot"`` (:func:`pairing.round_robin.lot_groups`: shuffled with ``seed``,
            then dealt in turn; a seed is drawn when None), ``"snake"``
            (:func:`pairing.round_robin.snake_groups`: pair numbers dealt 1, 2, 3 / 6, 5, 4 /
            7, 8, 9 …) or ``"hand"`` (``assignment``: ``{pair number: group 1..G}`` for
            every pair).
        seed: the lot's seed (int), recorded on the tournament.
        assignment: for ``"hand"`` only.
    Returns:
        the pair numbers of each group, group 1 first, each in number order.
    Raises:
        ArbiterError: a round-robin round already published (groups frozen); ``count`` < 1
            or more than half the pairs (each group needs 2 pairs); an unknown method; by
            hand, a pair without a group, a group number outside 1..G, or a group with fewer
            than 2 pairs.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    kind = kind_of(tournament)
    if not kind.data.has_groups:  # rules.md §19: an individual tournament has no groups
        raise ArbiterError(groups_individual_refusal())
    frozen = groups_frozen_message(tournament)
    if frozen:
        raise ArbiterError(frozen)
    entrants = kind.entrants(tournament)
    numbers = list(entrants.order_by("number").values_list("number", flat=True))
    if not isinstance(count, int) or count < 1:
        raise ArbiterError(_("I gironi devono essere almeno 1."))
    if count > 1 and count > len(numbers) // 2:
        raise ArbiterError(kind.data.groups_refusals["too_many"] % {"pairs": len(numbers), "max": len(numbers) // 2})
    if count == 1:
        groups, method, seed = [numbers], "", None
    elif method == Tournament.GroupSplit.LOT:
        if seed is None:
            seed = random.SystemRandom().randrange(1, 10**9)
        groups = lot_groups(numbers, count, seed)
    elif method == Tournament.GroupSplit.SNAKE:
        groups, seed = snake_groups(numbers, count), None
    elif method == Tournament.GroupSplit.HAND:
        groups, seed = _by_hand(numbers, count, assignment or {}, kind.data.groups_refusals), None
    else:
        raise ArbiterError(_("Divisione in gironi sconosciuta: scegli sorteggio, serpentina o a mano."))
    old = {"groups": tournament.groups, "method": tournament.group_split,
           "members": group_lists(tournament) if tournament.groups > 1 else []}
    for k, members in enumerate(groups, start=1):
        entrants.filter(number__in=members).update(group=k if count > 1 else None)
    tournament.groups, tournament.group_split, tournament.group_seed = count, method, seed
    tournament.save(update_fields=["groups", "group_split", "group_seed"])
    audit(tournament=tournament, by=by, action=AuditAction.GROUPS_SPLIT, old=old,
          new={"groups": count, "method": method, "seed": seed,
               "members": groups if count > 1 else []})
    return groups


def _by_hand(numbers: list[int], count: int, assignment: dict[int, int],
             refusals) -> list[list[int]]:
    """The groups of ``assignment`` (``{pair or team number: group}``); the refusals are the
    kind's ``groups_refusals`` (a mapping key → sentence: they name squadre or coppie)."""
    missing = [n for n in numbers if n not in assignment]
    if missing:
        raise ArbiterError(refusals["hand_missing"] % {"pairs": ", ".join(map(str, missing))})
    wrong = [n for n in numbers if not isinstance(assignment[n], int)
             or not 1 <= assignment[n] <= count]
    if wrong:
        raise ArbiterError(refusals["hand_range"] % {"pair": wrong[0], "max": count})
    groups = [[n for n in numbers if assignment[n] == k] for k in range(1, count + 1)]
    small = [k for k, g in enumerate(groups, start=1) if len(g) < 2]
    if small:
        raise ArbiterError(refusals["hand_small"] % {"group": small[0]})
    return groups


def with_groups(tournament: Tournament, request: dict) -> dict:
    """``request`` split into the tournament's groups (rules.md §19):
    :func:`tournaments.kinds._groups.in_groups` with the kind's group lists."""
    return in_groups(tournament, request, kind_of(tournament).group_lists)
