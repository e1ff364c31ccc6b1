"""A fake time source for the clock tests: ``fake_now.advance(seconds)`` moves the server's time."""
from datetime import datetime, timezone

import pytest

from tests.i18n.conftest import english_catalogue  # noqa: F401 (the compiled English catalogue)
from tournaments.server import timesource


@pytest.fixture
def fake_now(monkeypatch):
    fake = timesource.FakeClock(datetime(2026, 11, 30, 15, 0, 0, tzinfo=timezone.utc))
    monkeypatch.setattr(timesource, "now", fake.now)
    return fake
