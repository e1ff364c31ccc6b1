"""Tournament data: people, pairs, rounds, tables, score sheets, penalties, audit.

A package, one module per section (``tournament``, ``entrants``, ``rounds``, ``sheets``,
``records``, ``teams``); every model is imported from ``tournaments.models`` as before.

Models hold data and database constraints only (rules.md §1). Every write that
changes a result goes through ``tournaments.services``, which also writes the
``AuditEntry`` in the same transaction.

Two constraints that span two columns are made structural instead:

- a player belongs to at most one pair: ``Player.pair`` is a single foreign key
  with a unique ``(pair, seat)``;
- a pair sits at most once per round: ``Seat`` rows carry ``(round, pair)``
  unique, and a table has at most one seat per line.
"""
from __future__ import annotations

from .calls import ArbiterCall
from .entrants import LineMember, Pair, Player
from .records import AuditAction, AuditEntry, Penalty, PinGuard, ResultsDownload
from .rounds import Round, Seat, Table
from .sheets import CorrectionKind, HandRow, ScoreSheet
from .teams import LineUp, Match, Team
from .tournament import DEFAULT_TIEBREAKS, CustomScale, Tournament, new_pin, new_token

__all__ = [
    "ArbiterCall",
    "AuditAction",
    "AuditEntry",
    "CorrectionKind",
    "CustomScale",
    "DEFAULT_TIEBREAKS",
    "HandRow",
    "LineMember",
    "LineUp",
    "Match",
    "Pair",
    "Penalty",
    "PinGuard",
    "Player",
    "ResultsDownload",
    "Round",
    "ScoreSheet",
    "Seat",
    "Table",
    "Team",
    "Tournament",
    "new_pin",
    "new_token",
]
