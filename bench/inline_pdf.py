"""Benchmark: what one single PDF costs inside a web request (printing – big single PDFs).

Run: ``.venv/bin/python bench/inline_pdf.py [--pairs 60]`` (small sizes are enough: the
cost grows with the pages).

Builds a throw-away SQLite database, plays round 1 of ``pairs`` pairs through the services
(``simulation.simulate``), then renders in this process, as the download views do below the
threshold, the table list (with and without the captains' QR codes), the score sheets and
the standings, and prints for each: real pages, the pages ``printpack.estimated_pages``
predicted, CPU seconds and CPU milliseconds a page, and whether ``printpack.inline_ok``
would render it in the request with the current ``ARBITRO_INLINE_PDF_PAGES``.

What the default comes from (2 cores, quiet machine, 60 and 120 pairs): a score sheet costs
about 60 ms of CPU, a page of the table list or of the standings (dense tables) 180-230 ms,
so ``printpack.PAGE_WEIGHT`` counts those as 3 sheets and 40 sheet-pages is about 2.5 s of
one core: what a waitress thread may spend while the captains' saves take 30-70 ms.
Prints figures only, asserts nothing.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _ROOT / "bench"]
sys.path.insert(0, str(_ROOT))

from bench.printing import _registrations, _setup_django, cpu_timed  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (other work makes the figures slower)")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        _setup_django(tmp)
        from django.conf import settings
        from pypdf import PdfReader

        from tournaments.demo import simulation
        from tournaments.models import Round
        from tournaments.printing import documents
        from tournaments.printing import pack as printpack

        tournament = simulation.simulate(registrations=_registrations(args.pairs, tmp), plan="MMMD", hands=4,
                                         seed=args.seed, stop_after=1, name="Banco di prova")
        rnd = Round.objects.get(tournament=tournament, number=1)
        plain = documents.round_document(rnd, qr=False)
        drawn = printpack.with_qr(plain)
        standings = documents.standings_document(tournament)
        documents.html_to_pdf("<p>warm-up</p>")
        print(f"{args.pairs} pairs, {len(plain.playing_tables)} score sheets; "
              f"ARBITRO_INLINE_PDF_PAGES = {settings.ARBITRO_INLINE_PDF_PAGES} (score-sheet pages)")
        cases = [
            ("table list, QR", "tablelist", plain, True, lambda: documents.tablelist_pdf(drawn)),
            ("table list, no QR", "tablelist", plain, False, lambda: documents.tablelist_pdf(plain, qr=False)),
            ("score sheets", "sheets", plain, True, lambda: documents.scoresheets_pdf(drawn)),
            ("standings", "standings", standings, True, lambda: documents.standings_pdf(standings)),
        ]
        for label, kind, doc, qr, render in cases:
            pdf, wall, cpu = cpu_timed(render)
            pages = len(PdfReader(io.BytesIO(pdf)).pages)
            where = "in the request" if printpack.inline_ok(kind, doc, qr=qr) else "background job"
            print(f"  {label:18} {pages:3d} pages (estimated {printpack.estimated_pages(kind, doc, qr=qr):3d})  "
                  f"CPU {cpu:5.2f} s = {cpu / pages * 1000:4.0f} ms a page  (wall {wall:5.2f} s)  → {where}")


if __name__ == "__main__":
    main()
