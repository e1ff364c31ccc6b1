"""Registration files of a team tournament (rules.md §15; sample ``shared/data/teams-12.csv``).

Columns (header names, case-insensitive, order free): ``squadra`` (team number),
``nome_squadra``, ``cognome``, ``nome``, ``tessera``, ``circolo``; one player a row, the rows of
a team sharing its number and name. Same encodings (UTF-8 with or without BOM, Windows-1252;
comma or semicolon), XLSX, size cap and all-or-nothing preview as the pairs' files
(:mod:`.reading`). The first player of a team is its captain.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import Player
from . import limits
from .player_data import PlayerData
from .reading import NumberMessages, ParsedFile, check_entry_number, check_text, each_row, read_player, read_table

TEAM_REQUIRED = ("squadra", "nome_squadra", "cognome", "nome")
#: The rows of one team repeat its number: no "used twice" refusal, only "already in the tournament".
TEAM_NUMBER = NumberMessages(
    invalid=gettext_lazy("Riga %(row)s: numero di squadra «%(value)s» non valido."),
    taken=gettext_lazy("Riga %(row)s: la squadra %(number)s è già iscritta al torneo."))


@dataclass
class TeamRow:
    """One team as read from the file: its number, name, players in file order (the first is
    the captain) and the row of its first player (header = row 1)."""

    row: int
    number: int
    name: str
    players: list[PlayerData] = field(default_factory=list)


def parse_teams(filename: str, data: bytes, *, existing_numbers=(), existing_memberships=(),
                min_players: int = 4, max_players: int = 6) -> ParsedFile:
    """Read and check a team registration file; nothing is saved.

    Errors, each with its row number (``ParsedFile.errors``; ``rows`` then empty): unreadable
    or empty file, missing columns, a team number that is not a positive integer, a team
    number already in the tournament, two names for one team number, a missing surname or
    name, the same membership number twice (in the file or in the tournament), a team with
    fewer than ``min_players`` or more than ``max_players`` players (rules.md §15: 4 to 6).
    ``rows``: :class:`TeamRow`, by team number.
    """
    parsed = ParsedFile()
    table = read_table(
        filename, data, parsed, max_rows=limits.MAX_PLAYERS, required=TEAM_REQUIRED,
        too_many=_("Il file ha più di %(max)s giocatori: è il massimo per un torneo. Nulla è stato "
                   "importato.") % {"max": limits.MAX_PLAYERS},
        missing_columns=_("Riga 1: mancano le colonne %(columns)s (servono squadra, nome_squadra, cognome, "
                          "nome, tessera, circolo)."))
    if table is None:
        return parsed
    header, body = table
    existing_numbers, existing_memberships = set(existing_numbers), set(existing_memberships)
    teams: dict[int, TeamRow] = {}
    seen_members: dict[str, int] = {}
    for index, cells in each_row(header, body, parsed):
        errors = []
        number = check_entry_number(index, cells["squadra"], errors, TEAM_NUMBER,
                                    existing=existing_numbers, required=True)
        name = cells.get("nome_squadra", "")
        if not name:
            errors.append(_("Riga %(row)s: manca il nome della squadra.") % {"row": index})
        check_text(index, "nome_squadra", name, 120, errors)
        if number is not None and number not in existing_numbers and number in teams and name \
                and teams[number].name != name:
            errors.append(_("Riga %(row)s: la squadra %(number)s si chiama «%(first)s» alla riga %(first_row)s, "
                            "qui «%(name)s».") % {"row": index, "number": number, "first": teams[number].name,
                                                  "first_row": teams[number].row, "name": name})
        player = read_player(index, cells, errors, seen_members=seen_members,
                             existing_memberships=existing_memberships)
        if errors:
            parsed.errors.extend(errors)
            continue
        team = teams.setdefault(number, TeamRow(row=index, number=number, name=name))
        team.players.append(player)
    if len(teams) > limits.MAX_TEAMS:
        parsed.errors.append(_("Il file ha %(n)s squadre: al massimo %(max)s per un torneo. Nulla è stato importato.")
                             % {"n": len(teams), "max": limits.MAX_TEAMS})
    row_errors = bool(parsed.errors)
    for number in sorted(teams):
        size = len(teams[number].players)
        if not row_errors and not min_players <= size <= max_players:
            parsed.errors.append(
                _("Squadra %(number)s (riga %(row)s): %(count)s giocatori; una squadra ne ha da %(min)s a %(max)s.")
                % {"number": number, "row": teams[number].row, "count": size, "min": min_players,
                   "max": max_players})
    if not parsed.errors:
        parsed.rows = [teams[n] for n in sorted(teams)]
    if not parsed.rows and not parsed.errors:
        parsed.errors.append(_("Nessuna squadra nel file."))
    return parsed


def parse_teams_for_tournament(tournament, filename: str, data: bytes) -> ParsedFile:
    """:func:`parse_teams` against what ``tournament`` already holds (team numbers, membership
    numbers) and its team size settings."""
    return parse_teams(
        filename, data,
        existing_numbers=set(tournament.teams.values_list("number", flat=True)),
        existing_memberships=set(Player.objects.filter(tournament=tournament).exclude(membership_number="")
                                 .values_list("membership_number", flat=True)),
        min_players=tournament.team_min_players, max_players=tournament.team_max_players,
    )
