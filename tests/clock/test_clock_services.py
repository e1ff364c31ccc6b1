"""Services of the round clock: each action audited, refusals with a
clear message, the clock kept in the database across a restart."""
import pytest

from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Round, ScoreSheet, Table


def remaining(rnd, table=None):
    rnd = Round.objects.get(pk=rnd.pk)      # read again: what a restarted server sees
    return selectors.clock.clock_json(rnd, table)["remaining"]


def test_start_uses_ten_minutes_a_hand_plus_two(published, arbiter, fake_now):
    # tournament default: 4 hands → 42 minutes = 2520 s
    services.start_clock(round=published, by=arbiter)
    assert remaining(published) == 2520
    fake_now.advance(600)
    assert remaining(published) == 1920
    entry = AuditEntry.objects.filter(action="clock_started").get()
    assert entry.round_number == 1 and entry.new["duration"] == 2520


def test_setting_minutes_per_round_is_the_clock(published, arbiter, fake_now):
    services.update_tournament(tournament=published.tournament, by=arbiter, minutes_per_round=35)
    assert remaining(published) == 2100            # before the start: the whole 35 minutes
    services.start_clock(round=published, by=arbiter)
    fake_now.advance(35 * 60 + 10)
    assert remaining(published) == -10


def test_restart_keeps_the_clock(published, arbiter, fake_now):
    services.start_clock(round=published, by=arbiter)
    fake_now.advance(300)
    services.pause_clock(round=published, by=arbiter)
    fake_now.advance(120)
    services.resume_clock(round=published, by=arbiter)
    fake_now.advance(60)
    # a new process: nothing in memory, only the row
    rnd = Round.objects.get(pk=published.pk)
    assert rnd.clock_started_at is not None and rnd.clock_paused_seconds == 120
    assert selectors.clock.clock_json(rnd)["remaining"] == 2520 - 360      # 300 + 60 played


def test_pause_when_not_running_is_refused(published, arbiter, fake_now):
    with pytest.raises(ArbiterError, match="non è in corsa"):
        services.pause_clock(round=published, by=arbiter)
    assert not AuditEntry.objects.filter(action="clock_paused").exists()


def test_start_twice_is_refused(published, arbiter, fake_now):
    services.start_clock(round=published, by=arbiter)
    with pytest.raises(ArbiterError, match="già partito"):
        services.start_clock(round=published, by=arbiter)


def test_resume_when_running_is_refused(published, arbiter, fake_now):
    services.start_clock(round=published, by=arbiter)
    with pytest.raises(ArbiterError, match="non è in pausa"):
        services.resume_clock(round=published, by=arbiter)


def test_clock_of_a_draft_round_is_refused(five, arbiter, fake_now):
    rnd = services.generate_round(tournament=five, by=arbiter)
    with pytest.raises(ArbiterError, match="turno pubblicato"):
        services.start_clock(round=rnd, by=arbiter)


def test_minutes_for_the_room_are_audited(published, arbiter, fake_now):
    services.start_clock(round=published, by=arbiter)
    fake_now.advance(2520)
    services.add_clock_minutes(round=published, minutes=3, by=arbiter)
    assert remaining(published) == 180
    entry = AuditEntry.objects.get(action="clock_minutes_added")
    assert entry.old == {"remaining": 0} and entry.new["remaining"] == 180 and entry.new["minutes"] == 3
    with pytest.raises(ArbiterError, match="tra 1 e 120"):
        services.add_clock_minutes(round=published, minutes=0, by=arbiter)


def test_extra_time_for_one_table(published, arbiter, fake_now):
    services.start_clock(round=published, by=arbiter)
    t1 = published.tables.get(number=1)
    t2 = published.tables.get(number=2)
    services.give_table_extra_time(table=t1, round=published, minutes=4, by=arbiter)
    fake_now.advance(2520)
    assert remaining(published, Table.objects.get(pk=t1.pk)) == 240
    assert remaining(published, Table.objects.get(pk=t2.pk)) == 0
    entry = AuditEntry.objects.get(action="clock_table_extra")
    assert entry.table_number == 1 and entry.new == {"extra_seconds": 240, "minutes": 4}


def test_extra_time_for_a_table_of_another_round_is_refused(published, arbiter, fake_now):
    services.give_table_extra_time  # noqa: B018
    other = Round.objects.create(tournament=published.tournament, number=2, system="danish")
    foreign = Table.objects.create(round=other, number=1)
    with pytest.raises(ArbiterError, match="non è del turno 1"):
        services.give_table_extra_time(table=foreign, round=published, minutes=2, by=arbiter)


def test_extra_time_for_a_rest_is_refused(published, arbiter, fake_now):
    rest = published.tables.exclude(bye="").get()
    with pytest.raises(ArbiterError, match="riposo"):
        services.give_table_extra_time(table=rest, round=published, minutes=2, by=arbiter)


def test_sheet_records_when_it_was_entered(published, arbiter, fake_now):
    services.start_clock(round=published, by=arbiter)
    fake_now.advance(2520 + 125)            # 2:05 over time
    t1 = published.tables.get(number=1)
    hands = [services.HandInput(ns=100, ew=50)] * 4
    services.save_score_sheet(table=t1, hands=hands, by=services.Actor(label="capitano N/S"))
    assert ScoreSheet.objects.get(table=t1).entered_clock_seconds == -125


def test_sheet_entered_before_the_clock_has_no_time(published, arbiter, fake_now):
    t1 = published.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=[services.HandInput(ns=100, ew=50)] * 4, by=arbiter)
    assert ScoreSheet.objects.get(table=t1).entered_clock_seconds is None
