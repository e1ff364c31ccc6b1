"""Fixtures of the bookings' tests."""
import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_rate_limits(django_db_blocker):
    """The booking pages' rate limits count in the default cache (process memory on SQLite, a
    database table otherwise), which outlives a test: each test starts from zero (as
    tests/captain/conftest.py does)."""
    with django_db_blocker.unblock():
        cache.clear()
    yield
    with django_db_blocker.unblock():
        cache.clear()
