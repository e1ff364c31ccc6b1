"""A Content-Security-Policy the pages satisfy, and HSTS under ARBITRO_HTTPS.

Every arbiter, captain and public page is rendered; none may hold inline script code
(only ``<script type="application/json">`` data and ``<script src=…>``) nor an ``on…=``
attribute, and each answer carries the CSP header with the directives of config/settings.py.
"""

import pytest
from django.test import override_settings
from django.urls import reverse

from tests.captain.helpers import inline_problems
from tournaments import services
from tournaments.models import Tournament

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]
DIRECTIVES = ["default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'",
              "img-src 'self' data:", "connect-src 'self'", "frame-ancestors 'none'", "form-action 'self'"]


@pytest.fixture
def full_tournament(tournament, tables, arbiter):
    """Round 1 published with one sheet entered; every public page switched on."""
    services.save_score_sheet(table=tables[1], hands=[services.HandInput(*h) for h in HANDS], by=arbiter)
    flags = [f.name for f in Tournament._meta.fields if f.get_internal_type() == "BooleanField"
             and ("public" in f.name or "projector" in f.name or f.name.endswith("_enabled"))]
    Tournament.objects.filter(pk=tournament.pk).update(**{name: True for name in flags})
    return tournament


def pages(tables):
    slug, t = "prova", tables[1]
    arbiter = [
        ("home", []), ("tournament_create", []), ("scales", []), ("scale_create", []), ("scale_upload", []),
        ("tournament", [slug]), ("tournament_edit", [slug]), ("pairs", [slug]), ("pair_add", [slug]),
        ("pair_edit", [slug, 1]), ("import", [slug]), ("audit", [slug]), ("penalties", [slug]),
        ("public_switches", [slug]), ("round", [slug, 1]), ("round_generate", [slug]),
        ("board", [slug, 1]), ("board_rows", [slug, 1]), ("captain_links", [slug, 1]),
        ("sheet", [slug, 1, 1]), ("sheet_corrections", [slug, 1, 1]), ("pair_withdraw", [slug]),
        ("late_pair", [slug]), ("standings", [slug]), ("tournament_arbiters", [slug]),
    ]
    public = [("captain_pin", [slug]), ("captain", [t.token]), ("public", [slug]), ("projector", [slug]), ("login", [])]
    return arbiter, public


def test_every_page_has_no_inline_script_and_sends_the_csp(client, arbiter, full_tournament, tables):
    arbiter_pages, public_pages = pages(tables)
    arbiter.is_staff = True  # the custom-scale forms are staff-only
    arbiter.save(update_fields=["is_staff"])
    checked = 0
    for logged_in, group in ((False, public_pages), (True, arbiter_pages)):
        if logged_in:
            client.force_login(arbiter)
        for name, args in group:
            response = client.get(reverse(name, args=args))
            assert response.status_code == 200, (name, response.status_code)
            assert inline_problems(response.content.decode()) == [], name
            header = response.headers.get("Content-Security-Policy", "")
            for directive in DIRECTIVES:
                assert directive in header, (name, directive, header)
            checked += 1
    assert checked == len(arbiter_pages) + len(public_pages)


def test_the_checker_finds_what_it_must():
    assert inline_problems('<button onclick="window.print()">x</button>')
    assert inline_problems("<script>alert(1)</script>")
    assert not inline_problems('<script type="application/json" id="d">{"a": 1}</script>')
    assert not inline_problems('<script src="/static/js/page.js" defer></script>')


def test_hsts_only_under_arbitro_https(client, db):
    from config.settings import https_settings

    assert https_settings(False) == {}
    on = https_settings(True, environ={})
    assert on["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600
    assert on["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    assert https_settings(True, environ={"ARBITRO_HSTS_SUBDOMAINS": "1"})["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    plain = client.get(reverse("login"), secure=True)
    assert "Strict-Transport-Security" not in plain.headers
    with override_settings(**on):
        from django.test import Client

        secure = Client().get(reverse("login"), secure=True)   # a new client reads the settings
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
