"""Print jobs and backups belong to their tournament's club (rules.md §20):
club B's arbiter never lists nor downloads a print job of club A's tournament — not through
A's address, not by putting A's job key under his own tournament's address — while A's
arbiter does. Backups are files on the server that no page lists or serves: the only
address a backup reaches a page with is the deletion's message, shown to the arbiter who
deleted his own tournament."""
import datetime
import json
import time

import pytest
from django.test import Client
from django.urls import get_resolver

from clubs.models import Club, ClubRole, default_club
from tournaments import services
from tournaments.printing import pack as printpack

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 5)
DIGEST = "0123456789abcdef01234567"


def finished_job(key: str) -> None:
    """A job of ``key`` done: its PDF and status in the print cache, as the worker leaves them."""
    folder = printpack.cache_dir()
    (folder / f"{key}.pdf").write_bytes(b"%PDF-1.7 club A")
    (folder / f"{key}.json").write_text(json.dumps({"state": "done", "done": 1, "total": 1, "updated": time.time()}))


@pytest.fixture
def two_clubs(django_user_model):
    b = Club.objects.create(name="Borgo", slug="borgo")
    arb_a = django_user_model.objects.create_user(username="arb-a", password="x-Pass-1234")
    arb_b = django_user_model.objects.create_user(username="arb-b", password="x-Pass-1234")
    ClubRole.objects.create(user=arb_a, club=default_club())
    ClubRole.objects.create(user=arb_b, club=b)
    ta = services.create_tournament(by=arb_a, name="Serata A", slug="serata-a", plan="M", hands_per_round=4, date=DAY,
                                    vp_scale="vp20-4h", club=default_club())
    tb = services.create_tournament(by=arb_b, name="Serata B", slug="serata-b", plan="M", hands_per_round=4, date=DAY,
                                    vp_scale="vp20-4h", club=b)
    return arb_a, arb_b, ta, tb


def job_urls(slug: str, tournament_id: int) -> list[str]:
    pack, job = f"t{tournament_id}-r1-a4-{DIGEST}", f"t{tournament_id}-r1-tabellone-{DIGEST}"
    finished_job(pack)
    finished_job(job)
    base = f"/tornei/{slug}/documenti"
    return [f"{base}/turno-1/pacchetto/{pack}/", f"{base}/turno-1/pacchetto/{pack}/stato.json",
            f"{base}/turno-1/pacchetto/{pack}.pdf", f"{base}/stampa/{job}/", f"{base}/stampa/{job}/stato.json",
            f"{base}/stampa/{job}.pdf"]


def test_a_print_job_of_club_a_is_a_404_to_club_b(two_clubs):
    arb_a, arb_b, ta, tb = two_clubs
    a, b = Client(), Client()
    a.force_login(arb_a)
    b.force_login(arb_b)
    own = job_urls(ta.slug, ta.pk)
    for url in own:
        assert a.get(url).status_code == 200, url
        assert b.get(url).status_code == 404, url
    # A's job keys under B's own tournament's address: the key names A's tournament
    for url in job_urls(tb.slug, ta.pk):
        assert b.get(url).status_code == 404, url
    # and B's own finished job is his
    for url in job_urls(tb.slug, tb.pk):
        assert b.get(url).status_code == 200, url
        assert a.get(url.replace("serata-b", "serata-a")).status_code == 404, url


def test_no_page_lists_or_serves_the_backups():
    routes = []

    def walk(patterns, prefix=""):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns, prefix + str(p.pattern))
            else:
                routes.append(prefix + str(p.pattern))

    walk(get_resolver().url_patterns)
    assert routes and not [r for r in routes if "backup" in r.lower()]
