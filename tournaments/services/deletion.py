"""Deleting a whole tournament from the arbiter's pages.

Only the tournament's owner (``Tournament.created_by``, who created or imported it) and
superusers may delete it; co-directors may not. The arbiter types the tournament's short
address to confirm; the tournament's export is written to the backups folder first
(``transfer.backups.backup_before_delete``), then the tournament goes with everything that
hangs from it, its audit entries included (the backup file keeps them).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from django.utils.translation import gettext as _

from .. import signals
from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import ScoreSheet, Tournament
from .guard import write

log = logging.getLogger("arbitro.deletion")


@dataclass(frozen=True)
class DeletionSummary:
    """What a deletion would remove: entrants (pairs, players of an individual tournament or
    teams, by the tournament's kind), rounds (any state) and score sheets (entered or not)."""

    entrants: int
    rounds: int
    sheets: int


@dataclass(frozen=True)
class DeletionResult:
    """A deleted tournament: its name and slug, what went, and the backup file's path."""

    name: str
    slug: str
    summary: DeletionSummary
    backup: Path


def may_delete(user, tournament: Tournament) -> bool:
    """Whether ``user`` may delete ``tournament``: its owner (``created_by``) or a superuser;
    never a co-director nor an inactive or anonymous user."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return user.is_superuser or (tournament.created_by_id is not None and tournament.created_by_id == user.pk)


def deletion_summary(tournament: Tournament) -> DeletionSummary:
    """The counts the confirmation page names (a read, no write)."""
    entrants = kind_of(tournament).entrants(tournament).count()
    return DeletionSummary(entrants=entrants, rounds=tournament.rounds.count(),
                           sheets=ScoreSheet.objects.filter(table__round__tournament=tournament).count())


@write(retry=False)
def delete_tournament(*, tournament: Tournament, by, typed_slug: str) -> DeletionResult:
    """Delete ``tournament`` after writing its export to the backups folder.

    ``by``: the user asking (owner or superuser, :func:`may_delete`); ``typed_slug``: what
    the user typed to confirm, compared with the short address after trimming spaces
    (case-sensitive, as addresses are).

    Raises :class:`ArbiterError` when ``by`` may not delete it, when ``typed_slug`` is not the
    short address, or when the backup file cannot be written; nothing is deleted then. No
    audit entry survives (the tournament's entries go with it; the backup file holds them):
    the deletion is logged on the ``arbitro.deletion`` logger.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not may_delete(by, tournament):
        raise ArbiterError(_("Solo chi ha creato il torneo (o un amministratore) può eliminarlo."))
    if (typed_slug or "").strip() != tournament.slug:
        raise ArbiterError(_("Per confermare scrivi esattamente l'indirizzo breve del torneo, «%(slug)s»: "
                             "nulla è stato eliminato.") % {"slug": tournament.slug})
    summary = deletion_summary(tournament)
    try:
        # the backup's receiver (transfer.backups) returns the file's path
        path = next((answer for _receiver, answer in signals.tournament_deleting.send(
            sender=Tournament, tournament=tournament) if answer), None)
    except OSError as exc:
        raise ArbiterError(_("Il file di backup non si può scrivere (%(error)s): nulla è stato eliminato.")
                           % {"error": exc}) from exc
    name, slug = tournament.name, tournament.slug
    tournament.delete()
    log.warning("tournament %s (%s) deleted by %s; backup %s", slug, name, by.get_username(), path)
    return DeletionResult(name=name, slug=slug, summary=summary, backup=path)
