"""A tournament as one file: export, import and the automatic backups.

- :func:`export_tournament` → the file's bytes (``FORMAT`` ``"arbitro-tournament"``,
  ``VERSION`` 2), deterministic: same tournament, same bytes, on SQLite or PostgreSQL;
- :func:`import_tournament` → the tournament created from such a file (version 2, or 1
  upgraded by :func:`upgrade_v1`), in one transaction;
- :mod:`.backups`: the export (and an SQLite copy) written when a round is closed.

The file is SECRET: it holds every table's captain link token and PIN, so that printed QR
codes keep working after a move between a laptop and a server.
"""
from .exporter import LOCAL_ACTIONS, dumps, export_data, export_tournament  # noqa: F401
from .importer import ImportResult, SlugTakenError, check_slug, copy_name, copy_slug, import_tournament  # noqa: F401
from .reader import parse_file, read_plan, upgrade_v1  # noqa: F401
from .schema import (  # noqa: F401
    ADDED_IN_2,
    FIELDS,
    FORMAT,
    READABLE_VERSIONS,
    SECRET_NOTICE,
    STRUCTURAL,
    TEAM_KEYS_OF_2,
    VERSION,
    model_field_names,
)
