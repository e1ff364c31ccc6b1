"""The management commands' own output follows ``--lang`` (or LANG): create_arbiter,
seed_demo, simulate, serve, vp and import_registrations speak English under ``en``."""
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation


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
    out, _err = run("serve", "--host", "127.0.0.1", "--port", "8123", "--workers", "1", "--lang", "en")
    assert out.strip() == "Arbitro listening on http://127.0.0.1:8123/  (Ctrl+C to stop)"
    with pytest.raises(CommandError, match="--processes: at least 1"):
        run("serve", "--processes", "0", "--lang", "en")
    with translation.override("en"):
        lines = []
        monkeypatch.setattr(serve_command.time, "sleep", lambda s: None)

        class Exited:
            returncode = 3

            def __init__(self, command, env=None):
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


def test_management_command_lang_option(db):
    """vp20-4h: |1620 − 1115| = 505 MP → band 505–700 → 13–7 (rules.md §4)."""
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("vp", "--hands", "4", "1620", "1115", "--lang", "en", stdout=out)
    assert "difference 505 MP, band 505–700" in out.getvalue() and out.getvalue().splitlines()[-1] == "13 7"
    out = StringIO()
    call_command("vp", "--hands", "4", "1620", "1115", stdout=out)
    assert "differenza 505 MP, fascia 505–700" in out.getvalue()
    assert translation.get_language() == "it"   # the override ends with the command


def test_import_command_speaks_english(tournament, tmp_path):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="No file"):
        call_command("import_registrations", "prova", str(tmp_path / "manca.csv"), "--lang", "en")
