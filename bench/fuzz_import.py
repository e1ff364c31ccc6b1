"""Fuzz of the tournament import: tampered and damaged copies of a valid export.

Run: ``.venv/bin/python bench/fuzz_import.py [--random 300] [--seed 22]``.

In a temporary ``ARBITRO_VAR_DIR`` (SQLite, migrated): builds a valid tournament through the
services (``tests/transfer/tampering.build_base``), exports it, then uploads through the
import page (Django's test client, an arbiter logged in) the file itself, every tampered
kind of ``tests/transfer/tampering.TAMPERS`` and ``--random`` copies with one value
anywhere replaced by a hostile one (``tests/transfer/fuzzing.HOSTILE``); then, for each of
``--kinds`` (default: an individual and a team tournament, ``tampering.build_kind_base``),
its valid file and ``--random`` damaged copies of it. Each file must be
refused with a message (400, nothing created), or import, and then every arbiter, captain
and public page of the copy must answer below 500.

Prints the figures and every failure; the LAST line is exactly
``fuzz_import: N files, R refused, I imported, P pages, F failures``; exits 1 on a failure.
``tests/transfer/test_fuzz_import.py`` runs a reduced version.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=300)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--kinds", default="individual,teams",
                        help="other kinds whose valid file is damaged --random times too (comma-separated; "
                             "'' for the pair file only)")
    args = parser.parse_args()

    import warnings

    warnings.filterwarnings("ignore", message="No directory at")
    var = tempfile.mkdtemp(prefix="arbitro-fuzz-import-")
    os.environ["ARBITRO_VAR_DIR"] = var
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("ARBITRO_LOGIN_THROTTLE", "0")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    from tests.transfer import fuzzing, tampering

    arbiter = get_user_model().objects.create_user(username="arbitro", password="segreta-123")
    base = tampering.build_base(arbiter)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    kind_bases = {kind: tampering.build_kind_base(kind) for kind in kinds}
    client = Client()
    client.force_login(arbiter)
    files = fuzzing.all_files(base, random_count=args.random, seed=args.seed, kind_bases=kind_bases)
    outcome = fuzzing.run(client, base, files)
    import shutil

    shutil.rmtree(var, ignore_errors=True)
    for failure in outcome.failures:
        print("FAIL", failure)
    print(f"imported: {', '.join(outcome.imported[:40])}{' …' if len(outcome.imported) > 40 else ''}")
    print(f"fuzz_import: {len(files)} files, {len(outcome.refused)} refused, {len(outcome.imported)} imported, "
          f"{outcome.pages} pages, {len(outcome.failures)} failures")
    return 1 if outcome.failures else 0


if __name__ == "__main__":
    sys.exit(main())
