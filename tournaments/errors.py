"""Errors the arbiter (or a captain) can act on.

Each carries an Italian message shown as-is on the page; programming errors stay
plain exceptions (README.md, "Layout").
"""
from __future__ import annotations


class ArbiterError(Exception):
    """A refused action with a message for the user (Italian)."""

    def __init__(self, message: str, *, details: list[str] | None = None):
        super().__init__(message)
        self.message = message
        self.details = details or []


class StaleSheetError(ArbiterError):
    """A save based on an old version of the sheet (two captains saving at once)."""

    def __init__(self, message: str, *, current):
        super().__init__(message)
        self.current = current
