"""Sessions in the plan (``MMD|DD`` = five rounds, two sessions).

Expected seatings are worked by hand from pairing-io.md: N pairs, T = ceil(N/2); N odd:
N/S line pairs 1..T-1, the phantom N/S at table T, E/W line T..N; the E/W pair at index i
sits at table ((i + offset) mod T) + 1, offset = the steps of the Mitchell moves so far.
VP from the 4-hand scale (vp20-4h): 0–100 10–10, 2005 and more 20–0; a rest scores 70 %
of 20 = 14 VP (rules.md §5).
"""
import datetime
import json
import subprocess

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.forms_data import tournament_settings
from tests.tournaments.helpers import crush, play_round, seating, with_plan
from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.kinds._pair_requests import mitchell_offset
from tournaments.models import Tournament
from tournaments.printing import documents


def pdf_text(content):
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=content, capture_output=True,
                          check=True).stdout.decode()


# -- the plan ---------------------------------------------------------------------------------
def test_plan_with_sessions_counts_rounds_not_bars(tournament, arbiter):
    with_plan(tournament, arbiter, "MMD|DD")
    assert tournament.rounds_planned == 5 and tournament.sessions_planned == 2
    assert [tournament.system_of_round(n) for n in range(1, 6)] == [
        "mitchell", "mitchell", "danish", "danish", "danish"]
    assert [tournament.session_of_round(n) for n in range(1, 6)] == [1, 1, 1, 2, 2]
    assert tournament.session_start(5) == 4 and tournament.session_start(3) == 1


@pytest.mark.parametrize("plan, sentence", [
    ("|MM", "Il piano non può iniziare con |"),
    ("MM|", "Il piano non può finire con |"),
    ("MM||DD", "Il piano ha due | di seguito: ogni sessione deve avere almeno un turno"),
    ("MMX", "«X» non è ammesso"),
    ("MDA|D", "«A» non è ammesso"),
])
def test_malformed_plans_are_refused_with_plain_sentences(arbiter, plan, sentence):
    with pytest.raises(ArbiterError) as err:
        services.create_tournament(by=arbiter, name="Coppa", slug="coppa", date=datetime.date(2026, 12, 1),
                                   plan=plan)
    assert sentence in err.value.message
    assert not Tournament.objects.filter(slug="coppa").exists()


settings_data = tournament_settings


def test_settings_page_accepts_sessions_and_refuses_an_empty_session(arbiter_client, tournament):
    url = reverse("tournament_edit", args=[tournament.slug])
    resp = arbiter_client.post(url, settings_data(tournament, plan="mmd|dd"))
    assert resp.status_code == 302
    tournament.refresh_from_db()
    assert tournament.plan == "MMD|DD"
    resp = arbiter_client.post(url, settings_data(tournament, plan="MM||DD"))
    body = resp.content.decode()
    assert resp.status_code == 200 and "ogni sessione deve avere almeno un turno" in body
    assert 'value="MM||DD"' in body  # what the arbiter typed is kept
    tournament.refresh_from_db()
    assert tournament.plan == "MMD|DD"
    # the tournament page lists the rounds under their session
    body = arbiter_client.get(reverse("tournament", args=[tournament.slug])).content.decode()
    assert body.index("Sessione 1") < body.index("Sessione 2")


def round_1_scores(ns, ew):
    """Round 1 of the five-pair tests: table 1 (1–3) 0–1905 → 1: 1 VP, 3: 19 VP; table 2
    (2–4) 2005–0 → 2: 20 VP, 4: 0 VP."""
    return {(1, 3): (0, 1905), (2, 4): (2005, 0)}[(ns, ew)]


def play_md_md_rounds_1_to_3(tournament, arbiter):
    """Rounds 1–3 of the docstring of :func:`test_session_split_moves_the_rest_rule`."""
    r1 = services.generate_round(tournament=tournament, by=arbiter)
    assert seating(r1) == ({1: (1, 3), 2: (2, 4)}, 5, [])
    play_round(r1, arbiter, round_1_scores)
    r2 = services.generate_round(tournament=tournament, by=arbiter)
    assert r2.pairing_request["rested"] == [5]
    assert seating(r2) == ({1: (2, 3), 2: (5, 1)}, 4, [])
    play_round(r2, arbiter)
    r3 = services.generate_round(tournament=tournament, by=arbiter)
    return r3


def test_session_split_moves_the_rest_rule(md_md, arbiter):
    """5 pairs, MD|MD (rounds 1–2 session 1, rounds 3–4 session 2), worked by hand.

    Round 1 Mitchell (T = 3, N/S 1, 2, phantom at table 3, E/W 3, 4, 5): 1–3, 2–4, pair 5
    rests (14). 1–3: 0–1905 (1: 1, 3: 19); 2–4: 2005–0 (2: 20, 4: 0).
    Standings: 2 (20), 3 (19), 5 (14), 1 (1), 4 (0).
    Round 2 Danish, session 1, rested {5}: the lowest-ranked pair not rested is 4, and
    without it 2, 3, 5, 1 pair up without a rematch: 4 rests. Top-down: 2–3 (2–5 would
    leave 1–3, met), then 5–1. All draws: 2: 30, 3: 29, 5: 24, 4: 14, 1: 11.
    Round 3 Mitchell = movement round 2 (offset 1: the movement goes on): E/W index 0 (3)
    → table 2, index 1 (4) → table 3 = phantom (rests), index 2 (5) → table 1: 1–5, 2–3,
    pair 4 rests. A new session: pair 4 rested in round 2 but not in *this* session, so it
    rests again, no exchange (in one session §5 would move the rest: see the next test).
    1–5: 2005–0 (1: 31, 5: 24), 2–3 draws (2: 40, 3: 39); 4: 14 + 14 = 28.
    Round 4 Danish, session 2, rested {4}. From the bottom: 5 (24) has not rested in this
    session, and without it 1–2 and 3–4 are still unmet (met: 1–3, 2–4, 2–3, 1–5): pair 5
    rests, though it rested in round 1. (Counting rests over the whole tournament would
    skip 5 and 4 and rest pair 1.)
    """
    r3 = play_md_md_rounds_1_to_3(md_md, arbiter)
    assert r3.pairing_request["rested"] == []  # nobody rested yet in session 2
    assert r3.pairing_request["round"] == 2 and r3.pairing_request["offset"] == 1
    assert seating(r3) == ({1: (1, 5), 2: (2, 3)}, 4, [])
    assert r3.check_report == []
    play_round(r3, arbiter, crush(5))
    rows = {r.pair: r.vp for r in selectors.standings_after(md_md, 3).rows}
    assert rows == {1: 31, 2: 40, 3: 39, 4: 28, 5: 24}
    r4 = services.generate_round(tournament=md_md, by=arbiter)
    assert r4.pairing_request["rested"] == [4]
    assert seating(r4) == ({1: (2, 1), 2: (3, 4)}, 5, [])


def test_without_a_session_bar_the_same_rest_is_moved(five, arbiter):
    """The control of the test above: MDMD is one session. In round 3 the movement gives
    the rest to pair 4, which rested in round 2: rules.md §5 moves it to the lowest-ranked
    pair that has not rested, pair 1 (11 VP; 5 and 4 rested), and pair 4 takes its seat."""
    with_plan(five, arbiter, "MDMD")
    r3 = play_md_md_rounds_1_to_3(five, arbiter)
    assert r3.pairing_request["rested"] == [4, 5]
    assert seating(r3)[1] == 1


def test_standings_run_across_sessions(md_md, arbiter):
    """The four rounds of the rest test, round 4 (2–1, 3–4, pair 5 rests) all draws: the
    final standings count every round of both sessions. By hand: 2: 20 + 10 + 10 + 10 = 50;
    3: 19 + 10 + 10 + 10 = 49; 1: 1 + 10 + 20 + 10 = 41; 4: 0 + 14 + 14 + 10 = 38;
    5: 14 + 10 + 0 + 14 = 38. Every round hands out 20 + 20 + 14 = 54 VP, 216 in all."""
    play_round(play_md_md_rounds_1_to_3(md_md, arbiter), arbiter, crush(5))
    play_round(services.generate_round(tournament=md_md, by=arbiter), arbiter)
    view = selectors.standings_after(md_md, 4)
    assert view.final
    assert {r.pair: r.vp for r in view.rows} == {1: 41, 2: 50, 3: 49, 4: 38, 5: 38}
    rests = {r.pair: r.rests for r in view.rows}
    assert rests == {1: 0, 2: 0, 3: 0, 4: 2, 5: 2}
    assert sum(r.vp for r in view.rows) == 216


# -- the Mitchell movement continues across sessions --------------------------------------------
def test_mitchell_movement_continues_across_sessions(tournament, make_pairs, arbiter):
    """9 pairs, MM|M: T = 5, N/S 1–4, phantom N/S at table 5, E/W 5–9. Round 3 opens
    session 2 but is movement round 3: offset 2 (not 0). E/W index i → table
    ((i + 2) mod 5) + 1: 5 → 3, 6 → 4, 7 → 5 (phantom: rests), 8 → 1, 9 → 2."""
    make_pairs(tournament, 9)
    with_plan(tournament, arbiter, "MM|M")
    for _ in range(2):
        play_round(services.generate_round(tournament=tournament, by=arbiter), arbiter)
    assert mitchell_offset(tournament, 3) == 2
    r3 = services.generate_round(tournament=tournament, by=arbiter)
    assert r3.pairing_request["round"] == 3 and r3.pairing_request["offset"] == 2
    assert seating(r3) == ({1: (1, 8), 2: (2, 9), 3: (3, 5), 4: (4, 6)}, 7, [])


# -- adding a session to a running tournament ----------------------------------------------------
def test_a_session_is_appended_while_rounds_are_played(arbiter_client, arbiter, five):
    """Plan MD, round 1 closed and round 2 drafted: the arbiter appends |MD for a second
    afternoon. Rounds 1–2 keep their system and session; rounds 3–4 form session 2.
    Changing a generated round (M|D: round 2 moved to session 2; MM: round 2 Mitchell) is
    refused with a sentence, the plan unchanged and the typed value kept on the page."""
    with_plan(five, arbiter, "MD")
    play_round(services.generate_round(tournament=five, by=arbiter), arbiter, crush(4))
    services.generate_round(tournament=five, by=arbiter)  # round 2: a draft
    url = reverse("tournament_edit", args=[five.slug])
    for bad in ("M|D|MD", "MM|MD", "M"):
        resp = arbiter_client.post(url, settings_data(five, plan=bad))
        body = resp.content.decode()
        assert resp.status_code == 200, bad
        assert "Il piano può cambiare solo dopo l&#x27;ultimo turno generato (turno 2)" in body, bad
        assert f'value="{bad}"' in body
        with pytest.raises(ArbiterError):  # the service refuses it too (defence in depth)
            services.update_tournament(tournament=five, by=arbiter, plan=bad)
    five.refresh_from_db()
    assert five.plan == "MD"
    assert arbiter_client.post(url, settings_data(five, plan="MD|MD")).status_code == 302
    five.refresh_from_db()
    assert five.plan == "MD|MD" and five.rounds_planned == 4
    assert five.audit.filter(action="tournament_updated", new__plan="MD|MD").exists()
    # the afternoon goes on: round 2 as drawn, then round 3 opens session 2 with its rest rule
    r2 = five.rounds.get(number=2)
    assert seating(r2)[1] == 4
    play_round(r2, arbiter, crush(5))
    r3 = services.generate_round(tournament=five, by=arbiter)
    assert r3.system == "mitchell" and five.session_of_round(3) == 2
    assert r3.pairing_request["rested"] == [] and seating(r3)[1] == 4


# -- the PDFs name the session ---------------------------------------------------------------------
def test_table_list_and_standings_pdfs_name_the_session(md_md, arbiter, arbiter_client):
    play_round(services.generate_round(tournament=md_md, by=arbiter), arbiter, crush(4))
    play_round(services.generate_round(tournament=md_md, by=arbiter), arbiter, crush(5))
    play_round(services.generate_round(tournament=md_md, by=arbiter), arbiter, crush(5))
    text3 = pdf_text(arbiter_client.get(reverse("tablelist_pdf", args=[md_md.slug, 3])).content)
    assert "Sessione 2" in text3 and "Sessione 1" not in text3
    assert "Sessione 1" in pdf_text(documents.tablelist_pdf(documents.round_document(md_md.rounds.get(number=2))))
    standings = pdf_text(arbiter_client.get(reverse("standings_pdf", args=[md_md.slug])).content)
    assert "Classifica dopo il turno 3" in standings and "Sessione 2" in standings


def test_a_one_session_tournament_prints_no_session(five, arbiter):
    with_plan(five, arbiter, "MD")
    play_round(services.generate_round(tournament=five, by=arbiter), arbiter)
    assert "Sessione" not in documents.tablelist_html(documents.round_document(five.rounds.get(number=1)))
    assert "Sessione" not in documents.standings_html(documents.standings_document(five))


# -- simulate --plan 'MMD|DD' ------------------------------------------------------------------------
def test_simulate_writes_the_session_of_each_round(db, data_dir, tmp_path):
    out = tmp_path / "sessions"
    call_command("simulate", "--registrations", str(data_dir / "registrations-9.csv"), "--plan", "MMD|DD",
                 "--hands", "4", "--seed", "12", "--out", str(out), "--name", "Due pomeriggi")
    data = json.loads((out / "results.json").read_text())
    assert data["tournament"]["plan"] == "MMD|DD" and data["tournament"]["sessions"] == 2
    assert [(r["number"], r["system"], r["session"]) for r in data["rounds"]] == [
        (1, "mitchell", 1), (2, "mitchell", 1), (3, "danish", 1), (4, "danish", 2), (5, "danish", 2)]
    assert (out / "tablelist-round-5.pdf").exists() and not (out / "tablelist-round-6.pdf").exists()
    # 9 pairs: one rest a round, nobody twice in a session (3 then 2 different pairs)
    rests = [r["bye"]["pair"] for r in data["rounds"]]
    assert len(set(rests[:3])) == 3 and len(set(rests[3:])) == 2
