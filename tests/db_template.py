"""A migrated SQLite test database kept between runs: the template.

Building the test database runs every migration (58, about 6.5 s per pytest process). The
result depends only on the migration files and the installed packages, so the first run
copies it to ``var/test-db/<key>.sqlite3`` (key: a hash of every installed app's migration
files and of Django's version; a new template replaces the older ones) and the next runs —
both workers of ``make test-fast``, a single test file — copy that file in instead of
migrating again. The migrations still run whenever a migration file changes, on every clean
clone (``make test``), and on PostgreSQL (never copied). ``ARBITRO_TEST_DB_TEMPLATE=0`` turns
the copy off.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
from pathlib import Path


def template_key() -> str:
    """A hash of every installed app's migration files (names and bytes) and Django's version."""
    import django
    from django.apps import apps

    digest = hashlib.sha256(django.get_version().encode())
    for app in sorted(apps.get_app_configs(), key=lambda a: a.label):
        folder = Path(app.path) / "migrations"
        for path in sorted(folder.glob("*.py")) if folder.is_dir() else []:
            digest.update(f"{app.label}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def template_path() -> Path:
    from django.conf import settings

    return Path(settings.VAR_DIR) / "test-db" / f"{template_key()}.sqlite3"


@contextlib.contextmanager
def migrate_from_template():
    """While active, the test database's ``migrate`` (run by Django's ``create_test_db``) on
    SQLite copies the template in when there is one, or migrates and then writes it (through a
    temporary file renamed into place: two workers may write it at once). Anything else —
    another command, PostgreSQL, ``ARBITRO_TEST_DB_TEMPLATE=0`` — goes to Django unchanged."""
    from django.core import management
    from django.db import DEFAULT_DB_ALIAS, connections

    original = management.call_command

    def call_command(name, *args, **kwargs):
        connection = connections[kwargs.get("database", DEFAULT_DB_ALIAS)]
        if (name != "migrate" or args or connection.vendor != "sqlite"
                or os.environ.get("ARBITRO_TEST_DB_TEMPLATE") == "0"):
            return original(name, *args, **kwargs)
        path = template_path()
        connection.ensure_connection()
        if path.exists():
            source = sqlite3.connect(path)
            try:
                source.backup(connection.connection)
            finally:
                source.close()
            return None
        result = original(name, *args, **kwargs)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        target = sqlite3.connect(partial)
        try:
            connection.connection.backup(target)
        finally:
            target.close()
        os.replace(partial, path)
        for old in path.parent.glob("*.sqlite3"):  # built from migrations that are gone
            if old != path:
                old.unlink(missing_ok=True)
        return result

    management.call_command = call_command
    try:
        yield
    finally:
        management.call_command = original
