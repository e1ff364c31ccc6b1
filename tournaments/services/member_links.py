"""Linking a tournament's players to the club's members (rules.md §16), the members of
**the tournament's club** only (§20: an arbiter may work for two clubs; a member of another
club is never linked nor matched, the same *tessera* there being another membership).

Called by every registration write (a pair, a player or a team by hand, a registration file,
a late entry, a pair's players changed, a tournament file imported) inside its transaction:

- a player with a membership number is linked to the member with that number, or to a new
  member (source: registration) when the registry has none;
- a player without one is linked to the member with the same full name (case, accents,
  spaces and apostrophes ignored, ``members.names.name_key``) when exactly one member has it
  and no other player of the tournament is linked to him; otherwise to a new member;
- two players of one tournament are never linked to the same member;
- the registry's cap (``members.models.MAX_MEMBERS``) holds here as for a member added by
  hand or an imported list: a registration that would create members beyond it is refused
  and, the caller's transaction rolling back, writes nothing.

The tournament's ``membership_check`` decides what an *unknown* or *expired* number does
(``members.selectors.membership_flags``), and its ``missing_membership`` what a player
*without a number* does once a member list was imported (before any list nothing is checked,
as nothing is unknown): flag (the default: shown on the import preview and the pairs page),
refuse (the registration is refused, naming them), ignore. Two settings, so a club can
refuse unknown numbers and still welcome guests.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from django.utils.translation import gettext as _

from members import models as member_models
from members import selectors as member_selectors
from members.models import Member
from members.names import name_key

from ..errors import ArbiterError
from ..models import Player, Tournament

FLAG_TEXT = {
    member_selectors.UNKNOWN: "Riga %(row)s: tessera %(number)s sconosciuta",
    member_selectors.EXPIRED: "Riga %(row)s: tessera %(number)s scaduta",
    member_selectors.MISSING: "Riga %(row)s: %(name)s senza tessera",
}


def flag_words(flag: str) -> str:
    """«sconosciuta» / «scaduta» / «senza tessera» (translated) for a flag of :func:`flags_of`."""
    if flag == member_selectors.MISSING:
        return _("senza tessera")
    return _("sconosciuta") if flag == member_selectors.UNKNOWN else _("scaduta")


def mode(tournament: Tournament, flag: str) -> str:
    """The tournament's setting (``Tournament.MembershipCheck``) for ``flag``: its own
    ``missing_membership`` for a player without a number, ``membership_check`` otherwise."""
    if flag == member_selectors.MISSING:
        return tournament.missing_membership
    return tournament.membership_check


def flags_for(tournament: Tournament, numbers: Iterable[str]) -> dict[str, str]:
    """The flagged numbers among ``numbers`` for ``tournament`` (its date; §16), ``{}`` when
    its setting is *ignore*."""
    if tournament.membership_check == Tournament.MembershipCheck.IGNORE:
        return {}
    return member_selectors.membership_flags(numbers, tournament.date, club=tournament.club_id)


def flags_of(tournament: Tournament, players: Iterable) -> list[tuple[object, str]]:
    """``[(player, flag)]`` for the flagged ones among ``players`` (objects with
    ``membership_number``, ``last_name``, ``first_name``: ``Player`` or ``PlayerData``), in
    their order: *unknown* / *expired* numbers (:func:`flags_for`) and, unless the tournament's
    ``missing_membership`` is *ignore*, players without a number once a member list was
    imported (rules.md §16)."""
    players = list(players)
    numbers = flags_for(tournament, [p.membership_number for p in players if p.membership_number])
    missing = (tournament.missing_membership != Tournament.MembershipCheck.IGNORE
               and any(not (p.membership_number or "").strip() for p in players)
               and member_selectors.any_list_imported(club=tournament.club_id))
    flagged = []
    for p in players:
        number = (p.membership_number or "").strip()
        if number and number in numbers:
            flagged.append((p, numbers[number]))
        elif not number and missing:
            flagged.append((p, member_selectors.MISSING))
    return flagged


def _players_of_row(row) -> list:
    """The ``PlayerData`` of a parsed registration row (pair, player or team)."""
    if hasattr(row, "players"):
        return list(row.players)
    return [row.player]


def row_flags(tournament: Tournament, rows) -> list[tuple[str, bool]]:
    """``[(line, refused)]``, one per flagged player of a parsed registration file
    (``registrations.parse*`` rows, each with ``row``), in file order: ``Riga R: tessera N
    sconosciuta``, ``… scaduta`` or ``Riga R: Cognome Nome senza tessera`` (the wording of
    ``import_registrations``; always Italian, as a script reads it); ``refused`` when the
    tournament's setting for that flag is *refuse* (:func:`mode`)."""
    rows = list(rows)
    where = {}
    players = []
    for row in rows:
        for p in _players_of_row(row):
            where[id(p)] = row.row
            players.append(p)
    refuse = Tournament.MembershipCheck.REFUSE
    return [(FLAG_TEXT[flag] % {"row": where[id(p)], "number": (p.membership_number or "").strip(),
                                "name": f"{p.last_name} {p.first_name}".strip()},
             mode(tournament, flag) == refuse)
            for p, flag in flags_of(tournament, players)]


def row_flag_lines(tournament: Tournament, rows) -> list[str]:
    """The lines of :func:`row_flags`, refused or not."""
    return [line for line, _refused in row_flags(tournament, rows)]


def refusal(tournament: Tournament, players: Iterable) -> str | None:
    """The sentence refusing a registration of ``players`` (as :func:`flags_of`) when some are
    flagged and the tournament's setting for their flag is *refuse*; None otherwise."""
    refuse = Tournament.MembershipCheck.REFUSE
    if refuse not in (tournament.membership_check, tournament.missing_membership):
        return None  # nothing can be refused: no query
    refused = [(p, f) for p, f in flags_of(tournament, players)
               if mode(tournament, f) == Tournament.MembershipCheck.REFUSE]
    if not refused:
        return None
    sentences = []
    numbers = [(p.membership_number.strip(), f) for p, f in refused if f != member_selectors.MISSING]
    if numbers:
        listed = "; ".join(_("tessera %(number)s %(flag)s") % {"number": n, "flag": flag_words(f)}
                           for n, f in numbers)
        sentences.append(_("Iscrizione rifiutata: %(numbers)s (impostazione del torneo: le tessere sconosciute "
                           "o scadute si rifiutano).") % {"numbers": listed})
    guests = [f"{p.last_name} {p.first_name}".strip() for p, f in refused if f == member_selectors.MISSING]
    if guests:
        sentences.append(_("Iscrizione rifiutata: %(names)s senza tessera (impostazione del torneo: i giocatori "
                           "senza tessera si rifiutano).") % {"names": ", ".join(guests)})
    return " ".join(sentences)


def link_players(tournament: Tournament, *, check: bool = True) -> int:
    """Link every player of ``tournament`` not yet linked to a member, by the rules above.

    ``check``: apply the tournament's *refuse* setting to those players first (raises
    :class:`ArbiterError` with :func:`refusal`'s sentence; the caller's transaction rolls the
    registration back). A tournament file's import passes False (its players registered
    elsewhere). Returns how many players were linked."""
    players = list(Player.objects.filter(tournament=tournament, member__isnull=True).order_by("pk"))
    if not players:
        return 0
    if check:
        sentence = refusal(tournament, players)
        if sentence:
            raise ArbiterError(sentence)
    return link(tournament, players)


def assign_members(tournament: Tournament, players: list[Player]) -> None:
    """For a bulk registration (a registration file): check the *refuse* setting and set the
    ``member`` of ``players`` — Player objects not saved yet — before they are inserted, so
    the import writes no UPDATE per player. Raises :class:`ArbiterError` as
    :func:`link_players`."""
    sentence = refusal(tournament, players)
    if sentence:
        raise ArbiterError(sentence)
    link(tournament, players, save=False)


def link(tournament: Tournament, players: list[Player], *, save: bool = True, create=None) -> int:
    """Link ``players`` (of ``tournament``, unlinked) and, with ``save``, write their
    ``member``; new members are created in bulk, by ``create(members)`` when given (it must
    give them their ids: the tournament-file import writes them with its prepared INSERT).
    Returns how many were linked.

    Raises :class:`ArbiterError` (:func:`cap_refusal`'s sentence) when the new members would
    take the registry beyond ``members.models.MAX_MEMBERS``; nothing is written here then."""
    taken = set(Player.objects.filter(tournament=tournament, member__isnull=False)
                .order_by().values_list("member_id", flat=True))  # a set: no ORDER BY needed
    numbers = {p.membership_number for p in players if p.membership_number}
    by_number = {m.membership_number: m for m in Member.objects.filter(
        club_id=tournament.club_id, membership_number__in=numbers)}
    keys = {name_key(p.last_name, p.first_name) for p in players if not p.membership_number}
    by_key: dict[str, list[Member]] = defaultdict(list)
    for m in Member.objects.filter(club_id=tournament.club_id, name_key__in=keys, erased_at__isnull=True):
        by_key[m.name_key].append(m)
    targets: list[tuple[Player, Member]] = []
    fresh: list[Member] = []
    for player in players:
        member = None
        if player.membership_number:
            member = by_number.get(player.membership_number)
            if member is None:
                member = _new_member(tournament, player)
                by_number[player.membership_number] = member
                fresh.append(member)
        else:
            matches = by_key.get(name_key(player.last_name, player.first_name), [])
            if len(matches) == 1 and matches[0].pk not in taken:
                member = matches[0]
            else:
                member = _new_member(tournament, player)
                fresh.append(member)
        if member.pk is not None and member.pk in taken:
            continue  # never two players of one tournament on one member
        targets.append((player, member))
        if member.pk is not None:
            taken.add(member.pk)
    if fresh:
        sentence = cap_refusal(len(fresh), club_id=tournament.club_id)
        if sentence:
            raise ArbiterError(sentence)
    if create is not None:
        create(fresh)
    else:
        Member.objects.bulk_create(fresh, batch_size=1000)
    for player, member in targets:
        player.member = member
    if save:
        Player.objects.bulk_update([p for p, _m in targets], ["member"], batch_size=1000)
    return len(targets)


def cap_refusal(new: int, *, club_id: int | None = None) -> str | None:
    """The sentence refusing a registration that would add ``new`` members to a registry
    already holding so many that it would pass ``members.models.MAX_MEMBERS`` (rules.md §16:
    the registry's stated cap; the registry is the club's, §20: ``club_id``, None for the
    default club); None when they fit."""
    cap = member_models.MAX_MEMBERS  # read at call time: the registry's one figure
    present = member_selectors.club_members(club_id).count()
    if present + new <= cap:
        return None
    return _("Iscrizione rifiutata: l'anagrafica ha %(present)s soci e questa iscrizione ne aggiungerebbe "
             "%(new)s nuovi, oltre il massimo di %(max)s. Nulla è stato salvato: unisci i soci doppi, oppure "
             "iscrivi i giocatori con la tessera di un socio già presente.") % {
        "present": present, "new": new, "max": cap}


def _new_member(tournament: Tournament, player: Player) -> Member:
    """A new member of the tournament's club (rules.md §20) from ``player``."""
    return Member(membership_number=player.membership_number or None, last_name=player.last_name,
                  first_name=player.first_name, name_key=name_key(player.last_name, player.first_name),
                  registered_club=player.club, club_id=tournament.club_id,
                  source=Member.Source.REGISTRATION)


def player_flag_lines(tournament: Tournament) -> list[str]:
    """The pairs (players, teams) page's list of flagged players: «Rossi Mario: tessera 123
    scaduta» or «Neri Ada: senza tessera», in name order (empty when both settings are
    *ignore*)."""
    players = Player.objects.filter(tournament=tournament).order_by("last_name", "first_name", "pk")
    lines = []
    for p, flag in flags_of(tournament, players):
        if flag == member_selectors.MISSING:
            lines.append(_("%(name)s: senza tessera") % {"name": p.display_name})
        else:
            lines.append(_("%(name)s: tessera %(number)s %(flag)s") % {
                "name": p.display_name, "number": p.membership_number, "flag": flag_words(flag)})
    return lines


def player_flags(tournament: Tournament) -> dict[int, str]:
    """``{player id: "unknown" | "expired" | "missing"}`` for the pairs page (:func:`flags_of`)."""
    players = Player.objects.filter(tournament=tournament).only("pk", "membership_number", "last_name", "first_name")
    return {p.pk: flag for p, flag in flags_of(tournament, players)}
