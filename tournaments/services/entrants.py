"""Registering the entrants, by hand and by import: pairs and their players, the single
players of an individual tournament (rules.md §9), the teams of a team tournament and their
captain (rules.md §15). Their withdrawal: ``withdrawals``; a late entrant: ``late_entries``;
a penalty: ``penalties``; a team's line-ups: ``lineups``; forfeits: ``forfeits``."""
from __future__ import annotations

import unicodedata
from typing import Iterable, Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from members.numbers import MembershipNumberError, normal_membership_number

from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import (
    AuditAction,
    Pair,
    Player,
    Round,
    Team,
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


# Single players of an individual tournament (rules.md §9).

def require_individual(tournament: Tournament) -> None:
    """Raise ``ArbiterError`` unless ``tournament`` registers single players (an individual
    tournament, rules.md §9): the kind's own sentence."""
    refusal = kind_of(tournament).data.registration_refusals["player"]
    if refusal:
        raise ArbiterError(str(refusal))


def _check_player(tournament: Tournament, player: PlayerData, *, exclude: Player | None = None) -> None:
    if not player.first_name.strip() or not player.last_name.strip():
        raise ArbiterError(_("Nome e cognome del giocatore sono obbligatori."))
    membership = player.membership_number.strip()
    if membership:
        clash = Player.objects.filter(tournament=tournament, membership_number=membership)
        if exclude is not None:
            clash = clash.exclude(pk=exclude.pk)
        clash = clash.first()
        if clash:
            raise ArbiterError(
                _("Il giocatore con tessera %(membership)s (%(name)s) è già iscritto al torneo.")
                % {"membership": membership, "name": clash.display_name})


def next_player_number(tournament: Tournament) -> int:
    """The number the next player registered in ``tournament`` gets: one after the highest."""
    return (Player.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1


@write(retry=False)
def add_player(*, tournament: Tournament, player: PlayerData, by, number: int | None = None,
               late: bool = False) -> Player:
    """Register a single player of an individual tournament (rules.md §9).

    Args:
        tournament: an individual tournament.
        player: names (required), membership number and club.
        number: the player's number (default: the next free one).
        late: only through :func:`add_late_player` (round 1, art. 33).
    Raises:
        ArbiterError: a pair tournament, a missing name, a membership number already
            registered, a number already used, or the tournament already started.
    """
    tournament = lock_tournament(tournament)
    require_individual(tournament)
    if not late and tournament.rounds.exists():
        raise ArbiterError(_("Il torneo è già iniziato: un giocatore tardivo può entrare solo durante il "
                             "turno 1 per completare un tavolo incompleto (regole §9)."))
    player = clean_player(player)
    _check_player(tournament, player)
    if number is None:
        number = next_player_number(tournament)
    if number < 1:
        raise ArbiterError(_("Il numero del giocatore deve essere almeno 1."))
    if Player.objects.filter(tournament=tournament, number=number).exists():
        raise ArbiterError(_("Il numero di giocatore %(number)s è già usato.") % {"number": number})
    created = Player.objects.create(
        tournament=tournament, number=number, late_entry=late,
        first_name=player.first_name.strip(), last_name=player.last_name.strip(),
        membership_number=player.membership_number.strip(), club=player.club.strip(),
    )
    link_players(tournament)  # rules.md §16
    audit(tournament=tournament, by=by, action=AuditAction.PLAYER_ADDED,
          new={"number": number, "player": created.display_name, "late": late})
    return created


def player_has_played(player: Player) -> bool:
    """Whether ``player`` sits in a published or closed round (art. 32)."""
    return player.lines.exclude(round__state=Round.State.DRAFT).exists()


@write(retry=False)
def remove_player(*, player: Player, by) -> None:
    """Delete a registered player. Refused once he is in a round (use withdrawal), or when
    another app's check refuses (:mod:`.removal`: a fee paid)."""
    lock_tournament(player.tournament)  # who plays: services.locks
    player = Player.objects.filter(pk=player.pk).first()
    if player is None:
        raise ArbiterError(_("Il giocatore è già stato cancellato (da un'altra finestra)."))
    if player.lines.exists():
        raise ArbiterError(_("Il giocatore %(player)s è già in un turno: non si può cancellare, si può solo "
                             "ritirare.") % {"player": player.number})
    refuse_removal([player])  # e.g. a fee paid at the door (money, rules.md §21)
    tournament = player.tournament
    old = {"number": player.number, "player": player.display_name}
    player.delete()
    audit(tournament=tournament, by=by, action=AuditAction.PLAYER_REMOVED, old=old)


@write(retry=False)
def import_players(*, tournament: Tournament, rows: Iterable, by) -> int:
    """Save the rows of a player registration file (``registrations.PlayerRow``, already
    validated by ``registrations.parse_players``) all-or-nothing; returns how many players."""
    tournament = lock_tournament(tournament)
    require_individual(tournament)
    refusal = registration_import_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    rows = list(rows)
    # the file's reader refuses control characters; bidirectional overrides go here
    cleaned = [clean_player(row.player) for row in rows]
    players = [
        Player(tournament=tournament, number=row.number, first_name=p.first_name,
               last_name=p.last_name, membership_number=p.membership_number, club=p.club)
        for row, p in zip(rows, cleaned, strict=True)
    ]
    assign_members(tournament, players)  # rules.md §16
    Player.objects.bulk_create(players, batch_size=500)
    audit(tournament=tournament, by=by, action=AuditAction.REGISTRATIONS_IMPORTED, new={"players": len(rows)})
    return len(rows)


# Teams of a team tournament (rules.md §15).

def require_teams(tournament: Tournament) -> None:
    """Raise ``ArbiterError`` unless ``tournament`` registers teams (rules.md §15): the
    kind's own sentence."""
    refusal = kind_of(tournament).data.registration_refusals["team"]
    if refusal:
        raise ArbiterError(str(refusal))


def clean_team_entry(name: str, players: list[PlayerData]) -> tuple[str, list[PlayerData]]:
    """The team's name and players made storable (``clean_player``; the name at most 120
    characters, control characters removed, NUL refused)."""
    name = clean_line(name, label=_("Nome della squadra"), max_length=Team._meta.get_field("name").max_length)
    return name, [clean_player(p) for p in players]


def check_team_players(tournament: Tournament, players: list[PlayerData]) -> None:
    """Raise ``ArbiterError`` when ``players`` (already cleaned) cannot make a team of
    ``tournament``: fewer or more than its team size allows (rules.md §15), a name missing,
    the same membership number twice or one already registered in the tournament."""
    low, high = tournament.team_min_players, tournament.team_max_players
    if not low <= len(players) <= high:
        raise ArbiterError(_("Una squadra ha da %(min)s a %(max)s giocatori (regole §15): qui sono %(count)s.")
                           % {"min": low, "max": high, "count": len(players)})
    seen = set()
    for p in players:
        if not p.first_name.strip() or not p.last_name.strip():
            raise ArbiterError(_("Nome e cognome del giocatore sono obbligatori."))
        membership = p.membership_number.strip()
        if not membership:
            continue
        if membership in seen:
            raise ArbiterError(_("La tessera %(membership)s compare due volte nella squadra.")
                               % {"membership": membership})
        seen.add(membership)
        clash = Player.objects.filter(tournament=tournament, membership_number=membership).first()
        if clash:
            raise ArbiterError(_("Il giocatore con tessera %(membership)s (%(name)s) è già iscritto al torneo.")
                               % {"membership": membership, "name": clash.display_name})


def create_team(tournament: Tournament, *, number: int, name: str, players: list[PlayerData],
                late: bool = False) -> Team:
    """Store team ``number`` with its ``players`` (checked by the caller), the first one its
    captain, and link the players to the member registry (rules.md §16). Inside a write's
    transaction (``add_team``, ``import_teams``, ``late_entries.add_late_team``); no audit."""
    team = Team.objects.create(tournament=tournament, number=number, name=name.strip(), late_entry=late)
    created = [Player.objects.create(
        tournament=tournament, team=team, first_name=p.first_name.strip(), last_name=p.last_name.strip(),
        membership_number=p.membership_number.strip(), club=p.club.strip()) for p in players]
    team.captain = created[0]
    team.save(update_fields=["captain"])
    link_players(tournament)  # rules.md §16
    return team


@write(retry=False)
def add_team(*, tournament: Tournament, name: str, players: list[PlayerData], by,
             number: int | None = None) -> Team:
    """Register a team by hand (rules.md §15): ``name``, its players (``PlayerData``, 4 to 6 by
    the tournament's ``team_min_players``/``team_max_players``; the first is the captain) and a
    team number (``squadra``; default the next free one).

    Raises ``ArbiterError``: not a team tournament, the tournament already started (a late
    team: :func:`add_late_team`), a missing name, too few or too many players, a membership
    number twice or already registered, a team number already used or below 1.
    """
    tournament = lock_tournament(tournament)  # who plays: the first lock (services.locks)
    require_teams(tournament)
    if tournament.rounds.exists():
        raise ArbiterError(_("Il torneo è già iniziato: una squadra tardiva entra solo durante il turno 1 "
                             "al posto del riposo (regole §15, art. 33)."))
    name, players = clean_team_entry(name, players)
    if not name.strip():
        raise ArbiterError(_("Il nome della squadra è obbligatorio."))
    check_team_players(tournament, players)
    if number is None:
        number = (tournament.teams.aggregate(m=Max("number"))["m"] or 0) + 1
    if number < 1:
        raise ArbiterError(_("Il numero della squadra deve essere almeno 1."))
    if tournament.teams.filter(number=number).exists():
        raise ArbiterError(_("La squadra %(number)s è già iscritta.") % {"number": number})
    team = create_team(tournament, number=number, name=name, players=players)
    audit(tournament=tournament, by=by, action=AuditAction.TEAM_ADDED,
          new={"team": number, "name": team.name, "players": [p.last_name for p in players]})
    return team


@write(retry=False)
def import_teams(*, tournament: Tournament, rows: Iterable, by) -> int:
    """Save the teams of a registration file (``registrations.teams.TeamRow``, already checked
    by ``registrations.teams.parse_teams``) all-or-nothing; returns how many teams. Refused
    once the tournament has started or for a team the checks of :func:`add_team` refuse."""
    tournament = lock_tournament(tournament)  # who plays: the first lock (services.locks)
    require_teams(tournament)
    refusal = registration_import_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    rows = list(rows)
    for row in rows:
        name, players = clean_team_entry(row.name, row.players)
        check_team_players(tournament, players)
        if tournament.teams.filter(number=row.number).exists():
            raise ArbiterError(_("La squadra %(number)s è già iscritta.") % {"number": row.number})
        create_team(tournament, number=row.number, name=name, players=players)
    audit(tournament=tournament, by=by, action=AuditAction.REGISTRATIONS_IMPORTED,
          new={"teams": len(rows), "players": sum(len(r.players) for r in rows)})
    return len(rows)


@write(retry=False)
def set_team_captain(*, team: Team, player: Player, by) -> Team:
    """Make ``player`` (one of the team's players) the team captain. Raises ``ArbiterError``
    for a player of another team."""
    team = Team.objects.select_for_update().get(pk=team.pk)
    if player.team_id != team.pk:
        raise ArbiterError(_("%(player)s non è un giocatore della squadra %(team)s.")
                           % {"player": player.display_name, "team": team.number})
    old = team.captain.display_name if team.captain else None
    team.captain = player
    team.save(update_fields=["captain"])
    audit(tournament=team.tournament, by=by, action=AuditAction.TEAM_CAPTAIN, old={"team": team.number, "captain": old},
          new={"team": team.number, "captain": player.display_name})
    return team
