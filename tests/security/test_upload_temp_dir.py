"""An upload's temporary file (a tournament file with its captains' links and PINs) is written
under var/, not the shared /tmp, and the files a killed import left are cleared when the
server starts (``manage.py serve``)."""
import os
import time
from pathlib import Path

from django.conf import settings
from django.core.files.uploadedfile import TemporaryUploadedFile

from tournaments.management.commands.serve import STALE_UPLOAD_SECONDS, clear_stale_uploads


def test_uploads_spool_under_var():
    assert Path(settings.FILE_UPLOAD_TEMP_DIR).is_relative_to(settings.VAR_DIR)
    upload = TemporaryUploadedFile("torneo.json", "application/json", 10, "utf-8")
    try:
        assert Path(upload.temporary_file_path()).parent == Path(settings.FILE_UPLOAD_TEMP_DIR)
    finally:
        upload.close()


def test_stale_upload_files_are_cleared_and_fresh_ones_kept(tmp_path):
    old, fresh = tmp_path / "tmpold.upload.json", tmp_path / "tmpnew.upload.json"
    old.write_text("{}")
    fresh.write_text("{}")
    long_ago = time.time() - STALE_UPLOAD_SECONDS - 5
    os.utime(old, (long_ago, long_ago))
    assert clear_stale_uploads(tmp_path) == 1
    assert not old.exists() and fresh.exists()


def test_serve_clears_them_before_listening(monkeypatch, settings, tmp_path):
    from django.core.management import call_command

    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    stale = tmp_path / "tmpx.upload.xlsx"
    stale.write_text("x")
    os.utime(stale, (0, 0))
    import waitress

    monkeypatch.setattr(waitress, "serve", lambda app, **options: None)
    call_command("serve", "--port", "0", "--workers", "1")
    assert not stale.exists()
