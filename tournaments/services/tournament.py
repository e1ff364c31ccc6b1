"""Creating a tournament and changing its settings."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from clubs.access import ClubChoiceError, club_for_new_data, may_work_in

from ..errors import ArbiterError
from ..kinds import kind_named
from ..kinds.individual import DEFAULT_INDIVIDUAL_TIEBREAKS, individual_tiebreaks  # noqa: F401
from ..kinds.teams import TEAM_TIEBREAKS  # noqa: F401
from ..models import (
    AuditAction,
    Round,
    Tournament,
)
from ..plans import plan_change_refusal, plan_refusal
from ..selectors import directs
from ..text import clean_line
from ._common import as_actor
from .audit import audit
from .guard import write

TOURNAMENT_SETTINGS = (
    "name", "slug", "date", "venue", "kind", "hands_per_round", "vp_scale", "plan",
    "mitchell_step", "rematch_window", "bye_percent", "bye_mp", "tiebreaks", "rule_set",
    "first_round", "public_enabled", "projector_enabled", "minutes_per_round",
    "team_result", "team_scale", "team_min_players", "team_max_players", "last_round_rematches",
    "prizes_cumulative", "organising_club", "arbiter_name", "membership_check",
    "missing_membership",
)
# Settings that change results already entered (rules.md §12): frozen once round 1 is
# published. The rest percent and the MP credited to a rest change every rest's VP/MP,
# since rest results are computed from them when read (rules.md §12).
_FROZEN_ONCE_PLAYED = ("kind", "hands_per_round", "vp_scale", "bye_percent", "bye_mp", "rule_set",
                       "team_result", "team_scale")
# The settings typed as free text (the others are choices, numbers or checked codes): every
# document prints them, so they go through text.clean_line; the name may not be left empty.
_FREE_TEXT = ("name", "venue", "organising_club", "arbiter_name")


#: Readers of the settings an app above tournaments fixes for a tournament (a simultaneous
#: evening's, rules.md §20): each ``reader(tournament)`` returns ``(field names, sentence)``
#: or None; registered at start-up by that app, so tournaments imports none of them.
_SETTINGS_LOCKS: list = []


def register_settings_lock(reader) -> None:
    """Register ``reader(tournament) -> (tuple of Tournament field names, sentence) | None``:
    :func:`update_tournament` refuses a new value of those fields with the sentence."""
    if reader not in _SETTINGS_LOCKS:
        _SETTINGS_LOCKS.append(reader)


def locked_settings(tournament: Tournament) -> dict[str, str]:
    """Field name → the sentence refusing its change, for every registered lock
    (:func:`register_settings_lock`); empty when nothing fixes the tournament's settings."""
    out: dict[str, str] = {}
    for reader in _SETTINGS_LOCKS:
        lock = reader(tournament)
        if lock:
            fields, sentence = lock
            for key in fields:
                out.setdefault(key, sentence)
    return out


def _clean_texts(fields: dict) -> dict:
    """``fields`` with its free-text settings made storable and printable (``text.clean_line``:
    control characters and bidirectional overrides removed, spaces trimmed). Raises
    ArbiterError naming the setting for a NUL, a text beyond the field's length or an empty
    name."""
    for key in _FREE_TEXT:
        if key in fields:
            field = Tournament._meta.get_field(key)
            fields[key] = clean_line(fields[key], label=str(field.verbose_name).capitalize(),
                                     max_length=field.max_length, required=key == "name")
    return fields


def frozen_settings(tournament: Tournament) -> tuple[str, ...]:
    """The setting names (``Tournament`` fields) that may no longer change.

    Empty before round 1 is published; afterwards hands per round, VP scale, rest
    percent (``bye_percent``), MP credited to a rest (``bye_mp``), rule set and kind,
    because each would change results already entered (rules.md §12). The settings
    that change only future pairings (tie-breaks, rematch rule, Mitchell step) stay
    free: a draft drawn from them becomes outdated instead (see
    ``services.drafts.draft_staleness``).
    """
    if tournament.pk is None:
        return ()
    if not tournament.rounds.exclude(state=Round.State.DRAFT).exists():
        return ()
    return _FROZEN_ONCE_PLAYED


@write(retry=False)
def create_tournament(*, by, club=None, **fields) -> Tournament:
    """Create a tournament with the given settings (rules.md §1); returns it.

    ``club``: the club that owns it (rules.md §20; the creating arbiter's current club);
    None for the arbiter's only club or the server's only one
    (``clubs.access.club_for_new_data``, whose refusal — a club he does not work for, or
    several clubs and none named — is raised as ArbiterError).

    ``by``: the arbiter (a user) or an ``Actor``; a user becomes the tournament's first
    arbiter (``Tournament.arbiters``), so only he (and the co-directors he
    adds, and superusers) can open it. Name, venue, organising club and arbiter's name are
    cleaned (:func:`_clean_texts`, which raises ArbiterError for a NUL, an over-long text or
    an empty name)."""
    unknown = set(fields) - set(TOURNAMENT_SETTINGS)
    if unknown:
        raise TypeError(f"unknown tournament fields: {sorted(unknown)}")
    fields = _clean_texts(fields)
    if "plan" in fields:
        fields["plan"] = _normal_plan(fields["plan"])
    check_plan(fields.get("plan", "MMMD"))
    # the kind's own settings: per-player tie-breaks (rules.md §9), team rules (§15)
    kind_named(fields.get("kind", Tournament.Kind.PAIRS)).check_new_settings(fields)
    actor = as_actor(by)
    try:
        club = club_for_new_data(actor.user, club)
    except ClubChoiceError as exc:
        raise ArbiterError(exc.message) from None
    tournament = Tournament.objects.create(created_by=actor.user, club=club, **fields)
    if actor.user is not None:
        tournament.arbiters.add(actor.user)
    audit(tournament=tournament, by=actor, action=AuditAction.TOURNAMENT_CREATED, new={"name": tournament.name})
    return tournament


def entrant_count(tournament: Tournament) -> int:
    """Registered entrants: pairs (not the partnerships formed for a round of an individual
    tournament) and single players of an individual tournament."""
    return (tournament.pairs.filter(round__isnull=True).count()
            + tournament.players.filter(pair__isnull=True).count())


def kind_change_refusal(tournament: Tournament) -> str | None:
    """Why the kind (pairs / individual) may no longer change, or ``None``.

    The kind is frozen once there are entrants or rounds: pairs and single
    players are registered differently and a round is drawn for one kind only."""
    if tournament.pk is None:
        return None
    if tournament.rounds.exists():
        return _("Il tipo di torneo (a coppie, individuale o a squadre) non si può più cambiare: il torneo ha già "
                 "dei turni.")
    count = entrant_count(tournament)
    if count:
        return _("Il tipo di torneo (a coppie, individuale o a squadre) non si può più cambiare: ci sono già "
                 "%(n)s iscritti. Cancella prima le iscrizioni, oppure crea un nuovo torneo.") % {"n": count}
    return None


def _normal_plan(plan):
    return "".join(plan.split()).upper() if isinstance(plan, str) else plan


def check_plan(plan: str) -> None:
    """Refuse a malformed plan (rules.md §11: ``MMD|DD`` valid; ``|MM``, ``MM|``,
    ``MM||DD`` and letters other than M/D refused) with a plain sentence."""
    refusal = plan_refusal(plan if isinstance(plan, str) else "")
    if refusal:
        raise ArbiterError(refusal)


@write(retry=False)
def update_tournament(*, tournament: Tournament, by, **fields) -> Tournament:
    """Change settings (``fields``: ``Tournament`` field names → new values).

    Raises ``ArbiterError`` for a new kind once there are entrants or rounds
    (:func:`kind_change_refusal`), for head-to-head among the tie-breaks of an
    individual tournament (:func:`individual_tiebreaks`, rules.md §9), and for a setting of
    :func:`frozen_settings` given a new value once round 1 is published (hands, VP scale, rest percent, MP credited to a rest,
    rule set, kind: rules.md §12); the settings page shows them disabled, this is the
    defence in depth. The plan (``"MMD|DD"``: ``|`` between sessions) is not frozen, but
    its generated prefix is: rounds already generated keep their system and session, and
    only rounds or sessions after the last generated round may be added or changed
    (rules.md §11: a second afternoon is appended as ``|DD``).
    A setting fixed by a registered lock (:func:`register_settings_lock`: a simultaneous
    evening's, rules.md §20) given a new value raises ``ArbiterError`` with the lock's sentence.
    The free-text settings are cleaned first (:func:`_clean_texts`: ArbiterError for a NUL,
    an over-long text or an empty name). Unchanged values are ignored; one audit entry lists
    old → new.
    """
    fields = _clean_texts(fields)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    played = bool(frozen_settings(tournament))
    locked = locked_settings(tournament)
    kind = kind_named(fields.get("kind", tournament.kind))
    if kind.data.excluded_tiebreaks:  # an order without the criteria the kind excludes (rules.md §9)
        fields["tiebreaks"] = kind.normal_tiebreaks(fields.get("tiebreaks", tournament.tiebreaks))
    old, new = {}, {}
    for key, value in fields.items():
        if key not in TOURNAMENT_SETTINGS:
            raise TypeError(f"unknown tournament field {key}")
        if key == "plan":
            value = _normal_plan(value)
        current = getattr(tournament, key)
        if current == value:
            continue
        if key == "kind":
            refusal = kind_change_refusal(tournament)
            if refusal:
                raise ArbiterError(refusal)
        if key in locked:  # another app fixes it (a simultaneous evening's setting, rules.md §20)
            raise ArbiterError(locked[key])
        if played and key in _FROZEN_ONCE_PLAYED:
            raise ArbiterError(
                _("Impossibile cambiare «%(setting)s»: ci sono già turni pubblicati.")
                % {"setting": Tournament._meta.get_field(key).verbose_name}
            )
        if key == "plan":
            refusal = plan_change_refusal(current, value if isinstance(value, str) else "",
                                          tournament.rounds.count())
            if refusal:
                raise ArbiterError(refusal)
        old[key], new[key] = _jsonable(current), _jsonable(value)
        setattr(tournament, key, value)
    if new:
        tournament.save()
        audit(tournament=tournament, by=by, action=AuditAction.TOURNAMENT_UPDATED, old=old, new=new)
    return tournament


def _jsonable(value):
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)




@write(retry=False)
def add_arbiter(*, tournament: Tournament, username: str, by):
    """Add the account ``username`` as a co-director of ``tournament``.

    ``by``: the arbiter doing it (he must already direct the tournament, or be a
    superuser). The new arbiter then sees the tournament in his list and every page of
    it. Returns the added user. One audit entry ``arbiter_added``.
    Raises ArbiterError: no active account with that username working for the
    tournament's club (``clubs.access.may_work_in``, rules.md §20), or already an arbiter of
    the tournament, or ``by`` does not direct the tournament.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    actor = as_actor(by)
    if actor.user is None or not directs(actor.user, tournament):
        raise ArbiterError(_("Solo un arbitro del torneo può aggiungere altri arbitri."))
    username = (username or "").strip()
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    # rules.md §20: a co-director works for the tournament's club; an account of another
    # club gets the same sentence as an unknown one (no hint that it exists elsewhere)
    if user is None or not may_work_in(user, tournament.club):
        raise ArbiterError(_("Nessun arbitro con nome utente «%(username)s».") % {"username": username})
    if tournament.arbiters.filter(pk=user.pk).exists():
        raise ArbiterError(_("«%(username)s» è già arbitro di questo torneo.") % {"username": username})
    tournament.arbiters.add(user)
    audit(tournament=tournament, by=actor, action=AuditAction.ARBITER_ADDED, new={"username": user.get_username()})
    return user
