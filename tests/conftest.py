"""Fixtures shared by the Django tests."""
import datetime
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
TESTS = Path(__file__).parent

# Fixtures through which a test reaches the database (pytest-django's own, and the browser's
# live server, which needs the transactional database).
_DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
                      "live_server"}


# tests/documents/ checks the renderers: what a PDF or spreadsheet prints is a function of
# the document the reads build (``documents.round_document``, ``standings_document``), and
# those reads are checked on both engines by the page, selector and transfer tests (the
# round trip compares the documents of every round); rendering the same PDFs again on
# PostgreSQL doubled the time and checked nothing new. These files read more than the
# documents do (the federation's rows across clubs), so they run on both.
_DOCUMENTS_ON_BOTH_ENGINES = {"test_federation_results.py"}


def pytest_collection_modifyitems(config, items):
    """Markers by what a test needs, so that a run can pick (pytest.ini lists them):

    - ``e2e``: under tests/e2e (a real Chromium); also ``one_engine``;
    - ``one_engine``: what it checks does not depend on the database engine (a browser
      driving pages whose database work the other tests check on both engines, a
      CPU-bound simulation, the renderers of tests/documents/); the PostgreSQL run of
      ``make test`` leaves these out, the SQLite run has them;
    - ``pure``: touches no database (neither a ``django_db`` mark nor a database fixture);
      the PostgreSQL run of ``make test`` leaves these out, they would only run twice;
    - ``postgres``: skipped unless the database is PostgreSQL (the tests mark themselves with
      a ``skipif`` whose reason names PostgreSQL).
    """
    import pytest

    for item in items:
        path = Path(str(item.fspath))
        if TESTS / "e2e" in path.parents:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.one_engine)
        elif TESTS / "documents" in path.parents and path.name not in _DOCUMENTS_ON_BOTH_ENGINES:
            item.add_marker(pytest.mark.one_engine)
        if any("PostgreSQL" in str(m.kwargs.get("reason", "")) for m in item.iter_markers("skipif")):
            item.add_marker(pytest.mark.postgres)  # never pure: it may reach PostgreSQL by a subprocess
        elif item.get_closest_marker("django_db") is None and not _DATABASE_FIXTURES & set(item.fixturenames):
            item.add_marker(pytest.mark.pure)
    _long_files_first(items)


def _long_files_first(items) -> None:
    """Put the test files holding a browser or a slow test before the others, keeping the
    order inside each group. ``make test`` hands a file at a time to each of its two workers
    in this order (``--dist loadfile --no-loadscope-reorder``): with the long files first,
    the run ends on short ones and neither worker waits long for the other's last file
    (xdist's own order, the files with the most tests first, put the browser files last)."""
    long_files = {item.path for item in items if item.get_closest_marker("slow") or item.get_closest_marker("e2e")}
    items.sort(key=lambda item: item.path not in long_files)  # stable: collection order otherwise


@pytest.fixture(scope="session", autouse=True)
def _test_database_template(request):
    """pytest-django's test database (``django_db_setup``) built from the migrated template of
    an earlier run with the same migrations (tests/db_template.py): one migration run per
    change of the migration files instead of one per pytest process. The copy is active only
    while the database is set up: a test's own ``migrate`` (migration tests) is never
    diverted."""
    from tests.db_template import migrate_from_template

    if _needs_database(request.session.items):
        with migrate_from_template():
            request.getfixturevalue("django_db_setup")


def _needs_database(items) -> bool:
    return any(item.get_closest_marker("django_db") or _DATABASE_FIXTURES & set(item.fixturenames)
               for item in items)


@pytest.fixture(autouse=True)
def _italian_after_each_test():
    """A test that switches the UI to English (the language cookie, ``translation.activate``)
    must not leave the next test in this process speaking English."""
    yield
    from django.utils import translation

    translation.activate("it")


@pytest.fixture(autouse=True)
def _no_login_throttle(settings):
    """django-axes locks a username+IP after 5 failed logins (config/settings.py): tests that
    log in many times must not be locked out, so it is off except where a test turns it on
    (tests/tournaments/test_accounts.py)."""
    settings.AXES_ENABLED = False


@pytest.fixture(autouse=True)
def _one_rate_limit_window(monkeypatch):
    """django-ratelimit counts in fixed windows of the wall clock (one a minute, ending at a
    per-key second): a test that sends 31 requests across a window's end saw its count start
    again and got a 404 where it expected the 429. Its clock stands still during a test
    (servers started in a subprocess keep the real one)."""
    import time
    import types

    import django_ratelimit.core as ratelimit_core

    now = time.time()
    monkeypatch.setattr(ratelimit_core, "time", types.SimpleNamespace(time=lambda: now))


@pytest.fixture
def data_dir() -> Path:
    """Copies of shared/data (registrations, VP scales) kept with the tests."""
    return DATA


@pytest.fixture
def arbiter(db, django_user_model):
    return django_user_model.objects.create_user(username="arbitro", password="segreta-123")


@pytest.fixture
def arbiter_client(client, arbiter):
    client.force_login(arbiter)
    return client


@pytest.fixture
def tournament(db, arbiter):
    from tournaments import services

    return services.create_tournament(
        by=arbiter, name="Torneo di prova", slug="prova", date=datetime.date(2026, 11, 30), venue="Circolo"
    )


def fixture_players(k: int):
    """The two players of ``make_pairs``'s pair ``k``: Anna{k} Rossi{k} (A{k}), Bruno{k} Verdi{k} (B{k})."""
    from tournaments import services

    return [services.PlayerData(first_name=f"Anna{k}", last_name=f"Rossi{k}", membership_number=f"A{k}"),
            services.PlayerData(first_name=f"Bruno{k}", last_name=f"Verdi{k}", membership_number=f"B{k}")]


def add_pairs_one_by_one(tournament, n, by):
    """``make_pairs``'s pairs 1..n, each through ``services.add_pair`` (the arbiter's desk)."""
    from tournaments import services

    return [services.add_pair(tournament=tournament, by=by, players=fixture_players(k)) for k in range(1, n + 1)]


def add_pairs_at_once(tournament, n, by):
    """The rows :func:`add_pairs_one_by_one` writes — pairs, players, members, ``pair_added``
    audit entries, in the same order, so with the same ids — in one INSERT per table, or
    ``None`` (nothing written) when the tournament is not the plain case where the two are
    the same: no entrant and no round yet, none of the membership numbers in the registry,
    neither membership setting *refuse*, room under the registry's cap
    (tests/tournaments/test_make_pairs_rows.py compares them)."""
    from django.db import transaction

    from members import models as member_models
    from members.models import Member
    from tournaments.models import AuditAction, AuditEntry, Pair, Player, Tournament
    from tournaments.services.audit import audit_entry
    from tournaments.services.entrants import clean_player
    from tournaments.services.member_links import link

    data = [[clean_player(p) for p in fixture_players(k)] for k in range(1, n + 1)]
    numbers = [p.membership_number for two in data for p in two]
    refuse = Tournament.MembershipCheck.REFUSE
    if (refuse in (tournament.membership_check, tournament.missing_membership)
            or tournament.rounds.exists() or Player.objects.filter(tournament=tournament).exists()
            or tournament.pairs.exists() or Member.objects.filter(membership_number__in=numbers).exists()
            or Member.objects.count() + len(numbers) > member_models.MAX_MEMBERS):
        return None
    with transaction.atomic():
        pairs = Pair.objects.bulk_create([Pair(tournament=tournament, number=k, late_entry=False)
                                          for k in range(1, n + 1)])
        players = [Player(tournament=tournament, pair=pair, seat=seat, first_name=p.first_name,
                          last_name=p.last_name, membership_number=p.membership_number, club=p.club)
                   for pair, two in zip(pairs, data, strict=True) for seat, p in enumerate(two, start=1)]
        link(tournament, players, save=False)  # the new members, in the players' order
        Player.objects.bulk_create(players)
        AuditEntry.objects.bulk_create([
            audit_entry(tournament=tournament, by=by, action=AuditAction.PAIR_ADDED,
                        new={"number": pair.number, "players": [f"{p.last_name} {p.first_name}" for p in two]})
            for pair, two in zip(pairs, data, strict=True)])
    return pairs


@pytest.fixture
def make_pairs(arbiter):
    """make_pairs(tournament, n): n pairs numbered 1..n with players Anna{k} Rossi{k} (A{k}) and
    Bruno{k} Verdi{k} (B{k}), as ``services.add_pair`` writes them one by one (with its audit
    entries), written at once where that gives the same rows (:func:`add_pairs_at_once`): most
    database tests start here, and one by one cost about 4 ms a pair."""

    def make(tournament, n):
        return add_pairs_at_once(tournament, n, arbiter) or add_pairs_one_by_one(tournament, n, arbiter)

    return make


@pytest.fixture
def five(tournament, make_pairs):
    """A 5-pair tournament. Mitchell with 5 pairs (pairing-io.md): T = 3 tables, the phantom
    is N/S of table 3; N/S line 1, 2 at tables 1, 2; E/W line 3, 4, 5."""
    make_pairs(tournament, 5)
    return tournament


@pytest.fixture
def published(five, arbiter):
    """Round 1 (Mitchell, 4 hands) of ``five``, published: 1 v 3, 2 v 4, pair 5 rests."""
    from tournaments import services

    rnd = services.generate_round(tournament=five, by=arbiter)
    services.publish_round(round=rnd, by=arbiter)
    rnd.refresh_from_db()
    return rnd


@pytest.fixture(autouse=True)
def _exact_polls(settings):
    """The captains' polls are answered from a round's rows read up to a second ago
    (tournaments/captains/poll_rows.py): a test that changes a sheet and polls at once expects
    the change, so the rows are never kept here except where a test turns them on
    (tests/captain/test_poll_rows.py)."""
    from tournaments.captains import poll_rows

    settings.ARBITRO_POLL_ROWS_SECONDS = 0
    poll_rows.clear()
    yield
    poll_rows.clear()


@pytest.fixture(autouse=True)
def _print_pack_in_tmp(settings, tmp_path):
    """The round's print pack caches its PDFs and job files in a directory per
    test, renders inside the test (no background thread) and in this process (no workers)
    unless a test asks for them."""
    settings.ARBITRO_PRINT_CACHE_DIR = tmp_path / "print-cache"
    settings.ARBITRO_PRINT_BACKGROUND = False
    settings.ARBITRO_PRINT_WORKERS = 0


@pytest.fixture(autouse=True)
def _backups_in_tmp(settings, tmp_path_factory):
    """Closing a round writes backups: into a temporary folder, never into
    the repository's var/backups."""
    settings.ARBITRO_BACKUP_DIR = tmp_path_factory.mktemp("backups")


@pytest.fixture
def indiv(db, arbiter):
    """An individual tournament (slug ``indiv``, plan DDD, default hands and VP scale)."""
    from tournaments import services

    return services.create_tournament(
        by=arbiter, name="Individuale", slug="indiv", date=datetime.date(2026, 12, 1), kind="individual",
        plan="DDD",
    )


@pytest.fixture
def make_teams_tournament(db, arbiter):
    """make_teams_tournament(n, plan="RRRRR", **settings): a team tournament with n teams of four
    players (team k: surnames T{k}p1..T{k}p4), 4 hands, vp20-4h."""
    from tests.teams.helpers import players
    from tournaments import services

    def make(n, plan="RRRRR", sizes=None, **settings):
        t = services.create_tournament(by=arbiter, name="Squadre", slug=f"squadre-{n}-{plan.lower()}",
                                       date=datetime.date(2026, 12, 1), kind="teams", plan=plan,
                                       hands_per_round=4, vp_scale="vp20-4h", **settings)
        for k in range(1, n + 1):
            services.add_team(tournament=t, name=f"Squadra {k}", players=players(f"T{k}p", (sizes or {}).get(k, 4)),
                              by=arbiter)
        return t

    return make
