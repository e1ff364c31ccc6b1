"""A registration file read against a tournament: the reader of the tournament's kind (pairs,
the players of an individual tournament, teams), with the numbers and memberships the
tournament already has. The page, the command line and the simulation call this."""
from __future__ import annotations

from . import registrations, team_registrations
from .models import Player


def parse_for_tournament(tournament, filename: str, data: bytes) -> registrations.ParsedFile:
    """:func:`registrations.parse` (:func:`registrations.parse_players` for an individual
    tournament, :func:`team_registrations.parse_teams_for_tournament` for teams) against what the
    tournament already has."""
    if tournament.is_teams:  # issue 15
        return team_registrations.parse_teams_for_tournament(tournament, filename, data)
    if tournament.is_individual:
        return registrations.parse_players(
            filename, data,
            existing_numbers=Player.objects.filter(tournament=tournament, number__isnull=False)
            .values_list("number", flat=True),
            existing_memberships=Player.objects.filter(tournament=tournament).exclude(membership_number="")
            .values_list("membership_number", flat=True),
        )
    return registrations.parse(
        filename,
        data,
        existing_numbers=tournament.pairs.values_list("number", flat=True),
        existing_memberships=Player.objects.filter(tournament=tournament)
        .exclude(membership_number="")
        .values_list("membership_number", flat=True),
    )
