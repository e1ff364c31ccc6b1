"""Benchmark: the member search while typing (the club's season; ``bench/season.py`` runs it
after the championship figure).

Run: ``.venv/bin/python bench/member_search.py [--members 5000]``.

Member search while typing (rules.md §16): a temporary ``ARBITRO_VAR_DIR`` (SQLite) is
migrated, a member list of ``--members`` members (surnames × first names, numbers 100001…)
is imported through ``members.importer``, and a logged-in arbiter (Django's test client: the
real view, no network) types six names, a first name alone and two numbers one character at a
time into the
proposals endpoint ``/soci/cerca/?q=`` (from the second character on, as the page's script
asks). Every keystroke's answer is timed. Target: max ≤ 50 ms a keystroke's answer at 5000
members.

The registry's query alone (``members.selectors.propose``: one query, the word rule checked on
the rows it reads) is timed too: the
rest of an answer is Django's request handling (session, login, middleware), which a loaded
machine slows for every page alike; the load average is printed with the figures.

Prints figures and asserts nothing; the members' LAST line is exactly
``member_search: N members, K keystrokes, median X ms, p95 Y ms, max Z ms``.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

SURNAMES = ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco",
            "Bruno", "Gallo", "Conti", "De Luca", "Mancini", "Costa", "Giordano", "Rizzo", "Lombardi", "Moretti",
            "Barbieri", "Fontana", "Santoro", "Mariani", "Rinaldi", "Caruso", "Ferrara", "Galli", "Martini", "Leone",
            "Longo", "Gentile", "Martinelli", "Vitale", "Lombardo", "Serra", "Coppola", "De Santis", "D'Angelo",
            "Marchetti", "Parisi", "Villa", "Conte", "Ferraro", "Ferri", "Fabbri", "Bianco", "Marini", "Grasso",
            "Valentini"]
FIRST = ["Anna", "Marco", "Giulia", "Luca", "Francesca", "Andrea", "Chiara", "Matteo", "Sara", "Alessandro",
         "Elena", "Davide", "Martina", "Simone", "Laura", "Federico", "Valentina", "Stefano", "Silvia", "Nicolò"]
TYPED = ["serra anna", "d'angelo nicolò", "de luca marco", "valentini sara", "ros", "100042", "1049", "luca",
         "ferrari l"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def member_list(n: int) -> bytes:
    lines = ["tessera,cognome,nome,circolo,categoria,scadenza\n"]
    for k in range(n):
        last = SURNAMES[k % len(SURNAMES)]
        first = FIRST[(k // len(SURNAMES)) % len(FIRST)]
        suffix = "" if k < len(SURNAMES) * len(FIRST) else f" {k // (len(SURNAMES) * len(FIRST))}"
        lines.append(f"{100001 + k},{last}{suffix},{first},Circolo {k % 12},,2026-12-31\n")
    return "".join(lines).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=5000)
    args = parser.parse_args()

    import warnings

    warnings.filterwarnings("ignore", message="No directory at")
    os.environ["ARBITRO_VAR_DIR"] = tempfile.mkdtemp(prefix="arbitro-bench-season-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from members import importer

    call_command("migrate", verbosity=0)

    # ------------------------------------------------------------------ members (rules.md §16)
    started = time.perf_counter()
    parsed = importer.parse("soci.csv", member_list(args.members))
    assert parsed.ok, parsed.errors[:3]
    importer.save(parsed)
    print(f"member list of {args.members} imported in {(time.perf_counter() - started) * 1000:.0f} ms")
    arbiter = get_user_model().objects.create_user(username="arbitro", password="segreta-123")
    client = Client()
    client.force_login(arbiter)
    client.get("/soci/cerca/", {"q": "warm"})
    # As ``manage.py serve`` does once the application is loaded (serve.freeze_startup_objects):
    # the import's garbage collected, what lives on kept out of the collector's full passes (a
    # full pass over the 5000 members' import took 55 ms in the middle of a word).
    from tournaments.management.commands.serve import freeze_startup_objects

    freeze_startup_objects()
    from members import selectors

    timings: list[float] = []
    queries: list[float] = []
    for text in TYPED:
        for end in range(2, len(text) + 1):
            t0 = time.perf_counter()
            selectors.propose(text[:end])
            queries.append((time.perf_counter() - t0) * 1000)
    for text in TYPED:
        row = []
        for end in range(2, len(text) + 1):
            t0 = time.perf_counter()
            resp = client.get("/soci/cerca/", {"q": text[:end]})
            elapsed = (time.perf_counter() - t0) * 1000
            assert resp.status_code == 200
            timings.append(elapsed)
            row.append(f"{elapsed:.1f}")
        print(f"  {text!r}: {len(resp.json()['members'])} proposals at the last key; ms per key: {' '.join(row)}")
    print(f"  the registry's query alone (members.selectors.propose): median {statistics.median(queries):.1f} ms, "
          f"max {max(queries):.1f} ms; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"member_search: {args.members} members, {len(timings)} keystrokes, median "
          f"{statistics.median(timings):.1f} ms, p95 {percentile(timings, 95):.1f} ms, max {max(timings):.1f} ms")


if __name__ == "__main__":
    main()
