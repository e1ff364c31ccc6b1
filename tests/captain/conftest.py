"""Fixtures of the captain, board and public page tests."""
import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_rate_limits(django_db_blocker):
    """The rate limiter counts in the default cache (process memory on SQLite, a database table
    otherwise: config/settings.py): start every test from zero. The database cache needs the
    database even in a test that does not otherwise use it."""
    with django_db_blocker.unblock():
        cache.clear()
    yield
    with django_db_blocker.unblock():
        cache.clear()


@pytest.fixture
def published_round(tournament, make_pairs, arbiter):
    """Round 1 (Mitchell, 4 hands, scale vp20-4h) of 8 pairs, published: tables 1–4."""
    from tournaments import services

    make_pairs(tournament, 8)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    return services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)


@pytest.fixture
def tables(published_round):
    """{table number: Table} of the published round."""
    return {t.number: t for t in published_round.tables.all()}


@pytest.fixture
def other_client():
    """The other line's phone: a second browser with its own session and cookies."""
    from django.test import Client

    return Client()
