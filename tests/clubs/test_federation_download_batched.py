"""The federation's download of a period reads many tournaments' standings at once
(``selectors.latest_standings_of``, rules.md §20): its rows are exactly those of each
tournament's own results file (``printing.federation.result_rows``) read one by one, and the
pair tournaments' reads do not grow by ten queries a tournament."""
import datetime

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs.models import Club, ClubRole, default_club
from tests.championships.helpers import pairs_evening
from tournaments import services
from tournaments.models import Pair, Tournament
from tournaments.printing import federation as federation_file
from tournaments.services.lateness import record_lateness

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs_world(django_user_model, data_dir, tmp_path):
    """Club A (code RM01): a simulated 9-pair evening MMD (a rest each round) and a one-round
    evening with a penalty of 2 VP from round 1 and a shared place; club B (FI02): a
    simulated 13-player individual evening, a 9-pair evening stopped after 2 of 3 rounds and
    a tournament without any round."""
    a = default_club()
    a.federation_code = "RM01"
    a.save()
    b = Club.objects.create(name="Borgo", slug="borgo", federation_code="FI02")
    arb_a = django_user_model.objects.create_user(username="arb-a", password="x-Pass-1234")
    arb_b = django_user_model.objects.create_user(username="arb-b", password="x-Pass-1234")
    ClubRole.objects.create(user=arb_a, club=a)
    ClubRole.objects.create(user=arb_b, club=b)
    day = timezone.localdate() - datetime.timedelta(days=3)
    call_command("simulate", "--registrations", str(data_dir / "registrations-9.csv"), "--plan", "MMD", "--hands", "4",
                 "--seed", "5", "--out", str(tmp_path / "a"), "--slug", "sim-a", "--club", "circolo",
                 "--owner", "arb-a", "--date", day.isoformat())
    call_command("simulate", "--kind", "individual", "--registrations", str(data_dir / "players-13.csv"), "--plan",
                 "MM", "--hands", "4", "--seed", "6", "--out", str(tmp_path / "b"), "--slug", "ind-b",
                 "--club", "borgo", "--owner", "arb-b", "--date", day.isoformat())
    call_command("simulate", "--registrations", str(data_dir / "registrations-9.csv"), "--plan", "MMD", "--hands", "4",
                 "--seed", "7", "--out", str(tmp_path / "c"), "--slug", "half-b", "--club", "borgo",
                 "--owner", "arb-b", "--date", day.isoformat(), "--stop-after", "2")
    tied = pairs_evening(arb_a, "tied", day, [(("Serra", "Anna", "402616"), ("Santoro", "Marta", "")),
                                              (("Neri", "Ugo", "1"), ("Gialli", "Ada", "2"))], {1: 12, 2: 8})
    services.add_penalty(reason="ritardo", by=arb_a, pair=Pair.objects.get(tournament=tied, number=1), vp=2,
                         round_number=1)
    services.create_tournament(by=arb_b, name="Serata vuota", slug="empty-b", date=day, plan="M",
                               hands_per_round=4, vp_scale="vp20-4h", club=b)
    return list(Tournament.objects.order_by("club_id", "date", "id").values_list("pk", flat=True))


def one_by_one(ids):
    rows = []
    for pk in ids:
        t = Tournament.objects.select_related("club").get(pk=pk)
        rows += [row + [t.club.name, t.club.federation_code] for row in federation_file.result_rows(t)]
    return rows


@pytest.mark.slow  # three simulated evenings: about 15 s
def test_batched_period_rows_equal_each_tournaments_own_rows(clubs_world):
    ids = clubs_world
    assert len(ids) == 5
    batched = list(federation_file.period_result_rows(ids))
    assert batched == one_by_one(ids)
    # hand check of the penalised evening: pair 1 scored 12 VP − 2 = 10, pair 2 scored 8
    tied = [r for r in batched if r[10] == "Serata tied"]
    assert [(r[1], r[4], r[5], r[7]) for r in tied] == [
        ("Serra", 1, "", 10), ("Santoro", 1, "", 10), ("Neri", 2, "", 8), ("Gialli", 2, "", 8)]
    # 9 + 9 pairs × 2 players, 13 players, 2 pairs × 2 players; no row for the empty tournament
    assert len(batched) == 36 + 13 + 4
    # the order given is kept and an id no longer found is skipped
    assert list(federation_file.period_result_rows(ids[::-1] + [10**9])) == one_by_one(ids[::-1])


def test_pair_tournaments_are_read_together(django_user_model):
    """Ten one-round pair evenings cost the queries of one: their lateness entries too are
    read together (rules.md §22), not one query a tournament."""
    arb = django_user_model.objects.create_user(username="arb-a", password="x-Pass-1234")
    day = timezone.localdate() - datetime.timedelta(days=2)
    more = [pairs_evening(arb, f"more-{k}", day, [(("A", "B", ""), ("C", "D", "")), (("E", "F", ""), ("G", "H", ""))],
                          {1: 11, 2: 9}).pk for k in range(10)]
    with CaptureQueriesContext(connection) as few:
        list(federation_file.period_result_rows(more[:1]))
    with CaptureQueriesContext(connection) as many:
        list(federation_file.period_result_rows(more))
    assert len(many.captured_queries) == len(few.captured_queries)


def test_a_lateness_forfeit_counts_in_the_batched_rows(published, arbiter):
    """Pair 3 is 12 minutes late at table 1 (rules.md §22, four hands): pair 1 keeps +305 MP,
    pair 3 −705 (tests/rounds/test_lateness.py's hand values); table 2 is played 800–400
    (+400 / −400); pair 5 rests. The batched rows read the forfeit as the one-by-one ones."""
    record_lateness(round=published, pair_number=3, minutes=12, by=arbiter)
    services.save_score_sheet(table=published.tables.get(number=2), hands=[services.HandInput(ns=200, ew=100)] * 4,
                              by=arbiter, validate=True)
    services.close_round(round=published, by=arbiter)
    plain = pairs_evening(arbiter, "plain", published.tournament.date, [(("A", "B", ""), ("C", "D", "")),
                                                                        (("E", "F", ""), ("G", "H", ""))], {1: 11, 2: 9})
    ids = [published.tournament_id, plain.pk]
    rows = list(federation_file.period_result_rows(ids))
    assert rows == one_by_one(ids)
    difference = {r[6]: r[8] for r in rows if r[10] == published.tournament.name}
    assert (difference[1], difference[3], difference[2], difference[4]) == (305, -705, 400, -400)
