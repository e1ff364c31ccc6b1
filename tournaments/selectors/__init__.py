"""The reads of the tournaments app, one module per subject: ``access`` (who may open a
tournament), ``rankings`` (the standings and their results, names and tie-breaks),
``rounds`` (meetings, rests, the round page's tables), ``sheets`` (a sheet's state, the
last dispute), ``teams``, ``scales``, ``penalties``, ``corrections`` (of a closed round),
``lateness``, ``calls`` (the arbiter's calls bar), ``clock`` (the round clock as the screens
show it).

The selectors sit below the kinds and import none: a read that needs a kind object is a
page read (``tournaments.pages``). The package answers the reads scripts and most callers
ask it for by name (``from tournaments.selectors import standings, round_tables``).
"""
from __future__ import annotations

from . import access, calls, clock, corrections, lateness, penalties, rankings, rounds, scales, sheets, teams
from .access import directs, listed_tournaments_of, tournaments_of
from .rankings import (
    Standings,
    applied_tiebreaks,
    closed_rounds,
    entrant_names,
    game_results,
    individual_standings_after,
    individual_tiebreaks,
    latest_standings_of,
    pair_fields_of,
    pair_names,
    pair_names_of,
    pair_standings_after,
    player_names,
    same_standings,
    standings,
    standings_after,
    standings_window,
    team_standings_after,
)
from .rounds import SheetSummary, meetings, rested_pairs, round_page_tables, round_tables, table_groups
from .sheets import last_dispute
from .teams import team_names

__all__ = [
    "access", "calls", "clock", "corrections", "lateness", "penalties", "rankings", "rounds", "scales", "sheets", "teams",
    "directs", "listed_tournaments_of", "tournaments_of",
    "Standings", "applied_tiebreaks", "closed_rounds", "entrant_names", "game_results", "individual_standings_after",
    "individual_tiebreaks", "latest_standings_of", "pair_fields_of", "pair_names", "pair_names_of", "pair_standings_after", "player_names", "same_standings", "standings", "standings_after",
    "standings_window", "team_names", "team_standings_after",
    "SheetSummary", "meetings", "rested_pairs", "round_page_tables", "round_tables", "table_groups",
    "last_dispute",
]
