import pytest


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """The booking pages' rate limits count in the default cache, which outlives a test:
    each test starts with no booking counted."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
