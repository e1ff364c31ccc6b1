"""Fixtures of the hostile-input tests: the captain fixtures (a published round of 8 pairs)."""
import pytest
from django.core.cache import cache

from tests.captain.conftest import other_client, published_round, tables  # noqa: F401


@pytest.fixture(autouse=True)
def _fresh_rate_limits(django_db_blocker):
    """Rate limits count in the default cache: every test starts from zero."""
    with django_db_blocker.unblock():
        cache.clear()
    yield
    with django_db_blocker.unblock():
        cache.clear()
