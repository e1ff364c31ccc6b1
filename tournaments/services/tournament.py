"""Creating a tournament and changing its settings."""
from __future__ import annotations


from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import (
    Round,
    Tournament,
)
from .audit import _as_actor, audit
from .guard import refuse_integrity_errors


TOURNAMENT_SETTINGS = (
    "name", "slug", "date", "venue", "kind", "hands_per_round", "vp_scale", "plan",
    "mitchell_step", "rematch_window", "bye_percent", "bye_mp", "tiebreaks", "rule_set",
    "first_round", "public_enabled", "projector_enabled",
)
# Settings that change results already entered: refused once a round is published.
_FROZEN_ONCE_PLAYED = ("hands_per_round", "vp_scale", "kind", "rule_set")


@refuse_integrity_errors
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


@refuse_integrity_errors
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


