"""Each evening's placings stored in the database (``championships.models.EveningPlacings``):
computed once per audit entry of their tournament, read back by every later read in one
query, recomputed for the corrected evening only, replaced when stale (rules.md §17)."""
import datetime
from decimal import Decimal

import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext

from championships import selectors, services
from championships.models import EveningPlacings
from tournaments.models import AuditEntry

from .helpers import correct_table_of_pair_one, pairs_evening, people

D = datetime.date


@pytest.fixture
def season(arbiter):
    """Three evenings of the same 8 people in 4 pairs (partners kept), gio-3 with pairs 2 and
    3 tied 2nd: field points gio-1 4, 3, 2, 1; gio-2 1, 2, 3, 4; gio-3 4, 2.5, 2.5, 1."""
    group = people("S", 4)
    pairs_evening(arbiter, "gio-1", D(2026, 11, 5), group, {1: 20, 2: 12, 3: 8, 4: 0})
    pairs_evening(arbiter, "gio-2", D(2026, 11, 12), group, {1: 5, 2: 10, 3: 15, 4: 20})
    pairs_evening(arbiter, "gio-3", D(2026, 11, 19), group, {1: 20, 2: 10, 3: 10, 4: 0})
    return services.create_championship(by=arbiter, slug="stagione", name="Stagione", points="field",
                                        tournaments=["gio-1", "gio-2", "gio-3"])


@pytest.fixture
def computed(monkeypatch):
    """The slugs of the evenings whose placings a read computes, in order."""
    slugs = []
    original = selectors.compute_placings_of

    def counting(tournaments):
        slugs.extend(t.slug for t in tournaments)
        return original(tournaments)

    monkeypatch.setattr(selectors, "compute_placings_of", counting)
    return slugs


def totals(championship):
    return {r.name: r.total for r in selectors.standings(championship).rows}


def test_a_correction_recomputes_that_evening_only(season, arbiter, computed):
    """First read: all three computed and stored. Second read (as after a restart: nothing is
    kept in the process): none computed, the stored placings read in one query. After gio-2's
    correction (pair 1 from 5 to 18 VP: 2nd, 3 points instead of 1; pair 3 3rd, 2 instead of
    3), only gio-2 is computed; Anna of pair 1: 4 + 3 + 4 = 11, pair 3: 2 + 2 + 2.5 = 6.5."""
    assert totals(season)["S1a Anna"] == 4 + 1 + 4
    assert computed == ["gio-1", "gio-2", "gio-3"]
    assert EveningPlacings.objects.filter(tournament__in=season.tournaments.all()).count() == 3

    computed.clear()
    with CaptureQueriesContext(connection) as queries:
        assert totals(season)["S1a Anna"] == 9
    assert computed == []
    # evenings with their latest audit ids, their stored placings, the players' members, names
    assert len(queries) == 4, [q["sql"] for q in queries]
    assert sum("championships_eveningplacings" in q["sql"] for q in queries) == 1

    gio2 = season.tournaments.get(slug="gio-2")
    before = {row.tournament_id: row.computed_at for row in EveningPlacings.objects.all()}
    correct_table_of_pair_one(arbiter, gio2, {1: 18, 2: 10, 3: 15, 4: 20})
    computed.clear()
    rows = totals(season)
    assert computed == ["gio-2"]
    assert rows["S1a Anna"] == rows["S1b Bruno"] == 11
    assert rows["S3a Anna"] == Decimal("6.5")
    latest = AuditEntry.objects.filter(tournament=gio2).order_by("-id").first().pk
    stored = {row.tournament_id: row for row in EveningPlacings.objects.all()}
    assert stored[gio2.pk].computed_from == latest
    assert all(stored[pk].computed_at == at for pk, at in before.items() if pk != gio2.pk)


def test_stored_placings_equal_a_fresh_computation(season, arbiter):
    """After reads and a correction, every stored row reads back as what ``standings_after``
    gives now: entrants, positions (the tie of gio-3 shared), exact VP, final."""
    selectors.standings(season)
    correct_table_of_pair_one(arbiter, season.tournaments.get(slug="gio-3"), {1: Decimal("7.5"), 2: 10, 3: 10, 4: 0})
    selectors.standings(season)
    for t in season.tournaments.all():
        row = EveningPlacings.objects.get(tournament=t)
        assert (selectors._decoded(row.placings), row.final) == selectors.compute_placings(t)
    gio3 = EveningPlacings.objects.get(tournament__slug="gio-3")
    assert sorted((entrant, position, Decimal(vp)) for entrant, position, vp in gio3.placings) == [
        (1, 3, Decimal("7.5")), (2, 1, 10), (3, 1, 10), (4, 4, 0)]


def test_stale_rows_are_replaced(season, computed):
    """A row computed after an older audit entry, or by another format of the placings, is
    computed again and replaced; the standings are the evenings' current ones."""
    expected = totals(season)
    gio1, gio2 = (season.tournaments.get(slug=s) for s in ("gio-1", "gio-2"))
    EveningPlacings.objects.filter(tournament=gio1).update(computed_from=1, placings=[[1, 3, "0"]])
    EveningPlacings.objects.filter(tournament=gio2).update(format=selectors.PLACINGS_FORMAT - 1,
                                                           placings=[[3, 1, "99"]])
    computed.clear()
    assert totals(season) == expected
    assert computed == ["gio-1", "gio-2"]
    for t in (gio1, gio2):
        row = EveningPlacings.objects.get(tournament=t)
        assert (row.format, row.computed_from) == (
            selectors.PLACINGS_FORMAT, AuditEntry.objects.filter(tournament=t).order_by("-id").first().pk)
        assert (selectors._decoded(row.placings), row.final) == selectors.compute_placings(t)
    assert EveningPlacings.objects.count() == 3


def test_a_write_that_fails_still_answers(season, monkeypatch, computed):
    """The database refusing the write (busy, read-only) costs the stored copy, not the page."""
    def refuse(*args, **kwargs):
        raise DatabaseError("database is locked")

    monkeypatch.setattr(EveningPlacings.objects, "bulk_create", refuse)
    assert totals(season)["S1a Anna"] == 9
    assert not EveningPlacings.objects.exists()
