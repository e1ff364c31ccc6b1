from tests.championships.conftest import _fresh_cache  # noqa: F401  (autouse: the same cache)
