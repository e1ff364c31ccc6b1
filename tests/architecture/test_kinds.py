"""The tournament kinds (``tournaments/kinds/``): each is a ``Kind`` (the pairs' behaviour,
overridden where a kind differs) holding a ``KindData`` (its flags, names and texts); no
Python file outside ``tournaments/kinds/`` and ``tournaments/models/`` tests the kind through
``is_individual``/``is_teams``, nor does any template (they read the kind's data); the per-kind
tables of the modules the kinds cannot reach cover every kind."""
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.demo import simulation
from tournaments.kinds import KINDS, kind_of
from tournaments.kinds.base import Kind, KindData
from tournaments.models import Tournament
from tournaments.public import pages
from tournaments.selectors import rankings

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("tournaments", "championships", "members", "pairing", "scoring", "config")
ALLOWED_DIRS = ("tournaments/kinds/", "tournaments/models/")
#: Files still testing the kind outside kinds/ and models/. Shrink it; never grow it.
ALLOWED_FILES: set[str] = set()
KIND_TEST = re.compile(r"\.is_individual\b|\.is_teams\b")
#: Templates still testing the kind. Shrink it; never grow it.
ALLOWED_TEMPLATES: set[str] = set()
#: in a template the flags may also come bare from a view's context
TEMPLATE_KIND_TEST = re.compile(r"\bis_individual\b|\bis_teams\b")


def protocol_members() -> set[str]:
    names = {n for n in vars(Kind) if not n.startswith("_")}
    names |= set(getattr(Kind, "__annotations__", {}))
    return names


def test_the_base_class_names_the_members_the_callers_use():
    members = protocol_members()
    assert {"active_numbers", "pairing_request", "write_tables", "entrants",
            "parse_registrations", "data"} <= members
    # the standings, the entrants' names and the applied tie-breaks are read by the stored
    # kind in tournaments.selectors (below the kinds), not asked of a kind object
    assert not {"standings_after", "names", "applied_tiebreaks"} & members
    # at most 25 public members, the rest is data (docs/developing.md)
    assert len(members) <= 25


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_registered_kind_is_a_kind_holding_its_data(name):
    kind = KINDS[name]
    assert isinstance(kind, Kind)
    assert isinstance(kind.data, KindData)
    assert kind.data.name == name


def test_the_kinds_override_only_what_differs_from_the_pairs():
    # the pair tournament is the base class itself; an override identical to the base's
    # would be a copy
    assert type(KINDS[Tournament.Kind.PAIRS]) is Kind
    for kind in KINDS.values():
        for member, value in vars(type(kind)).items():
            if callable(value) and not member.startswith("_"):
                assert member in vars(Kind), f"{type(kind).__name__}.{member} is not a member of Kind"


def test_every_tournament_kind_is_registered_and_an_unknown_one_is_refused():
    assert set(KINDS) == set(Tournament.Kind.values)
    # club=None: an unsaved tournament without the default club's query (no database here)
    assert kind_of(Tournament(kind=Tournament.Kind.TEAMS, club=None)) is KINDS[Tournament.Kind.TEAMS]
    with pytest.raises(ValueError):
        kind_of(Tournament(kind="bridge", club=None))


def test_the_standings_have_a_reader_for_every_kind():
    # the selectors pick the standings' reader by the stored kind (they import no kind)
    assert set(rankings._READERS) == set(KINDS)


@pytest.mark.parametrize("table", [pages.ROUNDS_OF_KIND, simulation.ROUND_RESULTS,
                                   simulation.STANDINGS_ROWS, simulation.ENTRANTS_SECTION,
                                   services.ENTRANT_IMPORTERS])
def test_the_per_kind_tables_above_the_services_cover_every_kind(table):
    assert set(table) == set(KINDS)


def test_no_python_file_outside_the_kinds_and_the_models_tests_the_kind():
    offenders = {}
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(ALLOWED_DIRS) or "/migrations/" in rel:
                continue
            lines = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                     if KIND_TEST.search(line)]
            if lines and rel not in ALLOWED_FILES:
                offenders[rel] = lines
    assert not offenders, f"ask tournaments.kinds.kind_of(tournament) instead: {offenders}"
    stale = {f for f in ALLOWED_FILES if not KIND_TEST.search((ROOT / f).read_text(encoding="utf-8"))}
    assert not stale, f"no longer test the kind: remove from ALLOWED_FILES {stale}"


def test_no_template_tests_the_kind():
    offenders = {}
    for path in sorted((ROOT / "templates").rglob("*.html")):
        rel = path.relative_to(ROOT).as_posix()
        lines = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if TEMPLATE_KIND_TEST.search(line)]
        if lines and rel not in ALLOWED_TEMPLATES:
            offenders[rel] = lines
    assert not offenders, f"read the kind's data ({{{{ kind_data.… }}}}) instead: {offenders}"
    stale = {f for f in ALLOWED_TEMPLATES
             if not TEMPLATE_KIND_TEST.search((ROOT / f).read_text(encoding="utf-8"))}
    assert not stale, f"no longer test the kind: remove from ALLOWED_TEMPLATES {stale}"


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_kind_gives_the_pages_every_text_and_a_preview_template(name):
    from django.template.loader import get_template

    data = KINDS[name].data
    get_template(data.import_preview_template)
    for page in (data.entrants_page, data.late_entry_page):
        reverse(page, args=["x"])
    # every refusal key the services ask for is there ("" where the kind accepts)
    assert set(data.penalty_refusals) == {"pair", "player", "team"}
    assert set(data.registration_refusals) == {"player", "team"}
    assert set(data.groups_refusals) == {"no_group", "too_small", "too_many", "hand_missing", "hand_range",
                                         "hand_small"}
