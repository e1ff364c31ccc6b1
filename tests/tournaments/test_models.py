"""Every model constraint holds at the database level, not only in forms."""
import datetime
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from tournaments.models import HandRow, Pair, Penalty, Player, Round, ScoreSheet, Seat, Table, Tournament


@pytest.fixture
def t(db):
    return Tournament.objects.create(name="T", slug="t", date=datetime.date(2026, 1, 1))


def raises_integrity(fn):
    with pytest.raises(IntegrityError):
        with transaction.atomic():
            fn()


def test_pair_number_unique_per_tournament(t):
    Pair.objects.create(tournament=t, number=1)
    raises_integrity(lambda: Pair.objects.create(tournament=t, number=1))
    other = Tournament.objects.create(name="U", slug="u", date=datetime.date(2026, 1, 1))
    Pair.objects.create(tournament=other, number=1)  # another tournament may reuse it


def test_pair_number_positive(t):
    raises_integrity(lambda: Pair.objects.create(tournament=t, number=0))


def test_withdrawn_pair_needs_round(t):
    raises_integrity(lambda: Pair.objects.create(tournament=t, number=1, status="withdrawn"))


def test_player_in_at_most_one_pair_seat(t):
    pair = Pair.objects.create(tournament=t, number=1)
    Player.objects.create(tournament=t, first_name="A", last_name="B", pair=pair, seat=1)
    raises_integrity(lambda: Player.objects.create(tournament=t, first_name="C", last_name="D", pair=pair, seat=1))
    raises_integrity(lambda: Player.objects.create(tournament=t, first_name="C", last_name="D", pair=pair, seat=3))


def test_player_membership_unique_per_tournament(t):
    Player.objects.create(tournament=t, first_name="A", last_name="B", membership_number="123")
    raises_integrity(lambda: Player.objects.create(tournament=t, first_name="A", last_name="B", membership_number="123"))
    # players without a card number are not forced unique
    Player.objects.create(tournament=t, first_name="X", last_name="Y")
    Player.objects.create(tournament=t, first_name="X", last_name="Y")


def test_player_names_required(t):
    raises_integrity(lambda: Player.objects.create(tournament=t, first_name="", last_name="B"))
    raises_integrity(lambda: Player.objects.create(tournament=t, first_name="A", last_name=""))


def test_round_number_unique(t):
    Round.objects.create(tournament=t, number=1, system="mitchell")
    raises_integrity(lambda: Round.objects.create(tournament=t, number=1, system="danish"))


def test_table_number_unique_per_round(t):
    r = Round.objects.create(tournament=t, number=1, system="mitchell")
    Table.objects.create(round=r, number=1)
    raises_integrity(lambda: Table.objects.create(round=r, number=1))


def test_pair_at_most_once_per_round(t):
    r = Round.objects.create(tournament=t, number=1, system="mitchell")
    p1, p2, p3 = (Pair.objects.create(tournament=t, number=n) for n in (1, 2, 3))
    t1, t2 = Table.objects.create(round=r, number=1), Table.objects.create(round=r, number=2)
    Seat.objects.create(round=r, table=t1, pair=p1, line="ns")
    Seat.objects.create(round=r, table=t1, pair=p2, line="ew")
    # the same pair at another table of the same round
    raises_integrity(lambda: Seat.objects.create(round=r, table=t2, pair=p1, line="ew"))
    # two pairs on the same line of one table
    raises_integrity(lambda: Seat.objects.create(round=r, table=t1, pair=p3, line="ns"))


def test_hand_number_unique_in_sheet(t):
    r = Round.objects.create(tournament=t, number=1, system="mitchell")
    sheet = ScoreSheet.objects.create(table=Table.objects.create(round=r, number=1))
    HandRow.objects.create(sheet=sheet, number=1, ns_score=100, ew_score=50)
    raises_integrity(lambda: HandRow.objects.create(sheet=sheet, number=1, ns_score=0, ew_score=0))


def test_one_sheet_per_table(t):
    r = Round.objects.create(tournament=t, number=1, system="mitchell")
    table = Table.objects.create(round=r, number=1)
    ScoreSheet.objects.create(table=table)
    raises_integrity(lambda: ScoreSheet.objects.create(table=table))


def test_penalty_positive(t):
    pair = Pair.objects.create(tournament=t, number=1)
    raises_integrity(lambda: Penalty.objects.create(tournament=t, pair=pair, vp=Decimal("0"), reason="x"))


def test_tournament_settings_ranges(t):
    raises_integrity(lambda: Tournament.objects.create(name="B", slug="b", date=datetime.date(2026, 1, 1), bye_percent=120))
    raises_integrity(lambda: Tournament.objects.create(name="C", slug="c", date=datetime.date(2026, 1, 1), hands_per_round=0))
    raises_integrity(lambda: Tournament.objects.create(name="T2", slug="t", date=datetime.date(2026, 1, 1)))
