"""A registration file read against a tournament: the reader of the tournament's kind (pairs,
the players of an individual tournament, teams), with the numbers and memberships the
tournament already has. The page, the command line and the simulation call this."""
from __future__ import annotations

from . import registrations
from .kinds import kind_of


def parse_for_tournament(tournament, filename: str, data: bytes) -> registrations.ParsedFile:
    """The kind's reader (:meth:`tournaments.kinds.base.Kind.parse_registrations`:
    :func:`registrations.parse` for pairs, :func:`registrations.parse_players` for an
    individual tournament, :func:`team_registrations.parse_teams_for_tournament` for teams)
    against what the tournament already has."""
    return kind_of(tournament).parse_registrations(tournament, filename, data)
