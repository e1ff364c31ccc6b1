"""The tournament kinds behind one protocol (``tournaments/kinds/``): every registered kind
implements every member of ``Kind``; no Python file outside ``tournaments/kinds/`` and
``tournaments/models/`` tests the kind through ``is_individual``/``is_teams``, nor does any
template (they get the kind's flags, nouns and sentences); the per-kind tables of the modules
the kinds cannot reach cover every kind."""
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tournaments.demo import simulation
from tournaments.public import pages
from tournaments.selectors import rankings
from tournaments.kinds import KINDS, kind_of
from tournaments.kinds.base import Kind, PageTexts
from tournaments.models import Tournament

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


def test_the_protocol_names_the_members_the_callers_use():
    members = protocol_members()
    assert {"active_numbers", "pairing_request", "write_tables", "group_entrants",
            "entrants", "parse_registrations", "url_word", "audit_key"} <= members
    # the standings, the entrants' names and the applied tie-breaks are read by the stored
    # kind in tournaments.selectors (below the kinds), not asked of a kind object
    assert not {"standings_after", "names", "applied_tiebreaks"} & members


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_registered_kind_implements_every_member_of_the_protocol(name):
    kind = KINDS[name]
    missing = sorted(m for m in protocol_members() if not hasattr(kind, m))
    assert not missing, f"{name} lacks {missing}"
    for member in vars(Kind):
        if callable(getattr(Kind, member)) and not member.startswith("_"):
            assert callable(getattr(kind, member)), member
    assert kind.name == name


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
                                   simulation.STANDINGS_ROWS, simulation.ENTRANTS_SECTION])
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
    assert not offenders, f"use the kind's flags and texts ({{{{ kind.texts.… }}}}) instead: {offenders}"
    stale = {f for f in ALLOWED_TEMPLATES
             if not TEMPLATE_KIND_TEST.search((ROOT / f).read_text(encoding="utf-8"))}
    assert not stale, f"no longer test the kind: remove from ALLOWED_TEMPLATES {stale}"


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_kind_gives_the_pages_every_text_and_a_preview_template(name):
    from django.template.loader import get_template

    kind = KINDS[name]
    assert isinstance(kind.texts, PageTexts)
    get_template(kind.import_preview_template)
    for page in (kind.entrants_page, kind.late_entry_page):
        reverse(page, args=["x"])
