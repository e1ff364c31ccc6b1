"""Lateness (*ritardo*, rules.md §22), values by hand from the built-in scales
(scoring/data/vp_scales.json).

Five pairs, Mitchell round 1: pair 1 (N/S) v pair 3 (E/O) at table 1, pair 2 (N/S) v pair 4
(E/O) at table 2, pair 5 rests.

- 4 hands (vp20-4h): the present line scores 60 % of 20 = 12 VP; the band whose winner takes
  12 VP is 305–500, so 305 MP; the late line 6 VP, 0 MP, and the lower edge of the band
  whose loser takes 6 VP (705–900, 14–6): an MP difference of −705, not −305.
- 3 hands (vp20-3h): 70 % of 20 = 14 VP; the band giving 14 VP is 355–500: 355 MP; the
  late line's 6 VP are the same band's: −355.
- 7 minutes late: 100 MP off the pair's MP difference, never off the table's result.
"""
import datetime
from decimal import Decimal

import pytest

from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Penalty, ScoreSheet
from tournaments.services.lateness import record_lateness, undo_lateness


def table_of(rnd, number):
    return rnd.tables.get(number=number)


def sheet(rnd, number):
    return ScoreSheet.objects.get(table=table_of(rnd, number))


def test_forfeit_in_a_four_hand_round(published, arbiter):
    out = record_lateness(round=published, pair_number=3, minutes=12, by=arbiter)
    assert out["kind"] == "forfeit"
    s = sheet(published, 1)
    assert (s.vp_ns, s.vp_ew, s.mp_ns, s.mp_ew) == (Decimal("12"), Decimal("6"), 305, 0)
    assert s.arbitral and s.arbitral_note.startswith("ritardo 12 min")
    assert AuditEntry.objects.filter(action="lateness", round_number=1, table_number=1).count() == 1


@pytest.fixture
def three_hands(db, arbiter, make_pairs):
    t = services.create_tournament(by=arbiter, name="Tre smazzate", slug="tre", date=datetime.date(2026, 11, 30),
                                   plan="M", hands_per_round=3, vp_scale="vp20-3h")
    make_pairs(t, 5)
    rnd = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    rnd.refresh_from_db()
    return rnd


def test_forfeit_in_a_three_hand_round_late_pair_north_south(three_hands, arbiter):
    record_lateness(round=three_hands, pair_number=1, minutes=11, by=arbiter)
    s = sheet(three_hands, 1)
    assert (s.vp_ns, s.vp_ew, s.mp_ns, s.mp_ew) == (Decimal("6"), Decimal("14"), 0, 355)


def test_the_forfeit_is_undone_until_the_round_closes(published, arbiter):
    record_lateness(round=published, pair_number=3, minutes=15, by=arbiter)
    with pytest.raises(ArbiterError, match="già registrato"):
        record_lateness(round=published, pair_number=3, minutes=20, by=arbiter)
    undo_lateness(round=published, pair_number=3, by=arbiter)
    s = sheet(published, 1)
    assert (s.state, s.arbitral, s.vp_ns, s.mp_ns) == (ScoreSheet.State.EMPTY, False, Decimal("0"), 0)
    record_lateness(round=published, pair_number=3, minutes=20, by=arbiter)  # recorded again
    assert AuditEntry.objects.filter(action="lateness_undone").count() == 1


def test_the_five_minute_penalty_in_the_standings(published, arbiter):
    """Pair 2 is 7 minutes late: −100 MP. Table 2 ends 200–100 a hand, 4 hands: 800–400, a
    difference of 400 (band 305–500: 12–8 VP). Pair 2's MP difference: 400 − 100 = 300; its VP
    stay 12; the table's result is untouched."""
    record_lateness(round=published, pair_number=2, minutes=7, by=arbiter)
    penalty = Penalty.objects.get(pair__number=2)
    assert (penalty.mp, penalty.reason, penalty.round_number) == (100, "ritardo 7 min", 1)
    for table in published.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=[services.HandInput(ns=200, ew=100)] * 4, by=arbiter,
                                  validate=True)
    services.close_round(round=published, by=arbiter)
    rows = {r.pair: r for r in selectors.standings_after(published.tournament).rows}
    assert rows[2].mp_difference == 300 and rows[2].vp == Decimal("12")
    assert rows[4].mp_difference == -400
    assert (sheet(published, 2).mp_ns, sheet(published, 2).mp_ew) == (800, 400)
    with pytest.raises(ArbiterError, match="chiuso"):
        undo_lateness(round=published, pair_number=2, by=arbiter)


def test_the_penalty_is_undone(published, arbiter):
    record_lateness(round=published, pair_number=4, minutes=6, by=arbiter)
    undo_lateness(round=published, pair_number=4, by=arbiter)
    assert not Penalty.objects.exists()


def test_refusals(published, arbiter):
    for minutes, text in [(5, "Entro 5 minuti"), ("tanti", "minuti di ritardo"), (0, "minuti di ritardo")]:
        with pytest.raises(ArbiterError, match=text):
            record_lateness(round=published, pair_number=1, minutes=minutes, by=arbiter)
    with pytest.raises(ArbiterError, match="non gioca"):
        record_lateness(round=published, pair_number=5, minutes=12, by=arbiter)  # pair 5 rests
    services.save_score_sheet(table=table_of(published, 1), hands=[services.HandInput(ns=200, ew=100)] * 4,
                              by=arbiter)
    with pytest.raises(ArbiterError, match="già compilato"):
        record_lateness(round=published, pair_number=1, minutes=12, by=arbiter)
    with pytest.raises(ArbiterError, match="Nessun ritardo"):
        undo_lateness(round=published, pair_number=1, by=arbiter)


def test_from_the_round_page(published, arbiter_client):
    from django.urls import reverse

    page = arbiter_client.get(reverse("round", kwargs={"slug": "prova", "number": 1})).content.decode()
    assert 'id="lateness-form"' in page
    url = reverse("round_lateness", kwargs={"slug": "prova", "number": 1})
    r = arbiter_client.post(url, {"pair": "3", "minutes": "12"}, follow=True)
    assert "partita persa a tavolino" in r.content.decode()
    assert sheet(published, 1).vp_ns == Decimal("12")
    r = arbiter_client.post(url, {"pair": "3", "undo": "1"}, follow=True)
    assert "annullato" in r.content.decode() and not sheet(published, 1).arbitral
    r = arbiter_client.post(url, {"pair": "3", "minutes": "4"}, follow=True)
    assert "Entro 5 minuti" in r.content.decode()
    audit_page = arbiter_client.get(reverse("audit", kwargs={"slug": "prova"})).content.decode()
    assert "Ritardo" in audit_page


def test_the_players_page_names_the_forfeit_ritardo(published, arbiter):
    """After the round closes, pair 3's and pair 1's round 1 is marked «ritardo»; pair 2's
    (played) is not."""
    from tournaments.public import pages

    record_lateness(round=published, pair_number=3, minutes=12, by=arbiter)
    services.save_score_sheet(table=table_of(published, 2), hands=[services.HandInput(ns=200, ew=100)] * 4,
                              by=arbiter, validate=True)
    services.close_round(round=published, by=arbiter)
    t = published.tournament
    late = {n: pages.pair_rounds(t, t.pairs.get(number=n, round__isnull=True))[1][0].late for n in (1, 2, 3)}
    assert late == {1: True, 2: False, 3: True}
    _next, played = pages.pair_rounds(t, t.pairs.get(number=3, round__isnull=True))
    assert (played[0].vp, played[0].mp_for, played[0].mp_against) == (Decimal("6"), 0, 705)
    _next, played = pages.pair_rounds(t, t.pairs.get(number=1, round__isnull=True))
    assert (played[0].vp, played[0].mp_for, played[0].mp_against) == (Decimal("12"), 305, 0)


def test_the_standings_list_the_latenesses(published, arbiter, arbiter_client):
    from django.urls import reverse

    record_lateness(round=published, pair_number=2, minutes=7, by=arbiter)
    record_lateness(round=published, pair_number=3, minutes=12, by=arbiter)
    record_lateness(round=published, pair_number=4, minutes=8, by=arbiter)
    undo_lateness(round=published, pair_number=4, by=arbiter)
    services.save_score_sheet(table=table_of(published, 2), hands=[services.HandInput(ns=200, ew=100)] * 4,
                              by=arbiter, validate=True)
    services.close_round(round=published, by=arbiter)
    page = arbiter_client.get(reverse("standings", kwargs={"slug": "prova"})).content.decode()
    assert "Turno 1, coppia 2: ritardo di 7 minuti, penalità di 100 MP" in page
    assert "Turno 1, coppia 3: ritardo di 12 minuti, partita persa a tavolino (tavolo 1)" in page
    assert "coppia 4: ritardo" not in page


def _close_with_table_2_played(rnd, arbiter):
    services.save_score_sheet(table=table_of(rnd, 2), hands=[services.HandInput(ns=200, ew=100)] * 4,
                              by=arbiter, validate=True)
    services.close_round(round=rnd, by=arbiter)


def test_four_hand_forfeit_standings_give_each_line_its_own_band_edge(published, arbiter):
    """Pair 3 (E/O, table 1) 12 minutes late in a four-hand round: pair 1 scores 12 VP and
    +305 (the band 305–500 where the winner takes 12), pair 3 scores 6 VP and −705 (the band
    705–900 where the loser takes 6), not the −305 one MP gap would give."""
    record_lateness(round=published, pair_number=3, minutes=12, by=arbiter)
    _close_with_table_2_played(published, arbiter)
    rows = {r.pair: r for r in selectors.standings_after(published.tournament).rows}
    assert (rows[1].vp, rows[1].mp_difference, rows[1].mp_scored) == (Decimal("12"), 305, 305)
    assert (rows[3].vp, rows[3].mp_difference, rows[3].mp_scored) == (Decimal("6"), -705, 0)
    assert rows[2].mp_difference == 400 and rows[4].mp_difference == -400  # 800–400 played


def test_three_hand_forfeit_standings(three_hands, arbiter):
    """Three hands: pair 1 (N/S, table 1) late; pair 3 scores 14 VP and +355, pair 1 6 VP and
    −355 (both in the band 355–500, 14–6)."""
    record_lateness(round=three_hands, pair_number=1, minutes=11, by=arbiter)
    services.save_score_sheet(table=table_of(three_hands, 2), hands=[services.HandInput(ns=200, ew=100)] * 3,
                              by=arbiter, validate=True)
    services.close_round(round=three_hands, by=arbiter)
    rows = {r.pair: r for r in selectors.standings_after(three_hands.tournament).rows}
    assert (rows[3].vp, rows[3].mp_difference) == (Decimal("14"), 355)
    assert (rows[1].vp, rows[1].mp_difference) == (Decimal("6"), -355)


def test_a_forfeit_the_arbiter_changed_by_hand_counts_as_his_score(published, arbiter):
    """The arbiter overwrites the forfeit with 8 VP to pair 3 (the source's «6 o 8 VP»):
    his score counts as entered, 305–0 gives −305 again."""
    record_lateness(round=published, pair_number=3, minutes=12, by=arbiter)
    services.set_arbitral_score(table=table_of(published, 1), by=arbiter, vp_ns=12, vp_ew=8, mp_ns=305, mp_ew=0,
                                reason="8 VP al ritardatario (formato del turno)")
    _close_with_table_2_played(published, arbiter)
    rows = {r.pair: r for r in selectors.standings_after(published.tournament).rows}
    assert (rows[3].vp, rows[3].mp_difference) == (Decimal("8"), -305)


def test_the_players_page_json_carries_the_late_flag(published, arbiter):
    from tournaments.public import pages

    record_lateness(round=published, pair_number=3, minutes=12, by=arbiter)
    _close_with_table_2_played(published, arbiter)
    t = published.tournament
    _next, played = pages.pair_rounds(t, t.pairs.get(number=3, round__isnull=True))
    data = pages.round_json(played[0], t.kind)
    assert (data["late"], data["vp"], data["mp_for"], data["mp_against"]) == (True, 6, 0, 705)
    _next, played = pages.pair_rounds(t, t.pairs.get(number=2, round__isnull=True))
    assert pages.round_json(played[0], t.kind)["late"] is False


def test_the_form_reads_the_settings(published, arbiter_client, settings):
    from django.urls import reverse

    settings.ARBITRO_LATE_PENALTY_MP = 150
    page = arbiter_client.get(reverse("round", kwargs={"slug": "prova", "number": 1})).content.decode()
    # 4 hands: 60 % of 20 = 12 VP to those present
    assert "Oltre 5 minuti: penalità di 150 MP. Oltre 10 minuti: partita persa a tavolino (12 VP ai presenti, " \
           "6 VP al ritardatario, §22)." in page
    assert "100 MP" not in page


def test_the_registro_reads_ritardo(published, arbiter, arbiter_client):
    from django.urls import reverse

    record_lateness(round=published, pair_number=3, minutes=12, by=arbiter)
    record_lateness(round=published, pair_number=2, minutes=7, by=arbiter)
    page = arbiter_client.get(reverse("audit", kwargs={"slug": "prova"})).content.decode()
    assert ("ritardo di 12 minuti; coppia 3; partita persa a tavolino: tavolo 1: N/S 12 VP, scarto +305; "
            "E/O 6 VP, scarto −705") in page
    assert "ritardo di 7 minuti; coppia 2; penalità di 100 MP" in page
    assert "forfeit" not in page


def test_an_exported_and_imported_tournament_keeps_the_late_lines_difference(published, arbiter):
    """The differences travel with the audit trail: the copy's standings give pair 3 −705."""
    from tournaments import transfer

    record_lateness(round=published, pair_number=3, minutes=12, by=arbiter)
    _close_with_table_2_played(published, arbiter)
    copy = transfer.import_tournament(data=transfer.export_tournament(published.tournament), slug="copia").tournament
    rows = {r.pair: r for r in selectors.standings_after(copy).rows}
    assert (rows[3].vp, rows[3].mp_difference, rows[1].mp_difference) == (Decimal("6"), -705, 305)


@pytest.mark.parametrize("number", ["9" * 30, "②", "3\x00", ""])
def test_a_bad_number_gets_a_sentence(published, arbiter_client, number):
    from django.urls import reverse

    url = reverse("round_lateness", kwargs={"slug": "prova", "number": 1})
    r = arbiter_client.post(url, {"pair": number, "minutes": "12"}, follow=True)
    assert r.status_code == 200 and "non gioca a un tavolo" in r.content.decode()
    r = arbiter_client.post(url, {"pair": "3", "minutes": number}, follow=True)
    assert r.status_code == 200 and "minuti di ritardo" in r.content.decode()
    r = arbiter_client.post(url, {"pair": number, "undo": "1"}, follow=True)
    assert r.status_code == 200 and "Nessun ritardo registrato" in r.content.decode()
