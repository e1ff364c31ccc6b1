"""Writes from several connections at once, serialised by the database.

Each thread has its own database connection, as two server processes would. Only on a
database server (PostgreSQL); SQLite serialises every writer anyway.
"""
from __future__ import annotations

import pytest
from django.conf import settings

from tests.threads import together

pytestmark = [
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
                       reason="threads with their own connections need a database server (PostgreSQL)"),
    pytest.mark.django_db(transaction=True),
]


def test_pairs_added_at_once_get_consecutive_numbers(tournament, arbiter):
    """Four arbiters' windows add a pair at the same moment: pairs 1–4, none refused (the next
    free number is read under the tournament's row lock)."""
    from tournaments import services

    def add(k):
        return lambda: services.add_pair(tournament=tournament, by=arbiter, players=[
            services.PlayerData(first_name=f"Anna{k}", last_name=f"Rossi{k}", membership_number=f"A{k}"),
            services.PlayerData(first_name=f"Bruno{k}", last_name=f"Verdi{k}", membership_number=f"B{k}"),
        ])

    results = together(*[add(k) for k in range(4)])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(p.number for p in results) == [1, 2, 3, 4]
    assert tournament.pairs.count() == 4


def test_two_saves_of_one_sheet_from_the_same_version_store_one(published, arbiter):
    """The arbiter in two windows saves table 1 from version 0 at once: one stored, the other
    told the sheet changed (StaleSheetError); one audit entry."""
    from tournaments import services
    from tournaments.errors import StaleSheetError
    from tournaments.models import AuditEntry

    table = published.tables.get(number=1)
    hands_a = [services.HandInput(ns=600, ew=200), services.HandInput(ns=400, ew=150),
               services.HandInput(ns=250, ew=300), services.HandInput(ns=300, ew=195)]
    hands_b = [services.HandInput(ns=500, ew=100)] * 4

    def save(hands):
        return lambda: services.save_score_sheet(table=table, hands=hands, declared=None, by=arbiter,
                                                 expected_version=0)

    results = together(save(hands_a), save(hands_b))
    stale = [r for r in results if isinstance(r, StaleSheetError)]
    stored = [r for r in results if not isinstance(r, Exception)]
    assert (len(stored), len(stale)) == (1, 1), results
    assert stored[0].version == 1
    assert AuditEntry.objects.filter(action="sheet_saved", table_number=1).count() == 1
