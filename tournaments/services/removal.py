"""Checks other apps add before registered players are deleted (a pair or a player removed
before the first round).

The cash desk (``money``, rules.md §21) registers one: a player whose fee was paid is not
deleted with his pair, or the money taken at the door would vanish from the treasurer's
sheet; the arbiter cancels the payment first (and gives the money back). ``tournaments``
does not import the apps above it: they register here in their ``AppConfig.ready``.
"""
from __future__ import annotations

from typing import Callable, Iterable

from ..errors import ArbiterError

#: ``check(players) -> sentence | None``: why these players cannot be deleted, or None.
_CHECKS: list[Callable] = []


def register(check: Callable) -> None:
    """Add ``check`` (called with the players about to be deleted; returns a refusal sentence
    or ``None``). Registering the same function twice keeps one."""
    if check not in _CHECKS:
        _CHECKS.append(check)


def refuse_removal(players: Iterable) -> None:
    """Raise ``ArbiterError`` with the first registered check's sentence that refuses deleting
    ``players`` (``Player`` rows); nothing when every check agrees."""
    players = list(players)
    for check in _CHECKS:
        refusal = check(players)
        if refusal:
            raise ArbiterError(refusal)
