"""Helpers shared by the transfer tests: a database snapshot compared before and after a round trip, the import lock's wait."""
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from tournaments import pages, selectors
from tournaments.models import AuditEntry, Round, Table, Tournament
from tournaments.printing import documents, stamp

ROOT = Path(__file__).resolve().parents[2]


def assert_saves_wait_at_most_a_second(script: str, summary: str) -> None:
    """Run ``bench/<script> --pairs 2000`` (an import while captains of another tournament save)
    and check its last line, matched by the regex ``summary`` (groups: pairs, saves, worst ms):
    2000 pairs, some saves, none refused, the worst save ≤ 1 s in the better of two runs.

    A latency bound means nothing on a machine running several times more work than it has
    cores (seen: load 15 on 2 cores, where the same run took 1.4 s once and 23 s the next): the
    test is skipped there. The better of two runs: one run's worst save is one moment of the
    scheduler (the suite's other worker shares the 2 cores); nothing may be refused in either."""
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    if load > 2:
        pytest.skip(f"machine overloaded (load {load:.1f} per core): latency not measurable")
    outputs = []
    for _attempt in range(2):
        run = subprocess.run([sys.executable, str(ROOT / "bench" / script), "--pairs", "2000"],
                             capture_output=True, text=True, timeout=600, cwd=ROOT)
        assert run.returncode == 0, run.stderr[-2000:]
        last = run.stdout.strip().splitlines()[-1]
        found = re.match(summary, last)
        assert found, last
        pairs, saves, worst = map(int, found.groups())
        assert pairs == 2000 and saves > 0
        assert "refused: 0 " in run.stdout
        outputs.append(run.stdout)
        if worst <= 1000:
            break
    assert worst <= 1000, "\n".join(outputs)


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def snapshot(tournament, *, pdf=True):
    """What the arbiter sees of a tournament: standings after each round, what every PDF
    prints (the documents' contents for every round; with ``pdf``, the text of the standings
    PDF and of the last round's PDFs: rendering all of them takes over a minute here), the
    audit trail (without the import's own entry), the captain links."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    closed = list(tournament.rounds.filter(state=Round.State.CLOSED).order_by("number"))
    standings = {
        r.number: [(row.position, row.pair, str(row.vp), row.mp_difference)
                   for row in selectors.standings_after(tournament, r.number).rows]
        for r in closed
    }
    standings_doc = documents.standings_document(tournament)
    pdfs = {"standings-document": repr(standings_doc)}
    for rnd in closed:
        pdfs[f"round-document-{rnd.number}"] = repr(documents.round_document(rnd))
    if pdf:
        pdfs["standings.pdf"] = pdf_text(documents.standings_pdf(standings_doc))
        doc = documents.round_document(closed[-1])
        # stamped, as the print pack prints them (tests/documents/test_sheet_stamp.py: the same text)
        pdfs["scoresheets.pdf"] = pdf_text(stamp.render_sheets(documents.scoresheets_html(doc)))
        pdfs["tablelist.pdf"] = pdf_text(documents.tablelist_pdf(doc))
    trail = [(e.at, e.actor, e.action, e.old, e.new, e.reason, e.round_number, e.table_number)
             for e in AuditEntry.objects.filter(tournament=tournament).exclude(action="tournament_imported")
             .order_by("at", "id")]
    links = sorted(Table.objects.filter(round__tournament=tournament)
                   .values_list("round__number", "number", "token", "pin"))
    return standings, pdfs, trail, links


def groups_snapshot(tournament):
    return [(g.group, [(r.position, r.pair, str(r.vp), r.mp_difference) for r in g.rows])
            for g in pages.groups.standings_by_group(tournament)]
