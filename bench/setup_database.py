"""``make setup``'s database steps for a bench's temporary var dir, in one process.

Run by the benches (``bench.captains.prepare_database``) with the server's environment
(``ARBITRO_VAR_DIR`` the temporary folder, ``DATABASE_URL`` set for PostgreSQL):

    python bench/setup_database.py [TEMPLATE_DIR]

On SQLite, when the test suite has left a migrated template for today's migration files in
``TEMPLATE_DIR`` (``var/test-db/``, tests/db_template.py: the same schema, the same rows the
migrations write), the database is a copy of it instead of 60 migrations run again: the
benches' smoke tests set up one to three servers each, and migrating was most of their set-up.
Otherwise (no template, PostgreSQL) ``migrate`` runs as ``make setup`` runs it. Then the cache
table and the static files, as ``make setup`` does. One Django start-up instead of three.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))


def main() -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from tests.db_template import template_key

    template_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    template = template_dir / f"{template_key()}.sqlite3" if template_dir else None
    if connection.vendor == "sqlite" and template is not None and template.exists():
        connection.close()
        shutil.copyfile(template, connection.settings_dict["NAME"])
    else:
        call_command("migrate", interactive=False, verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


if __name__ == "__main__":
    main()
