"""How the round clock's times read (rules.md §10): a sheet entered "41:38 prima della fine"
or "+2:05 oltre il tempo", the Registro's "41:35 rimasti", never a bare minus sign or a count
of seconds."""
from __future__ import annotations

from django.urls import reverse
from django.utils import translation

from tournaments import services, wording


def test_entry_time_reads_before_the_end_or_over_time():
    assert wording.clock_entered_text(41 * 60 + 38) == "inserito 41:38 prima della fine"
    assert wording.clock_entered_text(0) == "inserito 0:00 prima della fine"
    assert wording.clock_entered_text(-125) == "+2:05 oltre il tempo"
    assert wording.clock_entered_text(None) == ""


def test_time_left_reads_minutes_and_seconds():
    assert wording.clock_left_text(2495) == "41:35 rimasti"
    assert wording.clock_left_text(-65) == "1:05 oltre il tempo"


def test_english_wording(english_catalogue):
    with translation.override("en"):
        assert wording.clock_entered_text(2498) == "entered 41:38 before the end"
        assert wording.clock_left_text(2495) == "41:35 left"


def test_registro_shows_the_time_left_when_paused(arbiter_client, arbiter, rnd, fake_now):
    services.start_clock(round=rnd, by=arbiter)      # 4 hands: 42:00 = 2520 s
    fake_now.advance(25)
    services.pause_clock(round=rnd, by=arbiter)      # 2520 − 25 = 2495 s = 41:35
    body = arbiter_client.get(reverse("audit", args=["prova"])).content.decode()
    assert "41:35 rimasti" in body
    assert "secondi rimasti" not in body and "2495" not in body
    assert "durata: 42:00" in body
