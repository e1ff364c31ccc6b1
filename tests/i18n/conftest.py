"""Fixtures of the English-UI tests: the compiled catalogue and an English-speaking client.

``make test`` runs ``compilemessages`` before pytest, but a bare ``pytest`` run may find no
``locale/en/LC_MESSAGES/django.mo`` (``*.mo`` is git-ignored), or an older one than the
``.po``: compile it once per session then, and drop Django's cached catalogues.
"""
import gettext
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES"


@pytest.fixture(scope="session", autouse=True)
def english_catalogue():
    """Path of the compiled English catalogue, (re)built from the .po if missing or stale."""
    po, mo = LOCALE / "django.po", LOCALE / "django.mo"
    if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
        from django.core.management import call_command
        from django.test.signals import language_changed

        call_command("compilemessages", locale=["en"], ignore_patterns=[".venv", "var"], verbosity=0)
        # A catalogue loaded earlier in this process would hide the new .mo: drop the
        # cached ones, as Django does when a test overrides LOCALE_PATHS.
        language_changed(setting="LOCALE_PATHS")
    return mo


@pytest.fixture
def italian_to_english(english_catalogue):
    """{Italian msgid: English msgstr} of the plain messages (no placeholders) whose
    translation differs from the source, read from the compiled catalogue."""
    with open(english_catalogue, "rb") as fh:
        catalog = gettext.GNUTranslations(fh)._catalog
    return {k: v for k, v in catalog.items()
            if isinstance(k, str) and k and v != k and "%" not in k and "{" not in k}


@pytest.fixture
def english(client):
    """The test client with the language cookie set to English (what set_language does)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client
