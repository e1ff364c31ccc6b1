"""A fake time source for the clock tests: ``fake_now.advance(seconds)`` moves the server's time."""
from datetime import datetime, timezone

import pytest

from tests.i18n.conftest import english_catalogue  # noqa: F401 (the compiled English catalogue)
from tournaments.models import Round, Tournament
from tournaments.server import timesource


@pytest.fixture
def fake_now(monkeypatch):
    fake = timesource.FakeClock(datetime(2026, 11, 30, 15, 0, 0, tzinfo=timezone.utc))
    monkeypatch.setattr(timesource, "now", fake.now)
    return fake


@pytest.fixture
def rnd(published):
    Tournament.objects.filter(pk=published.tournament_id).update(projector_enabled=True, public_enabled=True)
    return Round.objects.get(pk=published.pk)
