import pytest


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The evenings' placings are cached by tournament and audit id; a test database rolled
    back reuses ids, so each test starts with an empty cache."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
