import pytest


@pytest.fixture(autouse=True)
def _fresh_cache(db):
    """The evenings' placings are cached by tournament and audit id; a test database rolled
    back reuses ids, so each test starts with an empty cache (``db``: on PostgreSQL the default
    cache is a table of the database, config/settings.py)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
