"""Benchmark: the score sheets of a 60-table round as one PDF (issue 5 target).

Run: ``.venv/bin/python bench/printing.py [--pairs 120] [--repeat 3] [--seed 1]``.

Builds a throw-away SQLite database, imports ``pairs`` pairs and plays round 1 like a real
one (``generate_round`` → ``publish_round`` → every sheet saved through ``save_score_sheet``),
then times, best of ``--repeat``:

- **ours**: ``documents.round_document(round)`` (database reads + QR codes) +
  ``documents.scoresheets_pdf(doc)`` (template + WeasyPrint), i.e. what the view does;
- **WeasyPrint alone**: ``weasyprint.HTML(string=html).write_pdf()`` on the very same HTML.

Target: ours ≤ 1.5 × WeasyPrint alone. Also prints the table list and the standings for the
same round. Prints figures only, asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _ROOT / "bench"]
sys.path.insert(0, str(_ROOT))


def _setup_django(db_path: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _registrations(pairs: int, folder: Path) -> Path:
    """A registration CSV of ``pairs`` pairs with plausible Italian names."""
    last = ["Rossi", "Bianchi", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno",
            "Gallo", "Conti", "De Luca", "Mancini", "Costa", "Giordano", "Rizzo", "Lombardi", "Moretti"]
    first = ["Anna", "Marco", "Giulia", "Luca", "Sara", "Paolo", "Elena", "Giorgio", "Chiara", "Franco"]
    lines = ["coppia,cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2,circolo"]
    for k in range(1, pairs + 1):
        lines.append(f"{k},{last[k % len(last)]},{first[k % len(first)]},{100000 + 2 * k},"
                     f"{last[(3 * k + 5) % len(last)]},{first[(7 * k + 1) % len(first)]},{100001 + 2 * k},"
                     "Circolo del Ponte")
    path = folder / f"registrations-{pairs}.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def best(fn, repeat: int) -> tuple[float, float]:
    """(best wall-clock seconds, best CPU seconds of this process) over ``repeat`` runs.

    CPU time is the fairer figure on a shared machine; WeasyPrint is single-threaded."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def line(label: str, figures: tuple[float, float], extra: str = "") -> None:
    print(f"  {label:<34} {figures[0]:7.3f} s wall {figures[1]:7.3f} s cpu {extra}")


def cold(fn):
    """``fn`` with the QR-code cache emptied first, so every run draws every code again."""
    from tournaments import links

    def run():
        links.qr_svg.cache_clear()
        return fn()

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=120)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        _setup_django(tmp / "bench.sqlite3")
        import weasyprint

        from tournaments import documents, simulation
        from tournaments.models import Round

        started = time.perf_counter()
        tournament = simulation.simulate(registrations=_registrations(args.pairs, tmp), plan="MMMD", hands=4,
                                         seed=args.seed, stop_after=1, name="Banco di prova")
        rnd = Round.objects.get(tournament=tournament, number=1)
        tables = rnd.tables.filter(bye="").count()
        print(f"{args.pairs} pairs, round 1 played through the services in {time.perf_counter() - started:.2f} s; "
              f"{tables} score sheets")

        doc = documents.round_document(rnd)
        html = documents.scoresheets_html(doc)
        pdf = documents.scoresheets_pdf(doc)  # warm-up: fonts, template cache

        t_build = best(cold(lambda: documents.round_document(rnd)), args.repeat)
        t_html = best(lambda: documents.scoresheets_html(doc), args.repeat)
        t_ours = best(cold(lambda: documents.scoresheets_pdf(documents.round_document(rnd))), args.repeat)
        t_warm = best(lambda: documents.scoresheets_pdf(documents.round_document(rnd)), args.repeat)
        t_weasy = best(lambda: weasyprint.HTML(string=html).write_pdf(), args.repeat)
        print(f"score sheets PDF ({len(pdf) // 1024} KiB), best of {args.repeat}:")
        line("database reads + QR codes", t_build)
        line("template to HTML", t_html)
        line("ours, end to end (QR drawn)", t_ours, f"({t_ours[1] / tables * 1000:.0f} ms cpu a sheet)")
        line("ours, reprint (QR cached)", t_warm)
        line("WeasyPrint alone, same HTML", t_weasy)
        print(f"  ratio ours / WeasyPrint: wall {t_ours[0] / t_weasy[0]:.2f}, cpu {t_ours[1] / t_weasy[1]:.2f}"
              "   (target ≤ 1.5)")

        tl_html = documents.tablelist_html(doc)
        t_tl = best(cold(lambda: documents.tablelist_pdf(documents.round_document(rnd))), args.repeat)
        t_tl_w = best(lambda: weasyprint.HTML(string=tl_html).write_pdf(), args.repeat)
        print("table list PDF:")
        line("ours, end to end (QR drawn)", t_tl)
        line("WeasyPrint alone, same HTML", t_tl_w)
        print(f"  ratio: wall {t_tl[0] / t_tl_w[0]:.2f}, cpu {t_tl[1] / t_tl_w[1]:.2f}")

        st_doc = documents.standings_document(tournament)
        st_html = documents.standings_html(st_doc)
        t_st = best(lambda: documents.standings_pdf(documents.standings_document(tournament)), args.repeat)
        t_st_w = best(lambda: weasyprint.HTML(string=st_html).write_pdf(), args.repeat)
        print(f"standings PDF ({len(st_doc.rows)} pairs):")
        line("ours, end to end", t_st)
        line("WeasyPrint alone, same HTML", t_st_w)
        print(f"  ratio: wall {t_st[0] / t_st_w[0]:.2f}, cpu {t_st[1] / t_st_w[1]:.2f}")


if __name__ == "__main__":
    main()
