"""``bench/season.py`` kept from rotting (the season's "Done when" asks its figures): its
championship part on a small season (2 evenings × 6 pairs, 20 members) in the test database
prints the three timed reads' lines, the target's verdicts and the memory line. The member search it runs afterwards
(``bench/member_search.py``, a process of its own) is not run here."""
import argparse

from bench import season


def test_the_championship_bench_prints_its_figures_and_memory(db, capsys):
    season.bench_championship(argparse.Namespace(evenings=2, pairs=6, members=20, rounds=2, repeat=1, seed=7))
    out = capsys.readouterr().out
    assert "championship: " in out and " ranked over 2 evenings" in out
    for line in ("  first read (no placings stored: every evening's standings computed and stored): best ",
                 "  cold (placings read from the database, a new connection, nothing in the process): best ",
                 "  after a correction of one evening (that one computed again and stored): best ",
                 "target ≤ 200 ms (cold, best): ", "target ≤ 200 ms (after a correction, best): ",
                 "memory: one first read (every evening computed) peaks at "):
        assert line in out, line
    assert "MiB of Python objects; the process's peak resident size is " in out
