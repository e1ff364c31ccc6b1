"""Arbitro settings.

Everything that differs between a club laptop and a hosted server comes from the
environment:

- ``ARBITRO_SECRET_KEY``: required when ``ARBITRO_DEBUG`` is off and the server is
  reachable from other machines; on a laptop a key is generated once and kept in
  ``var/secret_key`` so sessions survive restarts.
- ``ARBITRO_DEBUG``: ``1`` for development; off by default.
- ``ARBITRO_ALLOWED_HOSTS``: comma-separated; default ``127.0.0.1,localhost`` plus
  the machine's LAN addresses are added with ``*`` only when explicitly asked.
- ``ARBITRO_HTTPS``: ``1`` behind HTTPS: secure cookies and HSTS (``ARBITRO_HSTS_SECONDS``,
  default one year; ``ARBITRO_HSTS_SUBDOMAINS=1`` to include subdomains, off by default).
- ``DATABASE_URL``: any database dj-database-url understands (PostgreSQL for hosted
  use); default SQLite in ``var/arbitro.sqlite3``.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("ARBITRO_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _secret_key() -> str:
    key = os.environ.get("ARBITRO_SECRET_KEY")
    if key:
        return key
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = _env_bool("ARBITRO_DEBUG", False)
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ARBITRO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("ARBITRO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "axes",
    "clubs",
    "members",
    "tournaments",
    "championships",
    "simultaneous",
    "money",

    "bookings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.ItalianFirstMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # last, as django-axes asks: turns a locked-out login into the lockout page
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubs.context.clubs",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'arbitro.sqlite3'}",
        conn_max_age=60,
        # a kept connection is checked before reuse: a restarted PostgreSQL server (hosted
        # setup) costs one reconnect instead of an error page
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets captains read while another captain writes; IMMEDIATE transactions
    # take the write lock up front so two saves queue instead of failing. The captains'
    # writes wait for that lock by quick retries (tournaments.services.retry_when_busy, issue
    # 10), not in SQLite's busy handler, whose sleeps grow to 100 ms; "timeout" (seconds) is
    # the busy handler of every other write and their last resort.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        # secure_delete: SQLite overwrites deleted and replaced content with zeros, so an erased
        # member's name and number do not stay in freed pages (docs/security.md); the WAL is
        # checkpointed after an erasure (tournaments.services.member_erasure).
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA secure_delete=ON;",
    }

# Login throttling (the server may face an open club network): django-axes counts failed
# logins in the database per
# username + IP address; after AXES_FAILURE_LIMIT failures that combination is locked out
# for AXES_COOLOFF_TIME hours (another user on the same club router is not locked), and a
# success resets the count. The lockout page is templates/registration/locked_out.html
# (status 429). Tests switch it off (tests/conftest.py) except the throttle test.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_ENABLED = _env_bool("ARBITRO_LOGIN_THROTTLE", True)
# Failed logins are counted in the database (shared by every server process), not in a cache.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours: 15 minutes (the lockout page says so)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# The address counted is the client's, never the reverse proxy's: waitress puts the client in
# REMOTE_ADDR for a request of ARBITRO_TRUSTED_PROXIES (manage.py serve), and client_ip reads
# X-Forwarded-For only from a trusted peer (for any other WSGI server). Counting the proxy's
# address let five wrong passwords from anywhere lock the arbiter's own browser out.
AXES_CLIENT_IP_CALLABLE = "tournaments.captains.devices.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "it"
LANGUAGES = [("it", _("Italiano")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("ARBITRO_TIME_ZONE", "Europe/Rome")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

CSRF_COOKIE_HTTPONLY = False
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"


def https_settings(enabled: bool, environ=os.environ) -> dict:
    """The settings that only make sense behind HTTPS (``ARBITRO_HTTPS``):
    secure cookies, the proxy's scheme header and HSTS (``SECURE_HSTS_SECONDS``, one year
    unless ``ARBITRO_HSTS_SECONDS``; subdomains only with ``ARBITRO_HSTS_SUBDOMAINS=1``).
    Without HTTPS: nothing (HSTS over plain HTTP on a club network would lock browsers out)."""
    if not enabled:
        return {}
    return {
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
        "SECURE_HSTS_SECONDS": int(environ.get("ARBITRO_HSTS_SECONDS", 365 * 24 * 3600)),
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": environ.get("ARBITRO_HSTS_SUBDOMAINS", "").strip().lower()
        in ("1", "true", "yes", "on"),
    }


globals().update(https_settings(_env_bool("ARBITRO_HTTPS", False)))

# Content-Security-Policy (django-csp, so injected markup cannot run a script): scripts
# only from our own static
# files (no inline <script> code, no on…= handlers: tests/captain/test_csp_pages.py checks every
# page), inline styles allowed, images from us or data: URIs (QR codes), no framing.
from csp.constants import NONE, SELF, UNSAFE_INLINE  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

# Caches, shared by every server process. "default" holds the captain pages' rate limits
# (django-ratelimit, tournaments/captains/access.py). With SQLite: in the workers of
# ``manage.py serve --workers`` (two by default on Linux; serve sets ARBITRO_SHARED_LIMITS for
# them) files under var/cache/limits whose counters increment under a file lock; in a single
# process (tests, ``--workers 1``) a local-memory cache. With any other database (PostgreSQL:
# a hosted server with several processes) a table of that database, shared by every process,
# whose counters increment atomically (tournaments/server/cache.py); ``manage.py createcachetable``
# makes it (``make setup`` and ``make serve-prod`` run it; the test runner does it itself).
# django_ratelimit is used as a library (not in INSTALLED_APPS), so its system check about
# LocMemCache does not run. "documents": files under var/cache/documents, shared by the
# processes of one machine, for generated documents (PDF/XLSX, print cache): ask for
# ``django.core.cache.caches["documents"]``. QR codes keep a per-process memo
# (tournaments/captains/links.py): they are a pure function of the link, so nothing to share.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    if os.environ.get("ARBITRO_SHARED_LIMITS") == "1":
        _DEFAULT_CACHE = {"BACKEND": "tournaments.server.cache.SharedFileCache", "LOCATION": str(VAR_DIR / "cache" / "limits"),
                          "OPTIONS": {"MAX_ENTRIES": 20000}}
    else:
        _DEFAULT_CACHE = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "arbitro"}
else:
    _DEFAULT_CACHE = {"BACKEND": "tournaments.server.cache.SharedDatabaseCache", "LOCATION": "arbitro_cache",
                      "OPTIONS": {"MAX_ENTRIES": 20000}}
CACHES = {
    "default": _DEFAULT_CACHE,
    "documents": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(VAR_DIR / "cache" / "documents"),
        "TIMEOUT": 24 * 3600,
        "OPTIONS": {"MAX_ENTRIES": 2000},
    },
}
RATELIMIT_USE_CACHE = "default"

# The addresses of the reverse proxies in front of the server
# (``ARBITRO_TRUSTED_PROXIES``, comma-separated, e.g. ``127.0.0.1``). Only a request whose
# direct peer is one of them has its ``X-Forwarded-For`` read (tournaments/captains/devices.py).
# Where closing a round writes the tournament's export (and, on SQLite, an
# online copy of the database); the newest 20 of each kind are kept (tournaments/transfer/backups.py).
ARBITRO_BACKUP_DIR = Path(os.environ.get("ARBITRO_BACKUP_DIR", VAR_DIR / "backups"))

# An upload bigger than 2.5 MB (a registration file, a tournament file, with the captains'
# links and PINs) is spooled to a temporary file: here, under var/ (private to the server),
# not in the machine's shared /tmp; ``manage.py serve`` deletes those a killed process left
# (older than serve.STALE_UPLOAD_SECONDS) when it starts.
FILE_UPLOAD_TEMP_DIR = str(VAR_DIR / "tmp" / "uploads")
Path(FILE_UPLOAD_TEMP_DIR).mkdir(parents=True, exist_ok=True, mode=0o700)

ARBITRO_TRUSTED_PROXIES = [
    a.strip() for a in os.environ.get("ARBITRO_TRUSTED_PROXIES", "").split(",") if a.strip()
]

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# The round's print pack (rules.md §10, tournaments/printing/pack.py): finished PDFs and their job
# status files live here, so every server process sees them and a restart keeps them.
ARBITRO_PRINT_CACHE_DIR = Path(os.environ.get("ARBITRO_PRINT_CACHE_DIR", VAR_DIR / "cache" / "print"))
# Worker processes rendering a pack when no round is in play (one while captains are
# entering sheets); empty = the cores, 0 = render inside the server process.
ARBITRO_PRINT_WORKERS = int(os.environ["ARBITRO_PRINT_WORKERS"]) if os.environ.get("ARBITRO_PRINT_WORKERS") else None
# Render in a background thread of the server (the page polls the progress); off in tests.
ARBITRO_PRINT_BACKGROUND = True
# Finished print packs kept per tournament: older ones are deleted when a new one is done.
ARBITRO_PRINT_KEEP = int(os.environ.get("ARBITRO_PRINT_KEEP") or 20)
# A single PDF (table list, score sheets, standings) bigger than this many score-sheet pages
# (a page of the table list or standings counts as 3) is not rendered inside the web request:
# a background print job renders it and a progress page offers the download (README,
# printing; bench/inline_pdf.py measured about 60 ms of CPU a score sheet: 40 ≈ 2.5 s).
ARBITRO_INLINE_PDF_PAGES = (int(os.environ["ARBITRO_INLINE_PDF_PAGES"]) if os.environ.get("ARBITRO_INLINE_PDF_PAGES")
                            else 40)  # 0: every single PDF in the background

# Lateness (*ritardo*, rules.md §22; docs/rules.md §22 gives the source): beyond 5 minutes a
# penalty of ARBITRO_LATE_PENALTY_MP MP; beyond 10 minutes the match is forfeited: the present
# line scores ARBITRO_LATE_FORFEIT_PERCENT % of the scale's maximum VP (…_4_HANDS % in rounds
# of four hands), the late line ARBITRO_LATE_VP VP.
ARBITRO_LATE_PENALTY_MP = 100
ARBITRO_LATE_FORFEIT_PERCENT = 70
ARBITRO_LATE_FORFEIT_PERCENT_4_HANDS = 60
ARBITRO_LATE_VP = 6

# Bookings (bookings/, rules.md §21): contact details (phone, e-mail) are erased this many days
# after the tournament's date by ``manage.py purge_contacts`` (also run when ``serve`` starts).
BOOKINGS_CONTACT_DAYS = int(os.environ.get("ARBITRO_BOOKINGS_CONTACT_DAYS", "30"))
# Public bookings per client address and per tournament (django-ratelimit rates, bookings/views.py).
BOOKINGS_RATE_ADDRESS = os.environ.get("ARBITRO_BOOKINGS_RATE_ADDRESS", "10/m")
BOOKINGS_RATE_TOURNAMENT = os.environ.get("ARBITRO_BOOKINGS_RATE_TOURNAMENT", "300/m")
# Optional e-mails to bookers (bookings/notices.py): off by default; SMTP from the environment.
BOOKINGS_EMAIL = os.environ.get("ARBITRO_BOOKINGS_EMAIL", "") in ("1", "true", "yes", "on")
EMAIL_HOST = os.environ.get("ARBITRO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("ARBITRO_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("ARBITRO_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("ARBITRO_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("ARBITRO_EMAIL_TLS", "") in ("1", "true", "yes", "on")
DEFAULT_FROM_EMAIL = os.environ.get("ARBITRO_EMAIL_FROM", "arbitro@localhost")
