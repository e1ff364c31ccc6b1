"""Isolation by construction (rules.md §20): every URL pattern that takes an object of club A
answers 404 to club B's arbiter, by GET and by POST, and changes nothing; public pages (and
the captains' links, public by token) answer him as they answer an anonymous visitor; lists
and searches show none of A's objects.

The URL resolver is enumerated: a pattern with an argument this test cannot fill fails the
test with its name, so a URL added later must be taught here (``fill``) or scoped."""
from __future__ import annotations

import dataclasses
import datetime
import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from championships import services as championship_services
from clubs.models import Club, ClubRole
from members import services as member_services
from scoring import vp as vp_rules
from simultaneous.models import SimultaneousEvent
from tests.tournaments.individual_helpers import register
from tournaments import services
from tournaments.models import ArbiterCall, CustomScale
from tournaments.services import HandInput
from tournaments.services.entrants import PlayerData

pytestmark = pytest.mark.django_db

#: A word only club A's objects carry: B must never read it.
MARK = "Zafferano"

#: Pages anyone may open (no login): B's arbiter gets what an anonymous visitor gets.
PUBLIC = {
    "set_language", "championship_public", "championship_projector", "booking_public", "booking_private",
    "team_captain", "captain_pin_help", "captain", "captain_state", "captain_save", "captain_confirm",
    "captain_dispute", "captain_call", "captain_pin", "public", "projector", "projector_clock",
    "projector_clock_state", "player_search", "player_page",
}

#: The club data a request could change: every row of these apps.
APPS = ("clubs", "tournaments", "members", "championships", "bookings", "money")


def patterns(resolver=None, prefix=""):
    """(route text, name, argument names) of every URL pattern, at any depth."""
    resolver = resolver or get_resolver()
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            yield from patterns(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            route = prefix + str(p.pattern)
            yield route, p.name, re.findall(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>", route)


def dump() -> dict:
    """Every row of the club apps' tables, field by field."""
    out = {}
    for app in APPS:
        for model in apps.get_app_config(app).get_models():
            out[model._meta.label] = list(model.objects.order_by("pk").values())
    return out


@dataclasses.dataclass
class ClubA:
    club: Club
    arbiter: object
    pairs: object
    single: object
    teams: object
    call: ArbiterCall
    penalty: object
    championship: object
    scale: CustomScale
    member: object
    table_token: str
    team_token: str
    event: object


def _team_players(prefix):
    return [PlayerData(first_name=f"N{k}", last_name=f"{MARK}{prefix}{k}") for k in range(1, 5)]


@pytest.fixture
def club_a(django_user_model, settings, tmp_path):
    """Club A with one of everything: a pair, an individual and a team tournament each with a
    published round (the pair one with a sheet, a call, a penalty, public pages on), a
    championship, a custom VP scale, a member."""
    club = Club.objects.create(name=f"Circolo {MARK}", slug="zafferano")
    arbiter = django_user_model.objects.create_user("arbitro-a", password="x-Pass-1234")
    ClubRole.objects.create(user=arbiter, club=club, role=ClubRole.Role.MANAGER)
    day = datetime.date(2026, 12, 1)
    pairs = services.create_tournament(by=arbiter, club=club, name=f"{MARK} coppie", slug="zaf-coppie",
                                       date=day, public_enabled=True, projector_enabled=True)
    for k in range(1, 6):
        services.add_pair(tournament=pairs, by=arbiter, players=[
            PlayerData(first_name=f"Anna{k}", last_name=f"{MARK}{k}a", membership_number=f"Z{k}a"),
            PlayerData(first_name=f"Bruno{k}", last_name=f"{MARK}{k}b", membership_number=f"Z{k}b")])
    rnd = services.publish_round(round=services.generate_round(tournament=pairs, by=arbiter), by=arbiter)
    table = rnd.tables.filter(bye="").order_by("number").first()
    services.save_score_sheet(table=table, by=arbiter, validate=False, hands=[HandInput(ns=500, ew=300)] * 4)
    call = ArbiterCall.objects.create(round=rnd, table=table, called_by="NS", called_at=timezone.now())
    penalty = services.add_penalty(reason="ritardo", by=arbiter, pair=pairs.pairs.get(number=1), vp=1)
    single = services.create_tournament(by=arbiter, club=club, name=f"{MARK} individuale", slug="zaf-indiv",
                                        kind="individual", date=day, plan="DDD")
    register(single, arbiter, 8)
    services.publish_round(round=services.generate_round(tournament=single, by=arbiter), by=arbiter,
                           acknowledge_warnings=True)
    teams = services.create_tournament(by=arbiter, club=club, name=f"{MARK} squadre", slug="zaf-squadre",
                                       kind="teams", date=day, plan="RRR", hands_per_round=4, vp_scale="vp20-4h")
    for k in range(1, 5):
        services.add_team(tournament=teams, name=f"{MARK} squadra {k}", players=_team_players(f"T{k}p"),
                          by=arbiter)
    services.publish_round(round=services.generate_round(tournament=teams, by=arbiter), by=arbiter)
    championship = championship_services.create_championship(
        by=arbiter, slug="zaf-campionato", name=f"{MARK} campionato", tournaments=["zaf-coppie"], club=club,
        public_enabled=True, projector_enabled=True)
    builtin = vp_rules.builtin_scales()["vp20-4h"]
    scale = CustomScale.objects.create(scale_id="zaf-vp", name=f"{MARK} VP", club=club,
                                       data=vp_rules.scale_to_dict(dataclasses.replace(builtin, id="zaf-vp")))
    member = member_services.create_member(
        data=member_services.MemberData(last_name=MARK, first_name="Anna", membership_number="Z77"),
        by=None, club=club)
    event = SimultaneousEvent.objects.create(slug="zaf-sim", name=f"{MARK} simultaneo", date=day,
                                             public_enabled=True, projector_enabled=True)
    event.clubs.add(club)
    return ClubA(club=club, arbiter=arbiter, pairs=pairs, single=single, teams=teams, call=call,
                 penalty=penalty, championship=championship, scale=scale, member=member,
                 table_token=table.token, team_token=teams.teams.first().token, event=event)


@pytest.fixture
def arbiter_b(django_user_model):
    """Club B's manager (he sees every tournament of B: the widest view a club gives)."""
    club = Club.objects.create(name="Circolo Borgo", slug="borgo")
    user = django_user_model.objects.create_user("arbitro-b", password="x-Pass-1234")
    ClubRole.objects.create(user=user, club=club, role=ClubRole.Role.MANAGER)
    return user


def fill(route: str, name: str, arg: str, a: ClubA):
    """The value of URL argument ``arg`` naming an object of club A, or None when unknown."""
    if arg == "slug":
        if route.startswith("campionat"):
            return a.championship.slug
        if route.startswith("circoli/"):
            return a.club.slug
        if route.startswith("simultane"):
            return a.event.slug
        if "squadre" in route or "incontri" in route or "capitani-squadre" in route:
            return a.teams.slug
        if "giocatori" in route:
            return a.single.slug
        return a.pairs.slug
    if arg == "club":  # a circuit's club (championships/urls.py)
        return a.club.slug
    if name == "championship_remove" and arg == "tournament":
        return a.pairs.slug
    if arg == "scale_id":
        return a.scale.scale_id
    if arg == "pk":
        return a.member.pk if route.startswith("soci/") else a.penalty.pk
    if arg in ("number", "table", "match"):
        return 1
    if arg == "call":
        return a.call.pk
    if arg == "word":
        return "coppia"
    if arg == "key":
        kind = "a4" if "pacchetto" in route else "tabellone"  # a valid key of each (printing.pack.KEY_RE)
        return f"t{a.pairs.pk}-r1-{kind}-{'0' * 24}"
    if arg == "token":
        if name == "team_captain":
            return a.team_token
        if name == "booking_private":
            return "nessun-codice"
        return a.table_token
    return None


def build(route: str, args: list[str], values: dict) -> str:
    path = route
    for arg in args:
        path = re.sub(r"<(?:\w+:)?%s>" % arg, str(values[arg]), path)
    return "/" + path


def club_a_urls(a: ClubA):
    """(name, url) of every pattern taking an argument, filled with club A's objects (the
    admin's left out: below); fails naming the patterns ``fill`` does not know."""
    urls, unfilled = [], []
    for route, name, found in patterns():
        args = [x or y for x, y in found]
        if not args or route.startswith("admin/"):
            continue  # lists: test_lists_and_searches…; the admin: staff only (test_the_admin…)
        values = {arg: fill(route, name, arg, a) for arg in args}
        if any(v is None for v in values.values()):
            unfilled.append(name or route)
        else:
            urls.append((name, build(route, args, values)))
    assert not unfilled, f"URL patterns this test cannot fill (teach `fill` or scope them): {unfilled}"
    return urls


def test_every_pattern_of_club_a_is_a_404_to_club_b(club_a, arbiter_b):
    b = Client()
    b.force_login(arbiter_b)
    anonymous = Client()
    urls = club_a_urls(club_a)
    assert len(urls) > 80
    leaks = []
    before = dump()
    for name, url in urls:
        if name in PUBLIC:
            continue
        for method in ("get", "post"):
            got = getattr(b, method)(url).status_code
            if got != 404:
                leaks.append(f"{method.upper()} {url} ({name}): {got}")
    assert not leaks, "\n".join(leaks)
    assert dump() == before
    # public pages and captains' links: as to an anonymous visitor (who may leave what any
    # visitor leaves: a wrong PIN's count, the championship's placings cache)
    for name, url in urls:
        if name not in PUBLIC:
            continue
        for method in ("get", "post"):
            got = getattr(b, method)(url).status_code
            expected = getattr(anonymous, method)(url).status_code
            if got != expected:
                leaks.append(f"{method.upper()} {url} ({name}): {got}, an anonymous visitor {expected}")
    assert not leaks, "\n".join(leaks)


def test_club_a_arbiter_reaches_the_same_urls(club_a):
    """The URLs above name objects that exist: A's own manager opens the tournament pages
    (so B's 404 comes from the club, not from a wrong address)."""
    a = Client()
    a.force_login(club_a.arbiter)
    for url in ("/tornei/zaf-coppie/", "/tornei/zaf-coppie/turni/1/tavoli/1/", "/tornei/zaf-squadre/squadre/",
                "/tornei/zaf-indiv/giocatori/", "/campionati/zaf-campionato/", f"/soci/{club_a.member.pk}/",
                "/tornei/zaf-coppie/registro/", "/tornei/zaf-coppie/esporta/torneo.json"):
        assert a.get(url).status_code == 200, url


def test_the_admin_is_not_an_arbiters_door(club_a, arbiter_b):
    b = Client()
    b.force_login(arbiter_b)
    resp = b.get(f"/admin/tournaments/tournament/{club_a.pairs.pk}/change/")
    assert resp.status_code == 302 and "/admin/login/" in resp["Location"]


def test_lists_and_searches_show_none_of_club_a(club_a, arbiter_b, django_user_model):
    b = Client()
    b.force_login(arbiter_b)
    own = services.create_tournament(by=arbiter_b, club=Club.objects.get(slug="borgo"), name="Serata Borgo",
                                     slug="borgo-serata", date=datetime.date(2026, 12, 2))
    championship_services.create_championship(by=arbiter_b, slug="borgo-camp", name="Campionato Borgo",
                                              tournaments=["borgo-serata"])
    for query in (MARK, "Z77", "Anna"):  # the search echoes the query: its members must be none of A's
        assert b.get("/soci/cerca/", {"q": query}).json()["members"] == [], query
    for url in ("/", "/campionati/", "/campionati/borgo-camp/", "/tabelle-vp/", "/soci/",
                "/tornei/importa-file/", "/tornei/nuovo/",
                f"/tornei/{own.slug}/", f"/tornei/{own.slug}/registro/", f"/tornei/{own.slug}/premi/",
                f"/tornei/{own.slug}/impostazioni/"):
        resp = b.get(url)
        assert resp.status_code == 200, url
        body = resp.content.decode()
        assert MARK not in body and "zaf-" not in body, url
