"""The server's time source of the round clock (issue 12).

Every clock computation asks :func:`now`; tests replace it (``monkeypatch.setattr(
timesource, "now", ...)`` or :func:`use_fake`) to move time without waiting. Callers use
``timesource.now()``, never ``from .timesource import now``, so a replacement is seen.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone


class FakeClock:
    """A settable clock for tests: ``fake.now()``, ``fake.advance(seconds)``."""

    def __init__(self, start: datetime):
        self.at = start

    def now(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at = self.at + timedelta(seconds=seconds)


def now() -> datetime:
    """The current instant (aware, UTC)."""
    return timezone.now()
