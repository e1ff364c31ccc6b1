"""Issue 14 item 8, the rest: every pairing-checker message and the own output of the
management commands seed_demo, serve, simulate and create_arbiter follow the reader's
language."""
from django.utils import translation

from pairing.check import check
from pairing.messages import TEMPLATES as PAIRING_TEMPLATES
from tournaments.i18n_messages import TEMPLATES, stored, stored_text
from tournaments.models import Round

INDIVIDUAL = {"system": "danish-individual", "ranking": [1, 2, 3, 4, 5, 6, 7, 8, 9],
              "partners": [[1, 2], [3, 4]], "rested": [9]}


def test_the_gettext_patterns_are_the_checker_patterns():
    for code, template in PAIRING_TEMPLATES.items():
        assert TEMPLATES.get(code) == template, code


def test_an_individual_check_report_reads_english_to_an_english_reader():
    # 1+4 while 1+3 was possible; 9 rests again while 8 has not rested (rules.md §9)
    response = {"tables": [{"table": 1, "ns": [1, 4], "ew": [2, 3]}, {"table": 2, "ns": [5, 6], "ew": [7, 8]}],
                "rest": [9], "repeated_partners": [], "warnings": []}
    report = [stored(m) for m in check(INDIVIDUAL, response)]
    assert all(isinstance(item, dict) and item["code"].startswith("check.") for item in report)
    with translation.override("en"):
        assert Round(check_report=report).check_messages == [
            "avoidable second rest: 9 has already rested, 8 has not",
            "rest: it belongs to 8 (the lowest ranked who have not rested)"]
    with translation.override("it"):
        assert stored_text(report[0]) == "secondo riposo evitabile: 9 ha già riposato, 8 no"


def test_a_pairs_check_report_shape_error_reads_english():
    report = [stored(m) for m in check({"system": "danish", "ranking": [1, 2, 3, 4]},
                                       {"tables": [{"table": 1, "ns": 1, "ew": 1}], "bye": None})]
    with translation.override("en"):
        texts = [stored_text(item) for item in report]
    assert "table 1: pair 1 plays against itself" in texts
    assert "pair 3 is missing (neither at a table nor resting)" in texts


def test_a_mitchell_table_that_is_not_the_movement_names_the_lines_in_english():
    """Round 1 of a 4-pair Mitchell (step 1): 1 v 3 at table 1, 2 v 4 at table 2 (pairing-io.md);
    a response swapping the E/W pairs is reported with the lines named in the reader's words."""
    request = {"system": "mitchell", "pairs": [1, 2, 3, 4], "round": 1}
    swapped = {"tables": [{"table": 1, "ns": 1, "ew": 4}, {"table": 2, "ns": 2, "ew": 3}], "bye": None}
    report = [stored(m) for m in check(request, swapped)]
    with translation.override("en"):
        texts = [stored_text(item) for item in report]
    assert "Mitchell: at table 1 the movement gives N/S 1, E/W 3, not N/S 1, E/W 4" in texts
    with translation.override("it"):
        assert "Mitchell: al tavolo 1 il movimento prevede N/S 1, E/O 3, non N/S 1, E/O 4" in \
            [stored_text(item) for item in report]


# --------------------------------------------------------------------------- the commands' own output

import io  # noqa: E402

import pytest  # noqa: E402
from django.core.management import CommandError, call_command  # noqa: E402


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_create_arbiter_speaks_english_under_lang_en(db):
    out, _err = run("create_arbiter", "giulia", "--lang", "en")
    assert "Arbiter created  →  username: giulia   password: " in out
    assert "Write it down now: it will not be shown again." in out
    with pytest.raises(CommandError, match="The user «giulia» already exists"):
        run("create_arbiter", "giulia", "--lang", "en")
    out, _err = run("create_arbiter", "marco", "--password", "lunga-abbastanza")   # the site's language
    assert "Arbitro creato  →  utente: marco" in out
    assert translation.get_language() == "it"


def test_seed_demo_speaks_english_under_lang_en(db, monkeypatch):
    from tournaments.management.commands import seed_demo

    monkeypatch.setattr(seed_demo.Command, "_create_demo", lambda self, user: None)
    monkeypatch.delenv("ARBITRO_DEMO_PASSWORD", raising=False)
    monkeypatch.delenv("ARBITRO_DEMO_USER", raising=False)
    out, _err = run("seed_demo", "--url", "http://0.0.0.0:8000/", "--lang", "en")
    assert "Demo arbiter  →  username: arbitro   password: " in out
    assert "Write the password down now: it will not be printed again" in out
    out, _err = run("seed_demo", "--url", "http://0.0.0.0:8000/", "--lang", "en")
    assert "password: unchanged, the one printed the first time" in out


def test_simulate_speaks_english_under_lang_en(db, data_dir, tmp_path):
    out, _err = run("simulate", "--registrations", str(data_dir / "registrations-9.csv"), "--plan", "MM",
                    "--stop-after", "1", "--slug", "sim", "--out", str(tmp_path), "--lang", "en")
    assert "Tournament «Torneo simulato» (sim): 9 pairs, 1 rounds played in " in out
    assert f"files in {tmp_path}" in out
    with pytest.raises(CommandError, match="does not exist"):
        run("simulate", "--registrations", str(tmp_path / "nessuno.csv"), "--out", str(tmp_path), "--lang", "en")


def test_serve_speaks_english_under_lang_en(monkeypatch):
    import waitress

    from tournaments.management.commands import serve as serve_command

    monkeypatch.setattr(waitress, "serve", lambda app, **kw: None)
    monkeypatch.setattr(serve_command, "raise_open_files_limit", lambda wanted: wanted)
    out, _err = run("serve", "--host", "127.0.0.1", "--port", "8123", "--lang", "en")
    assert out.strip() == "Arbitro listening on http://127.0.0.1:8123/  (Ctrl+C to stop)"
    with pytest.raises(CommandError, match="--processes: at least 1"):
        run("serve", "--processes", "0", "--lang", "en")
    with translation.override("en"):
        lines = []
        monkeypatch.setattr(serve_command.time, "sleep", lambda s: None)

        class Exited:
            returncode = 3

            def __init__(self, command):
                pass

            def poll(self):
                return 3

            def wait(self, timeout=None):
                return 3

        calls = iter([None, KeyboardInterrupt])

        def out(line):
            lines.append(line)
            if next(calls) is KeyboardInterrupt:
                raise KeyboardInterrupt

        monkeypatch.setattr(serve_command.subprocess, "Popen", Exited)
        serve_command.run_workers([["x", "serve", "--port", "8001"]], out=out)
    assert lines[0] == "process 1 (port 8001) exited with code 3: restarting it"
