"""Accounts: no known password on an open network; tournaments belong to their arbiters.

- ownership: ``Tournament.arbiters`` (creator + co-directors), another arbiter gets 404 on
  every page and download of the tournament, superusers see all, the list shows one's own;
- co-directors added by username on the tournament's «Arbitri» page (audited);
- custom VP scales: everyone reads them, only staff create and delete them;
- login throttled by django-axes: 5 failures per username + IP → locked 15 minutes;
- ``seed_demo``: the fixed demo password only on loopback, otherwise a random one printed once;
- ``create_arbiter`` and ``simulate --owner``.
"""
import datetime
import importlib
import io
import re
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from scoring import vp as vp_rules
from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.management.commands import seed_demo
from tournaments.models import AuditEntry, CustomScale, Round, Tournament

# ---------------------------------------------------------------------------- fixtures


@pytest.fixture
def other(db, django_user_model):
    """A second arbiter who does not direct the ``prova`` tournament."""
    return django_user_model.objects.create_user(username="altro", password="segreta-456")


@pytest.fixture
def other_client(client, other):
    client.force_login(other)
    return client


@pytest.fixture
def boss(db, django_user_model):
    return django_user_model.objects.create_superuser(username="capo", password="segreta-789", email="")


# Every arbiter page and download of round 1 (published: tables 1, 2) of «prova».
PAGES = [
    ("tournament", []), ("tournament_edit", []), ("pairs", []), ("pair_edit", [1]), ("import", []),
    ("rounds", []), ("round", [1]), ("sheet", [1, 1]), ("sheet_corrections", [1, 1]),
    ("standings", []), ("penalties", []), ("audit", []), ("board", [1]), ("board_rows", [1]),
    ("captain_links", [1]), ("public_switches", []), ("tournament_arbiters", []),
    ("hand_calculator", []), ("pair_withdraw", []), ("late_pair", []),
    ("tablelist_pdf", [1]), ("scoresheets_pdf", [1]), ("scoresheets_xlsx", [1]),
    ("standings_pdf", []), ("standings_xlsx", []),
]
HTML_PAGES = [p for p in PAGES if not p[0].endswith(("_pdf", "_xlsx"))]


def url(name, args):
    return reverse(name, args=["prova", *args])


# ---------------------------------------------------------------------------- ownership


def test_creator_becomes_the_tournaments_arbiter(tournament, arbiter):
    assert list(tournament.arbiters.all()) == [arbiter]


@pytest.mark.parametrize("name, args", PAGES)
def test_another_arbiter_gets_404_on_every_page_and_download(published, other_client, name, args):
    assert other_client.get(url(name, args)).status_code == 404


def test_another_arbiter_cannot_write_either(published, other_client, other):
    """POSTs on another's tournament are 404 and change nothing (validate, close, add arbiter)."""
    before = AuditEntry.objects.count()
    assert other_client.post(url("board_validate", [1, 1])).status_code == 404
    assert other_client.post(url("round_close", [1])).status_code == 404
    assert other_client.post(url("tournament_arbiters", []), {"username": "altro"}).status_code == 404
    assert AuditEntry.objects.count() == before
    published.refresh_from_db()
    assert published.state == Round.State.PUBLISHED
    assert not published.tournament.arbiters.filter(pk=other.pk).exists()


@pytest.mark.parametrize("name, args", HTML_PAGES)
def test_the_owner_opens_every_page(published, arbiter_client, name, args):
    """The 404s above come from ownership, not from missing data: the owner gets the page
    (or, for «turni», the redirect to the current round)."""
    assert arbiter_client.get(url(name, args)).status_code == (302 if name == "rounds" else 200)


@pytest.mark.parametrize("name, args", [("tournament", []), ("round", [1]), ("sheet", [1, 1]),
                                        ("standings", []), ("audit", []), ("board", [1]),
                                        ("standings_xlsx", []), ("tablelist_pdf", [1])])
def test_a_superuser_sees_every_tournament(published, client, boss, name, args):
    client.force_login(boss)
    assert client.get(url(name, args)).status_code == 200


def test_the_list_shows_only_ones_own_tournaments(tournament, other, client, boss):
    services.create_tournament(by=other, name="Torneo di Altro", slug="altro", date=datetime.date(2026, 12, 1))
    client.force_login(other)
    html = client.get(reverse("home")).content.decode()
    assert "Torneo di Altro" in html and "Torneo di prova" not in html
    client.force_login(boss)
    html = client.get(reverse("home")).content.decode()
    assert "Torneo di Altro" in html and "Torneo di prova" in html


def test_tournament_made_on_the_page_belongs_to_its_maker(other_client, other):
    resp = other_client.post(reverse("tournament_create"), {
        "name": "Nuovo", "slug": "nuovo", "date": "2026-12-02", "venue": "", "kind": "pairs",
        "hands_per_round": 4, "vp_scale": "vp20-4h", "plan": "MMMD", "mitchell_step": 1,
        "rematch_window": "all", "bye_percent": "70", "bye_mp": "zero",
        "tiebreaks": "vp,mp_difference,head_to_head,mp_scored", "rule_set": "fibur", "first_round": "number",
    })
    assert resp.status_code == 302, resp.content.decode()[:2000]
    assert list(Tournament.objects.get(slug="nuovo").arbiters.all()) == [other]


def test_anonymous_is_sent_to_login(published, client):
    resp = client.get(url("round", [1]))
    assert resp.status_code == 302 and reverse("login") in resp["Location"]


def test_migration_makes_each_creator_an_arbiter(db, arbiter, other):
    """Tournaments made before the field existed: the data migration adds ``created_by``."""
    from django.apps import apps

    mine = Tournament.objects.create(name="Vecchio", slug="vecchio", date=datetime.date(2025, 5, 1),
                                     created_by=arbiter)
    orphan = Tournament.objects.create(name="Senza autore", slug="orfano", date=datetime.date(2025, 5, 2))
    migration = importlib.import_module("tournaments.migrations.0006_tournament_arbiters")
    migration.creators_become_arbiters(apps, None)
    assert list(mine.arbiters.all()) == [arbiter]
    assert orphan.arbiters.count() == 0


# ---------------------------------------------------------------------------- co-directors


def test_owner_adds_a_co_director_by_username_audited(published, arbiter_client, other, client):
    resp = arbiter_client.post(url("tournament_arbiters", []), {"username": "altro"}, follow=True)
    assert resp.status_code == 200
    assert "altro ora è arbitro del torneo." in resp.content.decode()
    tournament = published.tournament
    assert set(tournament.arbiters.values_list("username", flat=True)) == {"arbitro", "altro"}
    entry = AuditEntry.objects.get(tournament=tournament, action="arbiter_added")
    assert entry.new == {"username": "altro"} and entry.actor == "arbitro (arbitro)"
    client.force_login(other)  # the co-director now opens the pages and sees it in his list
    assert client.get(url("round", [1])).status_code == 200
    assert "Torneo di prova" in client.get(reverse("home")).content.decode()


def test_unknown_username_is_refused_and_nothing_added(tournament, arbiter_client):
    resp = arbiter_client.post(url("tournament_arbiters", []), {"username": "nessuno"})
    assert resp.status_code == 200
    assert "Nessun arbitro con nome utente «nessuno»." in resp.content.decode()
    assert tournament.arbiters.count() == 1
    assert not AuditEntry.objects.filter(action="arbiter_added").exists()


def test_adding_an_arbiter_twice_is_refused(tournament, arbiter, other):
    services.add_arbiter(tournament=tournament, username="altro", by=arbiter)
    with pytest.raises(ArbiterError, match="«altro» è già arbitro di questo torneo."):
        services.add_arbiter(tournament=tournament, username="altro", by=arbiter)
    assert AuditEntry.objects.filter(action="arbiter_added").count() == 1


def test_service_refuses_a_non_director(tournament, other, django_user_model):
    django_user_model.objects.create_user(username="terzo", password="segreta-000")
    with pytest.raises(ArbiterError, match="Solo un arbitro del torneo"):
        services.add_arbiter(tournament=tournament, username="terzo", by=other)
    assert tournament.arbiters.count() == 1


def test_selectors_directs(tournament, arbiter, other, boss):
    assert selectors.directs(arbiter, tournament)
    assert not selectors.directs(other, tournament)
    assert selectors.directs(boss, tournament)


# ---------------------------------------------------------------------------- VP scales

TWO_HANDS = [(0, 30, 10, 10), (35, 100, 12, 8), (105, 200, 15, 5), (205, None, 18, 2)]


@pytest.fixture
def custom_scale(db):
    scale = vp_rules.scale_from_rows("vp20-2h", "20 VP, 2 smazzate", 20, TWO_HANDS, hands=2)
    return services.create_custom_scale(scale=scale, by=None)


def test_non_staff_sees_scales_read_only(arbiter_client, custom_scale):
    resp = arbiter_client.get(reverse("scales"))
    html = resp.content.decode()
    assert resp.status_code == 200
    assert "20 VP, 2 smazzate" in html  # custom scales are shared
    assert reverse("scale_create") not in html and reverse("scale_upload") not in html
    assert reverse("scale_delete", args=["vp20-2h"]) not in html


def test_non_staff_cannot_create_or_delete_a_custom_scale(arbiter_client, custom_scale):
    assert arbiter_client.get(reverse("scale_create")).status_code == 403
    assert arbiter_client.get(reverse("scale_upload")).status_code == 403
    assert arbiter_client.post(reverse("scale_create"), {"scale-scale_id": "x"}).status_code == 403
    assert arbiter_client.post(reverse("scale_delete", args=["vp20-2h"])).status_code == 403
    assert CustomScale.objects.filter(scale_id="vp20-2h").exists()


def test_service_refuses_a_non_staff_user(arbiter, custom_scale):
    scale = vp_rules.scale_from_rows("vp20-2h-bis", "Altra", 20, TWO_HANDS, hands=2)
    with pytest.raises(ArbiterError, match="Solo lo staff"):
        services.create_custom_scale(scale=scale, by=arbiter)
    with pytest.raises(ArbiterError, match="Solo lo staff"):
        services.delete_custom_scale(scale_id="vp20-2h", by=arbiter)
    assert list(CustomScale.objects.values_list("scale_id", flat=True)) == ["vp20-2h"]


def test_staff_creates_and_deletes(client, django_user_model, custom_scale):
    staff = django_user_model.objects.create_user(username="staff", password="segreta-321", is_staff=True)
    client.force_login(staff)
    html = client.get(reverse("scales")).content.decode()
    assert reverse("scale_create") in html and reverse("scale_delete", args=["vp20-2h"]) in html
    assert client.get(reverse("scale_create")).status_code == 200
    assert client.post(reverse("scale_delete", args=["vp20-2h"])).status_code == 302
    assert not CustomScale.objects.exists()


# ---------------------------------------------------------------------------- login throttle


def login(client, username, password, ip="127.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


@pytest.fixture
def throttled(settings):
    settings.AXES_ENABLED = True


def test_five_failures_lock_username_and_ip_for_15_minutes(throttled, client, arbiter):
    from axes.models import AccessAttempt

    for _ in range(4):
        assert login(client, "arbitro", "sbagliata").status_code == 200  # the form again
    assert login(client, "arbitro", "sbagliata").status_code == 429      # 5th failure: locked
    resp = login(client, "arbitro", "segreta-123")                       # even the right password
    assert resp.status_code == 429
    assert "Accesso bloccato" in resp.content.decode()
    assert "_auth_user_id" not in client.session
    # 15 minutes later (AXES_COOLOFF_TIME) the right password works again
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert login(client, "arbitro", "segreta-123").status_code == 302


def test_lock_is_per_username_and_ip(throttled, client, arbiter, other):
    for _ in range(5):
        login(client, "arbitro", "sbagliata")
    assert login(client, "altro", "segreta-456").status_code == 302             # other user, same router
    client.logout()
    assert login(client, "arbitro", "segreta-123", ip="10.0.0.7").status_code == 302  # same user, other IP


def test_four_failures_then_success_do_not_lock(throttled, client, arbiter):
    for _ in range(4):
        login(client, "arbitro", "sbagliata")
    assert login(client, "arbitro", "segreta-123").status_code == 302
    client.logout()
    for _ in range(4):  # the success reset the count: four more failures still do not lock
        login(client, "arbitro", "sbagliata")
    assert login(client, "arbitro", "segreta-123").status_code == 302


def test_lockout_page_in_english(throttled, client, arbiter, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for _ in range(5):
        login(client, "arbitro", "sbagliata")
    resp = login(client, "arbitro", "segreta-123")
    html = resp.content.decode()
    assert resp.status_code == 429
    assert "Login blocked" in html and "try again in 15 minutes" in html


# ---------------------------------------------------------------------------- seed_demo


@pytest.mark.parametrize("host, loopback", [
    ("127.0.0.1", True), ("localhost", True), ("::1", True), ("127.0.0.5", True), ("LOCALHOST", True),
    ("0.0.0.0", False), ("192.168.1.10", False), ("", False), ("club.example.org", False), ("::", False),
])
def test_is_loopback(host, loopback):
    assert seed_demo.is_loopback(host) is loopback


@pytest.mark.parametrize("url, host", [
    ("http://127.0.0.1:8000/", "127.0.0.1"), ("http://0.0.0.0:8000/", "0.0.0.0"),
    ("http://[::1]:8000/", "::1"), ("http://localhost:8000/", "localhost"), ("192.168.1.10:8000", "192.168.1.10"),
])
def test_host_of_url(url, host):
    assert seed_demo.host_of(url) == host


@pytest.fixture
def no_demo_tournament(monkeypatch):
    """The password tests need no 29-pair demo tournament (one test below plays it)."""
    monkeypatch.setattr(seed_demo.Command, "_create_demo", lambda self, user: None)
    monkeypatch.setattr(seed_demo, "extra_steps", lambda: [])  # nor the other apps' demo steps
    monkeypatch.delenv("ARBITRO_DEMO_PASSWORD", raising=False)
    monkeypatch.delenv("ARBITRO_DEMO_USER", raising=False)


def seed(url, *extra):
    out = io.StringIO()
    call_command("seed_demo", "--url", url, *extra, stdout=out)
    return out.getvalue()


def printed_password(output):
    match = re.search(r"password: (\S+)", output)
    return match.group(1) if match else None


def test_loopback_gets_the_fixed_demo_password(db, no_demo_tournament, django_user_model):
    output = seed("http://127.0.0.1:8000/")
    assert printed_password(output) == "burraco2026"
    assert django_user_model.objects.get(username="arbitro").check_password("burraco2026")


def test_open_network_gets_a_random_password_printed_once(db, no_demo_tournament, django_user_model):
    first = seed("http://0.0.0.0:8000/")
    password = printed_password(first)
    assert password and password != "burraco2026" and len(password) >= 16
    user = django_user_model.objects.get(username="arbitro")
    assert user.check_password(password)
    second = seed("http://0.0.0.0:8000/")  # the next run: neither printed nor changed
    assert password not in second and "invariata" in second
    user.refresh_from_db()
    assert user.check_password(password)


def test_reset_password_asks_for_a_new_one(db, no_demo_tournament, django_user_model):
    old = printed_password(seed("http://192.168.1.10:8000/"))
    new = printed_password(seed("http://192.168.1.10:8000/", "--reset-password"))
    assert new and new not in (old, "burraco2026")
    assert django_user_model.objects.get(username="arbitro").check_password(new)


def test_known_password_replaced_when_the_server_opens_to_the_network(db, no_demo_tournament,
                                                                        django_user_model):
    seed("http://127.0.0.1:8000/")
    output = seed("http://0.0.0.0:8000/")
    password = printed_password(output)
    assert password and password != "burraco2026"
    user = django_user_model.objects.get(username="arbitro")
    assert not user.check_password("burraco2026") and user.check_password(password)


def test_back_on_loopback_a_random_password_stays(db, no_demo_tournament, django_user_model):
    password = printed_password(seed("http://0.0.0.0:8000/"))
    output = seed("http://127.0.0.1:8000/")
    assert "burraco2026" not in output and password not in output
    assert django_user_model.objects.get(username="arbitro").check_password(password)


def test_fixed_password_from_the_environment_never_off_loopback(db, no_demo_tournament, monkeypatch,
                                                                django_user_model):
    monkeypatch.setenv("ARBITRO_DEMO_PASSWORD", "burraco2026")
    password = printed_password(seed("http://0.0.0.0:8000/"))
    assert password != "burraco2026"
    monkeypatch.setenv("ARBITRO_DEMO_PASSWORD", "scelta-dal-club")
    assert printed_password(seed("http://0.0.0.0:8000/", "--reset-password")) == "scelta-dal-club"


def test_demo_tournament_belongs_to_the_demo_arbiter(db, monkeypatch):
    monkeypatch.delenv("ARBITRO_DEMO_USER", raising=False)
    seed("http://127.0.0.1:8000/")
    demo = Tournament.objects.get(slug="demo")
    assert list(demo.arbiters.values_list("username", flat=True)) == ["arbitro"]


# ---------------------------------------------------------------------------- commands


def test_create_arbiter_with_password(db, django_user_model):
    out = io.StringIO()
    call_command("create_arbiter", "giulia", "--password", "lunga-abbastanza", stdout=out)
    user = django_user_model.objects.get(username="giulia")
    assert user.check_password("lunga-abbastanza")
    assert not user.is_staff and not user.is_superuser
    assert "lunga-abbastanza" not in out.getvalue()


def test_create_arbiter_random_password_printed_once(db, django_user_model):
    out = io.StringIO()
    call_command("create_arbiter", "marco", "--staff", stdout=out)
    password = printed_password(out.getvalue())
    user = django_user_model.objects.get(username="marco")
    assert password and len(password) >= 16 and user.check_password(password)
    assert user.is_staff and not user.is_superuser


def test_create_arbiter_refuses_existing_username_and_short_password(db, arbiter, django_user_model):
    with pytest.raises(CommandError, match="esiste già"):
        call_command("create_arbiter", "arbitro", "--password", "altra-password", stdout=io.StringIO())
    assert django_user_model.objects.get(username="arbitro").check_password("segreta-123")
    with pytest.raises(CommandError):
        call_command("create_arbiter", "corto", "--password", "abc", stdout=io.StringIO())
    assert not django_user_model.objects.filter(username="corto").exists()


def test_simulate_owner(db, arbiter, data_dir, tmp_path):
    call_command("simulate", "--registrations", str(data_dir / "registrations-9.csv"), "--plan", "MM",
                 "--stop-after", "1", "--slug", "sim", "--owner", "arbitro", "--out", str(tmp_path),
                 stdout=io.StringIO())
    assert list(Tournament.objects.get(slug="sim").arbiters.all()) == [arbiter]


def test_simulate_unknown_owner_creates_nothing(db, data_dir, tmp_path):
    with pytest.raises(CommandError, match="Nessun arbitro con nome utente «nessuno»"):
        call_command("simulate", "--registrations", str(data_dir / "registrations-9.csv"),
                     "--owner", "nessuno", "--out", str(tmp_path), stdout=io.StringIO())
    assert not Tournament.objects.exists()


def test_seed_demo_prints_the_url_it_is_given(db):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("seed_demo", "--url", "http://0.0.0.0:8123/", stdout=out)
    assert "http://0.0.0.0:8123/" in out.getvalue() and "8000" not in out.getvalue()


def test_seed_demo_shows_cash_desk_and_open_bookings_and_runs_twice(db):
    """The demo's «Cassa» has rates, 3 entrants paid (6 players) and 1 player waived; «Prossima
    serata», a week ahead, takes bookings: cap 3 pairs, two pairs + a single (2½ places) booked,
    the next pair waiting (rules.md §21). A second run adds nothing."""
    from bookings.models import Booking
    from bookings.services import closed_reason
    from money.models import FeeSchedule, PlayerFee

    for _ in range(2):
        call_command("seed_demo", "--url", "http://127.0.0.1:8000/", stdout=io.StringIO())
    demo = Tournament.objects.get(slug="demo")
    fees = FeeSchedule.objects.get(tournament=demo)
    assert (str(fees.member_rate), str(fees.guest_rate)) == ("10.00", "15.00")
    assert PlayerFee.objects.filter(tournament=demo, state=PlayerFee.State.PAID).count() == 6
    assert PlayerFee.objects.filter(tournament=demo, state=PlayerFee.State.WAIVED).count() == 1
    nxt = Tournament.objects.get(slug="prossima")
    assert nxt.date == datetime.date.today() + datetime.timedelta(days=7)
    assert not nxt.rounds.exists() and closed_reason(nxt, nxt.booking_window) is None
    assert nxt.booking_window.cap == 3 and nxt.booking_window.message
    states = list(nxt.bookings.order_by("seq").values_list("single", "state"))
    assert states == [(False, Booking.State.BOOKED), (False, Booking.State.BOOKED),
                      (True, Booking.State.BOOKED), (False, Booking.State.WAITING)]
    assert nxt.arbiters.filter(username="arbitro").exists()
