"""Registering pairs and their players, by hand and by import."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import (
    Pair,
    Player,
    Round,
    Tournament,
)
from .audit import audit
from .guard import refuse_integrity_errors


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


@refuse_integrity_errors
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


@refuse_integrity_errors
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


@refuse_integrity_errors
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


@refuse_integrity_errors
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


