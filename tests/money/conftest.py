"""The 14-pair evening of the money tests (rules.md §21), results chosen by hand.

Pair k scores 20 − k VP (MP 0), so pair 1 is first, pair 2 second, pair 3 third. Players have
membership numbers (members, valid) except: both players of pair 13 and the first of pair 14
(no number: guests) and the first of pair 12, whose membership expired the day before the
evening (a guest too, §16) — 4 guests, 24 members.
"""
import datetime

import pytest

from members.models import Member
from tests.championships.helpers import pairs_evening

DAY = datetime.date(2026, 11, 12)


def fourteen_pairs() -> list:
    pairs = []
    for k in range(1, 15):
        a = (f"Rossi{k}", "Anna", "" if k in (13, 14) else f"T{k}A")
        b = (f"Verdi{k}", "Bruno", "" if k == 13 else f"T{k}B")
        pairs.append((a, b))
    return pairs


@pytest.fixture
def evening(arbiter):
    t = pairs_evening(arbiter, "cassa", DAY, fourteen_pairs(), {k: 20 - k for k in range(1, 15)})
    Member.objects.filter(membership_number="T12A").update(expires_on=DAY - datetime.timedelta(days=1))
    Member.objects.filter(membership_number="T11A").update(expires_on=DAY)  # expiring that day: still valid
    return t
