"""Registering pairs and their players, by hand and by import."""
from __future__ import annotations

import unicodedata
from typing import Iterable, Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from members.numbers import MembershipNumberError, normal_membership_number

from ..errors import ArbiterError
from ..models import (
    AuditAction,
    Pair,
    Player,
    Round,
    Tournament,
)
from ..registrations.player_data import PlayerData
from ..text import clean_line
from .audit import ART32_PREFIX, MEMBERSHIP_REASON, SPELLING_REASON, audit
from .guard import write
from .locks import lock_tournament
from .member_links import assign_members, link_players
from .removal import refuse_removal


def registration_import_refusal(tournament: Tournament) -> str | None:
    """Why a registration file (pairs, players or teams) cannot be imported now, or ``None``.

    Closed once the tournament has a round (drawn, published or closed): the entrants of a
    started tournament are fixed, only a late entrant may still join by hand during round 1
    (art. 33, ``late_entries.late_pair_refusal``). The import page says it before any upload and
    the import services refuse with the same sentence."""
    if tournament.rounds.exists():
        return _("Il torneo è già iniziato: l'importazione delle iscrizioni è chiusa.")
    return None


def _field_length(name: str) -> int:
    return Player._meta.get_field(name).max_length


def _membership_number(value) -> str:
    # one rule for every door (members.numbers): «８８０００７» is 880007, «①②» refused
    try:
        return normal_membership_number(value)
    except MembershipNumberError as exc:
        raise ArbiterError(exc.message) from None


def clean_player(player: PlayerData) -> PlayerData:
    """``player`` with every text made storable and printable (``text.clean_line``): control
    characters (``\x07``, ``\x1b``) removed, spaces trimmed. Raises ArbiterError for a NUL or
    a text longer than the model's field (names 80, membership number 30, club 120
    characters), naming the field; the membership number is
    :func:`members.numbers.normal_membership_number`'s (full-width digits folded, anything
    but ASCII letters, digits and «-» refused). The services call it before any check, so forms, team
    lines and imports store the same clean names and the XLSX/PDF never meet a control
    character."""
    return PlayerData(
        first_name=clean_line(player.first_name, label=_("Nome"), max_length=_field_length("first_name")),
        last_name=clean_line(player.last_name, label=_("Cognome"), max_length=_field_length("last_name")),
        membership_number=_membership_number(player.membership_number),
        club=clean_line(player.club, label=_("Circolo"), max_length=_field_length("club")),
    )


def pair_has_played(pair: Pair) -> bool:
    """Whether ``pair`` sits in a published or closed round (it has played, art. 32)."""
    return pair.seats.exclude(round__state=Round.State.DRAFT).exists()


def _letters(name: str) -> str:
    """A name compared for spelling: capitals, accents, spaces, apostrophes and hyphens
    do not count ("D'Angelo" = "dangelo", "Nicolò" = "nicolo")."""
    plain = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in plain if c.isalnum())


def _edit_distance(a: str, b: str) -> int:
    """Letters inserted, deleted, replaced or two adjacent ones swapped to turn ``a`` into ``b``."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


SPELLING_LETTERS = 2


def is_spelling_fix(old: tuple[str, str], new: tuple[str, str]) -> bool:
    """Whether ``new`` (last name, first name) corrects the spelling of ``old`` rather
    than naming another person (art. 32, rules.md §13: a misspelt name may be corrected,
    a player may not be substituted).

    A spelling fix: for each of last and first name, at most one letter in three of the
    shorter name, and never more than ``SPELLING_LETTERS`` (2), inserted, deleted,
    replaced or swapped (but always one: "Rosi" → "Rossi"), or a second name added or dropped
    (one name starts with the other, "Anna" → "Anna Maria"); capitals, accents, spaces
    and apostrophes never count. Last and first name typed the wrong way round is a fix
    too. Anything else is a different player.
    """
    def close(a: str, b: str) -> bool:
        a, b = _letters(a), _letters(b)
        if a == b:
            return True
        if a and b and (a.startswith(b) or b.startswith(a)) and min(len(a), len(b)) >= 3:
            return True
        allowed = max(1, min(SPELLING_LETTERS, min(len(a), len(b)) // 3))
        return _edit_distance(a, b) <= allowed

    (old_last, old_first), (new_last, new_first) = old, new
    return ((close(old_last, new_last) and close(old_first, new_first))
            or (close(old_last, new_first) and close(old_first, new_last)))


def _check_no_substitution(pair: Pair, players: Sequence[PlayerData]) -> list[str]:
    """Art. 32 (rules.md §13) for a pair that has played: per seat, a membership number
    already filled in stays; a blank one may be filled in; names may only be respelt.
    Returns the allowed changes as Italian phrases for the audit reason (stored in Italian
    whatever the arbiter's language; the Registro translates them: ``audit_reason``)."""
    members = {pl.seat: pl for pl in pair.members.all()}
    changes = []
    for seat, p in enumerate(players, start=1):
        current = members.get(seat)
        if current is None:
            continue
        new_number = p.membership_number.strip()
        if current.membership_number and new_number != current.membership_number:
            raise ArbiterError(
                _("La coppia %(pair)s ha già giocato: la tessera %(membership)s di %(name)s non si cambia "
                  "(art. 32, nessuna sostituzione durante il torneo). Si può solo compilare una tessera vuota.")
                % {"pair": pair.number, "membership": current.membership_number, "name": current.display_name}
            )
        if not is_spelling_fix((current.last_name, current.first_name), (p.last_name, p.first_name)):
            raise ArbiterError(
                _("La coppia %(pair)s ha già giocato: «%(new)s» non è una correzione del nome di %(name)s ma "
                  "un altro giocatore, e nessun giocatore si sostituisce durante il torneo (art. 32). "
                  "Sono ammesse solo correzioni di grafia.")
                % {"pair": pair.number, "new": f"{p.last_name.strip()} {p.first_name.strip()}",
                   "name": current.display_name}
            )
        new_name = f"{p.last_name.strip()} {p.first_name.strip()}"
        if new_name != current.display_name:
            changes.append(SPELLING_REASON % {"old": current.display_name, "new": new_name})
        if new_number and not current.membership_number:
            changes.append(MEMBERSHIP_REASON % {"name": new_name, "membership": new_number})
    return changes


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


@write(retry=False)
def add_pair(
    *, tournament: Tournament, players: Sequence[PlayerData], by, number: int | None = None, late: bool = False
) -> Pair:
    """Register a pair of two players; ``number`` defaults to the next free pair number.

    Raises ArbiterError for a missing name, a player already registered (same
    membership number), or a pair number already in use. Once round 2 is paired no
    pair may enter (seed code art. 33): see :func:`add_late_pair` for round 1.
    """
    # Serialised with the other writes of the tournament (another pair being added from
    # another window or server process, a round being generated): the next free number and
    # "no round yet" are read under the tournament's row lock
    # (several server processes may write at once).
    lock_tournament(tournament)
    players = [clean_player(p) for p in players]
    if not late and tournament.rounds.exists():
        raise ArbiterError(
            _("Il torneo è già iniziato: una coppia tardiva può entrare solo durante il turno 1 "
              "per completare il tavolo zoppo (art. 33).")
        )
    _check_players(tournament, players)
    if number is None:
        # past the highest number, read under the tournament's lock: free by construction
        number = (tournament.pairs.aggregate(m=Max("number"))["m"] or 0) + 1
    elif tournament.pairs.filter(number=number).exists():
        raise ArbiterError(_("Il numero di coppia %(number)s è già usato.") % {"number": number})
    try:
        with transaction.atomic():
            pair = Pair.objects.create(tournament=tournament, number=number, late_entry=late)
            # one INSERT for both seats, in seat order (their ids follow the seats)
            Player.objects.bulk_create([
                Player(
                    tournament=tournament, pair=pair, seat=seat,
                    first_name=p.first_name.strip(), last_name=p.last_name.strip(),
                    membership_number=p.membership_number.strip(), club=p.club.strip(),
                )
                for seat, p in enumerate(players, start=1)
            ])
    except IntegrityError as exc:  # a race with another arbiter window
        raise ArbiterError(_("Coppia non salvata: numero o giocatore già presenti.")) from exc
    link_players(tournament)  # rules.md §16 (refused here in the tournament's "refuse" mode)
    audit(
        tournament=tournament, by=by, action=AuditAction.PAIR_ADDED,
        new={"number": number, "players": [f"{p.last_name} {p.first_name}" for p in players]},
    )
    return pair


@write(retry=False)
def update_pair(*, pair: Pair, players: Sequence[PlayerData], by, number: int | None = None) -> Pair:
    """Change a pair's players (``players``: two :class:`PlayerData`, seat 1 then 2) or
    its number.

    Once the pair has played (it sits in a published or closed round), nobody may be
    substituted (art. 32, rules.md §13): the pair number is frozen, a membership number
    already filled in cannot change (a blank one may be filled in), and a name may only
    be respelt (:func:`is_spelling_fix`); clubs may change. Raises ArbiterError with
    the article otherwise. Audited as ``pair_updated`` with old → new players and
    membership numbers, and clubs when one changed.
    """
    tournament = lock_tournament(pair.tournament)  # who plays: services.locks
    pair = Pair.objects.filter(pk=pair.pk).first()
    if pair is None:
        raise ArbiterError(_("La coppia è già stata cancellata (da un'altra finestra)."))
    players = [clean_player(p) for p in players]
    _check_players(tournament, players, exclude_pair=pair)
    changes = _check_no_substitution(pair, players) if pair_has_played(pair) else []
    old = {"number": pair.number, "players": [pl.display_name for pl in pair.players],
           "membership_numbers": [pl.membership_number for pl in pair.players]}
    old_clubs = [pl.club for pl in pair.players]
    if number is not None and number != pair.number:
        if pair_has_played(pair):
            raise ArbiterError(_("Il numero di una coppia che ha già giocato non si cambia."))
        if tournament.pairs.filter(number=number).exclude(pk=pair.pk).exists():
            raise ArbiterError(_("Il numero di coppia %(number)s è già usato.") % {"number": number})
        pair.number = number
        pair.save(update_fields=["number"])
    members = {pl.seat: pl for pl in pair.members.all()}
    for seat, p in enumerate(players, start=1):
        pl = members.get(seat) or Player(tournament=tournament, pair=pair, seat=seat)
        before = (pl.first_name, pl.last_name, pl.membership_number)
        pl.first_name, pl.last_name = p.first_name.strip(), p.last_name.strip()
        pl.membership_number, pl.club = p.membership_number.strip(), p.club.strip()
        if before != (pl.first_name, pl.last_name, pl.membership_number):
            pl.member = None  # another name or number: linked again below (rules.md §16)
        pl.save()
    link_players(tournament)
    pair = Pair.objects.prefetch_related("members").get(pk=pair.pk)
    new = {"number": pair.number, "players": [pl.display_name for pl in pair.players],
           "membership_numbers": [pl.membership_number for pl in pair.players]}
    new_clubs = [pl.club for pl in pair.players]
    if new_clubs != old_clubs:  # a club may change even once the pair has played: the entry says so
        old["clubs"], new["clubs"] = old_clubs, new_clubs
    audit(
        tournament=tournament, by=by, action=AuditAction.PAIR_UPDATED, old=old,
        reason=(ART32_PREFIX + "; ".join(changes)) if changes else "", new=new,
    )
    return pair


@write(retry=False)
def remove_pair(*, pair: Pair, by) -> None:
    """Delete a pair and its players. Refused once the pair has results (use withdrawal), or
    when another app's check refuses (:mod:`.removal`: a fee paid)."""
    lock_tournament(pair.tournament)  # who plays: services.locks (a draw reads the pairs once)
    pair = Pair.objects.filter(pk=pair.pk).first()
    if pair is None:
        raise ArbiterError(_("La coppia è già stata cancellata (da un'altra finestra)."))
    if pair.seats.exists():
        raise ArbiterError(
            _("La coppia %(pair)s è già in un turno: non si può cancellare, si può solo ritirare.")
            % {"pair": pair.number}
        )
    refuse_removal(pair.members.all())  # e.g. a fee paid at the door (money, rules.md §21)
    tournament = pair.tournament
    old = {"number": pair.number, "players": [pl.display_name for pl in pair.players]}
    pair.members.all().delete()
    pair.delete()
    audit(tournament=tournament, by=by, action=AuditAction.PAIR_REMOVED, old=old)


@write(retry=False)
def import_pairs(*, tournament: Tournament, rows: Iterable, by) -> int:
    """Save registration rows (``tournaments.registrations.RegistrationRow``) all-or-nothing.

    The caller validated them (``registrations.parse``, outside any transaction); a
    database refusal here rolls everything back. Returns the number of pairs created.

    The write transaction stays short (captains' saves wait for it):
    two ``bulk_create`` statements, pairs then players, instead of one ``INSERT`` per
    pair — 2000 pairs hold the database well under a second (``bench/import_saves.py``).
    """
    lock_tournament(tournament)  # as add_pair
    refusal = registration_import_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    rows = list(rows)
    next_number = (tournament.pairs.aggregate(m=Max("number"))["m"] or 0) + 1
    pairs = []
    for row in rows:
        number = row.number if row.number is not None else next_number
        next_number = max(next_number, number + 1)
        pairs.append(Pair(tournament=tournament, number=number))
    pairs = Pair.objects.bulk_create(pairs, batch_size=500)
    if any(pair.pk is None for pair in pairs):  # a backend that returns no keys: read them back
        by_number = dict(tournament.pairs.values_list("number", "pk"))
        for pair in pairs:
            pair.pk = pair.id = by_number[pair.number]
    players = [
        Player(tournament=tournament, pair=pair, seat=seat, first_name=p.first_name,
               last_name=p.last_name, membership_number=p.membership_number, club=p.club)
        for pair, row in zip(pairs, rows, strict=True)
        # the file's reader refuses control characters; bidirectional overrides go here
        for seat, p in enumerate((clean_player(p) for p in row.players), start=1)
    ]
    assign_members(tournament, players)  # rules.md §16; the "refuse" mode rolls the whole file back
    Player.objects.bulk_create(players, batch_size=500)
    count = len(pairs)
    audit(tournament=tournament, by=by, action=AuditAction.REGISTRATIONS_IMPORTED, new={"pairs": count})
    return count


