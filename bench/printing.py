"""Benchmark: the print pack of a 250-table round (rules.md §10).

Run: ``.venv/bin/python bench/printing.py [--pairs 500] [--repeat 1] [--seed 1]``
(``--pairs 40`` for a quick look).

Builds a throw-away SQLite database, imports ``pairs`` pairs and plays round 1 like a real
one (``simulation.simulate``: ``generate_round`` → ``publish_round`` → every sheet saved
through ``save_score_sheet`` → closed), then prints:

- **WeasyPrint bare**: ``weasyprint.HTML(string=html).write_pdf()`` of the very same HTML the
  pack renders (table list, every score sheet, standings), one after the other in this
  process: what a single request used to cost;
- **pack, cold**: ``printpack.prepare`` + ``printpack.start`` with nothing cached, rendered
  by worker processes and joined with pypdf, (a) as for a closed round (up to the cores) and
  (b) as while the round is in play (ONE worker at niceness 10, the captains' saves first);
- **pack, cached**: the same click once the PDF exists (key computed, file found);
- **first byte**: the arbiter's POST that starts the job (Django test client, background
  thread as in the server) until its answer, then until the status says done;
- the A5 option (two sheets an A4 page): pages and time.

Targets (docs/speed.md): the pack of a closed round ≤ 0.12 of the bare render of the same run
(≤ 3 s where that takes 25 s), the round in play ≤ 5 s on a quiet machine. The A4 score
sheets are stamped on one rendered form a shape, the table list's pages and the standings a
row at a time, every value shaped by Pango (``tournaments.printing.stamp``); the click's
``prepare`` starts the workers' forkserver (``pack.warm_up``), so the packs below find it
running; the first click after a server starts overlaps its WeasyPrint import with the
database reads and the HTML, and may still wait for the rest of it (not measured here).
Prints figures only, asserts nothing. The machine's
cores are shared with whatever else runs, so beside every wall time it prints the CPU
seconds (user + system) the work took and the load average, and for each pack a
**quiet-machine estimate**: (CPU of the parts + the server's CPU writing their HTML and
joining the parts that are ready while the others render) / the workers, plus the rest of
the join, which runs alone at the end. The parts' CPU comes from the workers
themselves (``printing.worker.render_timed``, in the pack's final status): they are children
of the ``forkserver``, not of this process, so ``RUSAGE_CHILDREN`` cannot see them.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _ROOT / "bench"]
sys.path.insert(0, str(_ROOT))


def _setup_django(folder: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ["ARBITRO_PRINT_CACHE_DIR"] = str(folder / "print")
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


def timed(fn):
    """(result, wall seconds) of ``fn()``."""
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def cpu_timed(fn):
    """(result, wall seconds, CPU seconds of this process: user + system) of ``fn()``."""
    import resource

    def cpu():
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    start_cpu, start = cpu(), time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start, cpu() - start_cpu


def load_now() -> str:
    """The 1-minute load average: how many processes wanted the 2 cores meanwhile."""
    return f"load {os.getloadavg()[0]:.1f}"


def costs(state: dict, cores: int) -> str:
    """One line from a finished pack's status (``printpack._costs``): CPU by part kind, the
    server's CPU, and the quiet-machine estimate (see the module docstring)."""
    parts, kinds = state.get("cpu_parts", []), state.get("part_kinds", [])
    by_kind: dict[str, float] = {}
    for kind, cpu in zip(kinds, parts, strict=False):
        by_kind[kind] = by_kind.get(kind, 0.0) + cpu
    sheets = max(state.get("sheets", 0), 1)
    workers = max(min(state.get("workers", 1), cores), 1)
    # the parts joined while the workers rendered others share the cores with them
    spread = (sum(parts) + state.get("cpu_html", 0) + state.get("cpu_join_early", 0)) / workers
    estimate = max(spread, max(parts, default=0)) + state.get("cpu_join", 0)
    return (f"      CPU: parts {sum(parts):5.2f} s (table list {by_kind.get('tablelist', 0):.2f}, "
            f"{len(kinds) - 2} sheet parts {by_kind.get('sheets', 0):.2f} = "
            f"{by_kind.get('sheets', 0) / sheets * 1000:.0f} ms a sheet, standings {by_kind.get('standings', 0):.2f}; "
            f"longest part {max(parts, default=0):.2f}), server HTML+QR {state.get('cpu_html', 0):.2f}, "
            f"join {state.get('cpu_join_early', 0):.2f} while rendering + {state.get('cpu_join', 0):.2f} at the end\n"
            f"      quiet-machine estimate with {workers} worker(s): {estimate:5.2f} s")


def _fresh(pack, tag: str):
    """``pack`` under another key (same content), so it renders cold again."""
    from tournaments.printing import pack as printpack

    key = pack.key[:-len(tag)] + tag
    for suffix in (".pdf", ".json"):
        (printpack.cache_dir() / f"{key}{suffix}").unlink(missing_ok=True)
    return key


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None,
                        help="a folder: keep the closed round's pack there (pack-closed.pdf), to look at it")
    args = parser.parse_args()

    cores = os.cpu_count()
    load = os.getloadavg()
    print(f"{cores} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} "
          "(shared machine: other work running makes every figure below slower and noisy)", flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        _setup_django(tmp)
        import weasyprint
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.urls import reverse

        from tournaments.captains import links
        from tournaments.demo import simulation
        from tournaments.models import Round
        from tournaments.printing import documents
        from tournaments.printing import pack as printpack

        started = time.perf_counter()
        tournament = simulation.simulate(registrations=_registrations(args.pairs, tmp), plan="MMMD", hands=4,
                                         seed=args.seed, stop_after=1, name="Banco di prova")
        rnd = Round.objects.get(tournament=tournament, number=1)
        tables = rnd.tables.filter(bye="").count()
        print(f"{args.pairs} pairs, round 1 played through the services in {time.perf_counter() - started:.1f} s; "
              f"{tables} score sheets")

        settings.ARBITRO_PRINT_BACKGROUND = False
        pack, t_prepare = timed(lambda: printpack.prepare(rnd))
        doc = printpack._with_qr(pack.round_doc)
        htmls = [documents.tablelist_html(doc), documents.scoresheets_html(doc),
                 documents.standings_html(pack.standings_doc)]
        weasyprint.HTML(string="<p>warm-up</p>").write_pdf()
        bare, bare_cpu = [], []
        for html in htmls:
            runs = [cpu_timed(lambda html=html: weasyprint.HTML(string=html).write_pdf())[1:] for _ in range(args.repeat)]
            bare.append(min(r[0] for r in runs))
            bare_cpu.append(min(r[1] for r in runs))
        print(f"WeasyPrint bare, the same HTML in one process (wall / CPU, {load_now()}):")
        print(f"  table list {bare[0]:6.2f} / {bare_cpu[0]:5.2f} s   score sheets {bare[1]:6.2f} / {bare_cpu[1]:5.2f} s "
              f"({bare_cpu[1] / max(tables, 1) * 1000:.0f} ms CPU a sheet)   standings {bare[2]:6.2f} / {bare_cpu[2]:5.2f} s   "
              f"total {sum(bare):6.2f} / {sum(bare_cpu):5.2f} s")

        print(f"pack (table list + {tables} sheets + standings), cold:")
        print(f"  prepare (database reads + key)   {t_prepare:6.2f} s")
        links.qr_png_uri.cache_clear()
        state, t_cold = timed(lambda: printpack.start(pack))
        print(f"  closed round, {printpack.workers_for(pack)} workers        {t_cold:6.2f} s   "
              f"{state.get('pages')} pages, {printpack.pdf_path(pack.key).stat().st_size // 1024} KiB   "
              f"({load_now()})")
        print(f"  closed round / WeasyPrint bare total: {t_cold / sum(bare):.2f} "
              f"(target ≤ 0.12, i.e. ≤ 3 s where the bare render takes 25 s)")
        print(costs(state, cores))
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            (args.keep / "pack-closed.pdf").write_bytes(printpack.pdf_path(pack.key).read_bytes())
        in_play = dataclasses.replace(pack, in_play=True, key=_fresh(pack, "0" * 6))
        links.qr_png_uri.cache_clear()
        play_state, t_play = timed(lambda: printpack.start(in_play))
        print(f"  round in play, 1 worker (nice 10) {t_play:6.2f} s   ({load_now()}; "
              f"{t_play / sum(bare):.2f} of the bare render, target ≤ 5 s on a quiet machine)")
        print(costs(play_state, cores))
        _state, t_cached = timed(lambda: printpack.start(printpack.prepare(rnd)))
        print(f"  cached: same click, nothing changed {t_cached:6.2f} s (key computed, file found)")

        a5 = printpack.prepare(rnd, a5=True)
        a5_state, t_a5 = timed(lambda: printpack.start(a5))
        print(f"  A5 two to a page, cold             {t_a5:6.2f} s   {a5_state.get('pages')} pages "
              f"(A4: {state.get('pages')}; {load_now()})")
        print(costs(a5_state, cores))

        settings.ARBITRO_PRINT_BACKGROUND = True
        user = get_user_model().objects.create_superuser("bench", "bench@example.org", "bench-pass-1")
        client = Client()
        client.force_login(user)
        for suffix in (".pdf", ".json"):
            (printpack.cache_dir() / f"{pack.key}{suffix}").unlink(missing_ok=True)
        url = reverse("print_pack_start", args=[tournament.slug, 1])
        response, t_first = timed(lambda: client.post(url))
        key = response["Location"].rstrip("/").split("/")[-1]
        print("the arbiter's click (POST through Django, job in a background thread):")
        print(f"  first byte (redirect to the progress page) {t_first:6.2f} s", flush=True)
        began = time.perf_counter()
        while (printpack.status(key) or {}).get("state") == "running":
            time.sleep(0.1)
        t_done = t_first + time.perf_counter() - began
        print(f"  PDF ready                                  {t_done:6.2f} s   "
              f"({printpack.status(key).get('state')})")


if __name__ == "__main__":
    main()
