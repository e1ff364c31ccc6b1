"""The migrated SQLite test database kept between runs (tests/db_template.py) is a fully
migrated database: every migration on disk recorded, the same tables as the database the
tests run on, and a new key whenever what built it changes."""
import sqlite3

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests import db_template

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite only (PostgreSQL always migrates)")


def _schema(conn) -> list:
    return sorted(conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchall())


@pytest.mark.django_db
def test_the_template_has_every_migration_and_the_tables_of_the_test_database():
    path = db_template.template_path()
    assert path.exists()  # written by this run's setup, or by an earlier one with the same key
    template = sqlite3.connect(path)
    try:
        applied = set(template.execute("SELECT app, name FROM django_migrations").fetchall())
        on_disk = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
        assert on_disk <= applied, sorted(on_disk - applied)
        assert _schema(template) == _schema(connection.connection)
    finally:
        template.close()


def test_the_key_changes_with_django_and_with_a_migration_file(monkeypatch, tmp_path):
    import django
    from django.apps import apps

    key = db_template.template_key()
    assert db_template.template_key() == key
    monkeypatch.setattr(django, "get_version", lambda: "0.0")
    assert db_template.template_key() != key
    monkeypatch.undo()
    app = apps.get_app_config("tournaments")
    (tmp_path / "migrations").mkdir()
    for path in (db_template.Path(app.path) / "migrations").glob("*.py"):
        (tmp_path / "migrations" / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(app, "path", str(tmp_path))
    assert db_template.template_key() == key  # same files, same key
    (tmp_path / "migrations" / "0001_initial.py").write_bytes(b"# changed\n")
    assert db_template.template_key() != key
