"""The server's time source of the round clock (rules.md §11).

Every clock computation asks :func:`now`; tests replace it (``monkeypatch.setattr(
timesource, "now", ...)`` or :func:`use_fake`) to move time without waiting. Callers use
``timesource.now()``, never ``from .timesource import now``, so a replacement is seen.
"""
from __future__ import annotations

import time
from datetime import datetime, timedelta

from django.utils import timezone


class FakeClock:
    """A settable clock for tests: ``fake.now()``, ``fake.advance(seconds)``.

    ``running=False`` (unit tests): time stands still at ``start`` until advanced.
    ``running=True`` (browser tests): time also passes as the real one does, from ``start``,
    so pages loaded a few seconds apart agree while ``advance`` jumps ahead."""

    def __init__(self, start: datetime, running: bool = False):
        self.at = start
        self.running = running
        self._t0 = time.monotonic()

    def now(self) -> datetime:
        if self.running:
            return self.at + timedelta(seconds=time.monotonic() - self._t0)
        return self.at

    def advance(self, seconds: float) -> None:
        self.at = self.at + timedelta(seconds=seconds)


def now() -> datetime:
    """The current instant (aware, UTC)."""
    return timezone.now()
