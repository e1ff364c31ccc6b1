"""The caches shared by server processes (tournaments/server/cache.py, config/settings.py)."""
from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

SHARED = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "test-default"},
    "shared": {"BACKEND": "tournaments.server.cache.SharedDatabaseCache", "LOCATION": "arbitro_cache_test"},
}


def test_rate_limits_count_in_the_database_unless_sqlite():
    """SQLite (one process): local memory as before; PostgreSQL (several processes): the database."""
    backend = settings.CACHES["default"]["BACKEND"]
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        assert backend == "django.core.cache.backends.locmem.LocMemCache"
    else:
        assert backend == "tournaments.server.cache.SharedDatabaseCache"
    assert settings.RATELIMIT_USE_CACHE == "default"
    assert settings.AXES_HANDLER == "axes.handlers.database.AxesDatabaseHandler"


def test_documents_cache_is_on_disk_under_var():
    documents = settings.CACHES["documents"]
    assert documents["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache"
    assert documents["LOCATION"].startswith(str(settings.VAR_DIR))


@pytest.mark.django_db
def test_incr_adds_and_refuses_a_missing_key():
    with override_settings(CACHES=SHARED):
        call_command("createcachetable", "arbitro_cache_test")
        cache = caches["shared"]
        cache.set("count", 5, 60)
        assert cache.incr("count") == 6          # 5 + 1
        assert cache.incr("count", 3) == 9       # 6 + 3
        assert cache.decr("count") == 8          # 9 − 1
        assert cache.get("count") == 8
        assert cache.add("count", 1, 60) is False  # django-ratelimit's first step: exists
        with pytest.raises(ValueError):
            cache.incr("nobody")


@pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
                    reason="threads with their own connections need a database server (PostgreSQL)")
@pytest.mark.django_db(transaction=True)
def test_concurrent_increments_lose_nothing():
    """4 threads × 25 increments from 0, each on its own connection (as separate processes
    would be): 100, not less (Django's own incr reads then writes, and loses some)."""
    from django.db import connections

    with override_settings(CACHES=SHARED):
        call_command("createcachetable", "arbitro_cache_test")
        try:
            caches["shared"].set("hits", 0, 60)
            barrier = threading.Barrier(4)

            def work():
                try:
                    barrier.wait()
                    for _ in range(25):
                        caches["shared"].incr("hits")
                finally:
                    connections.close_all()

            threads = [threading.Thread(target=work) for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert caches["shared"].get("hits") == 100
        finally:
            with connection.cursor() as cursor:
                cursor.execute("DROP TABLE IF EXISTS arbitro_cache_test")
