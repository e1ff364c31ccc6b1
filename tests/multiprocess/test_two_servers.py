"""Two server processes, one PostgreSQL database.

Two ``manage.py serve`` (waitress) processes, A and B, serve the test database at the same
time, as a hosted setup's workers do behind the reverse proxy. Captains' phones and the
arbiter send their writes to both at once; the database alone must keep them apart:

- two N/S phones (one on A, one on B) save the same table from the same version at the same
  moment: exactly one save is stored (200), the other hears "changed by another device"
  (409); the stored hands are the winner's; one ``sheet_saved`` entry;
- the arbiter (on A) and a N/S captain (on B) enter the same empty table at once: one wins;
- the E/W captain confirms (on B) while the arbiter validates (on A): both or one apply, in
  some order; the version counts exactly the writes the audit trail records;
- wrong PINs sent through A and B together lock the table after exactly
  ``TABLE_MAX_WRONG`` counted tries, and the lock is seen through both servers;
- unknown tokens sent through A and B count in one shared rate limit (``GUESS_RATE``).

Runs only on PostgreSQL (``DATABASE_URL=postgres://…``, as ``make test`` does through
``scripts/with-postgres.sh``); on SQLite it is skipped with the reason.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.multiprocess.helpers import HOST, POSTGRES, Phone, arbiter_phone, released_together

# The benchmark's server helpers (a free loopback port, waiting for a started server): the
# module imports only the standard library at load time; Django is set up in its functions.


pytestmark = [
    pytest.mark.skipif(not POSTGRES, reason="needs PostgreSQL (DATABASE_URL=postgres://…): "
                                            "two server processes share one database server"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # two server processes
]

HANDS_A = [[600, 200], [400, 150], [250, 300], [300, 195]]
HANDS_B = [[500, 100], [350, 250], [200, 400], [310, 205]]


# --------------------------------------------------------------------------- HTTP


# --------------------------------------------------------------------------- the test


def test_two_processes_lose_double_and_overwrite_nothing(servers, room):
    from tournaments.captains.pins import TABLE_MAX_WRONG
    from tournaments.models import AuditEntry, PinGuard, ScoreSheet

    a, b = servers
    tournament, rnd, tables, session = room

    def race_two_captains(number: int):
        """Two N/S phones, on A and on B, save the same table from version 0 at once;
        then the E/W phone confirms on the loser's server."""
        token = tables[number].token
        phone_a, phone_b = Phone(a), Phone(b)
        seen_a, seen_b = phone_a.open_sheet(token), phone_b.open_sheet(token)
        answers = released_together(
            lambda: phone_a.post_json(f"/c/{token}/salva/", {"line": "ns", "hands": HANDS_A, "declared": None,
                                                            "version": seen_a["version"]}),
            lambda: phone_b.post_json(f"/c/{token}/salva/", {"line": "ns", "hands": HANDS_B, "declared": None,
                                                            "version": seen_b["version"]}),
        )
        statuses = sorted(s for s, _ in answers)
        winner = HANDS_A if answers[0][0] == 200 else HANDS_B
        confirm_port = b if answers[0][0] == 200 else a
        ew = Phone(confirm_port)
        sheet = ew.open_sheet(token)
        confirmed = ew.post_json(f"/c/{token}/conferma/", {"line": "ew", "version": sheet["version"]})
        return number, statuses, winner, confirmed[0]

    def race_arbiter_and_captain(number: int):
        """The arbiter (on A) and the N/S captain (on B) enter the same empty table at once."""
        token = tables[number].token
        boss, captain = arbiter_phone(a, session), Phone(b)
        seen = captain.open_sheet(token)
        grid = {"expected_version": "0", "action": "save"}
        for i, (ns, ew) in enumerate(HANDS_A, start=1):
            grid[f"h{i}_ns"], grid[f"h{i}_ew"] = str(ns), str(ew)
        answers = released_together(
            lambda: boss.post_form(f"/tornei/prova/turni/1/tavoli/{number}/", grid),
            lambda: captain.post_json(f"/c/{token}/salva/", {"line": "ns", "hands": HANDS_B, "declared": None,
                                                            "version": seen["version"]}),
        )
        return number, answers[0][0], answers[1][0]

    def race_confirm_and_validate(number: int):
        """Saved on A; then the E/W captain confirms on B while the arbiter validates on A."""
        token = tables[number].token
        ns = Phone(a)
        seen = ns.open_sheet(token)
        status, _ = ns.post_json(f"/c/{token}/salva/", {"line": "ns", "hands": HANDS_A, "declared": None,
                                                       "version": seen["version"]})
        assert status == 200
        ew, boss = Phone(b), arbiter_phone(a, session)
        sheet = ew.open_sheet(token)
        answers = released_together(
            lambda: ew.post_json(f"/c/{token}/conferma/", {"line": "ew", "version": sheet["version"]}),
            lambda: boss.post_form(f"/tornei/prova/turni/1/tavoli/{number}/valida/", {}),
        )
        return number, answers[0][0], answers[1][0]

    def wrong_pins(port: int, tries: int):
        phone = Phone(port)
        phone.request("GET", "/t/prova/pin/")
        right = tables[8].pin
        wrong = "0000" if right != "0000" else "1111"
        return [phone.post_form("/t/prova/pin/", {"table": "8", "pin": wrong})[0] for _ in range(tries)]

    with ThreadPoolExecutor(12) as pool:
        two_captains = [pool.submit(race_two_captains, n) for n in range(1, 6)]
        arbiter_vs_captain = [pool.submit(race_arbiter_and_captain, n) for n in (6, 7)]
        confirm_vs_validate = pool.submit(race_confirm_and_validate, 8)
        pins = [pool.submit(wrong_pins, port, 4) for port in (a, b)]
        two_captains = [f.result() for f in two_captains]
        arbiter_vs_captain = [f.result() for f in arbiter_vs_captain]
        confirm_vs_validate = confirm_vs_validate.result()
        pins = [f.result() for f in pins]

    def entries(number: int) -> list[str]:
        return list(AuditEntry.objects.filter(tournament=tournament, round_number=1, table_number=number)
                    .order_by("id").values_list("action", flat=True))

    def stored_hands(number: int) -> list[list[int]]:
        sheet = ScoreSheet.objects.get(table__round=rnd, table__number=number)
        return [[h.ns_score, h.ew_score] for h in sheet.hands.order_by("number")]

    # two captains, one sheet: one save stored, the other told (409); then confirmed once
    for number, statuses, winner, confirmed in two_captains:
        assert statuses == [200, 409], (number, statuses)
        assert confirmed == 200, number
        sheet = ScoreSheet.objects.get(table__round=rnd, table__number=number)
        assert (sheet.state, sheet.version) == (ScoreSheet.State.CONFIRMED, 2), number  # save, confirm
        assert stored_hands(number) == winner, number
        assert entries(number) == ["sheet_saved", "sheet_confirmed"], number

    # the arbiter and a captain enter one empty table: exactly one entry stored
    for number, arbiter_status, captain_status in arbiter_vs_captain:
        arbiter_won = arbiter_status == 302 and captain_status == 409
        captain_won = captain_status == 200 and arbiter_status == 409
        assert arbiter_won != captain_won, (number, arbiter_status, captain_status)
        sheet = ScoreSheet.objects.get(table__round=rnd, table__number=number)
        assert sheet.version == 1
        assert stored_hands(number) == (HANDS_A if arbiter_won else HANDS_B)
        assert entries(number) == ["sheet_saved"], number

    # confirm and validate together: each write that answered success is in the audit once,
    # and the version counts exactly those writes (save + the applied ones)
    number, confirm_status, validate_status = confirm_vs_validate
    sheet = ScoreSheet.objects.get(table__round=rnd, table__number=number)
    assert sheet.state == ScoreSheet.State.VALIDATED
    # (the wrong PINs below go to this table at the same time: their lockout entry may come
    # anywhere in its audit, so only the sheet's own entries are read here)
    log = [action for action in entries(number) if action.startswith("sheet_")]
    assert log[0] == "sheet_saved" and log.count("sheet_saved") == 1
    # validated before the other line confirmed is audited as such (the
    # confirm then comes too late); validated after the confirm, as a plain validation
    validated = "sheet_validated" if confirm_status == 200 else "sheet_validated_unconfirmed"
    assert log.count(validated) == 1, log
    assert log.count("sheet_validated") + log.count("sheet_validated_unconfirmed") == 1, log
    assert log.count("sheet_confirmed") == (1 if confirm_status == 200 else 0)
    assert sheet.version == len([e for e in log if e.startswith("sheet_")])

    # 8 wrong PINs through two servers: exactly TABLE_MAX_WRONG (5) counted, then the table is
    # locked (423 for the rest), whichever server they went through
    statuses = sorted(pins[0] + pins[1])
    assert statuses == [400] * (TABLE_MAX_WRONG - 1) + [423] * (8 - TABLE_MAX_WRONG + 1), statuses
    guard = PinGuard.objects.get(table=tables[8])
    assert guard.wrong == TABLE_MAX_WRONG and guard.locked_at is not None
    assert PinGuard.objects.get(tournament=tournament, table__isnull=True).wrong == TABLE_MAX_WRONG
    assert AuditEntry.objects.filter(tournament=tournament, action="pin_table_locked").count() == 1
    # the right PIN is refused through both servers: the lock is in the database
    for port in (a, b):
        phone = Phone(port)
        phone.request("GET", "/t/prova/pin/")
        status, page = phone.post_form("/t/prova/pin/", {"table": "8", "pin": tables[8].pin})
        assert status == 423, (port, status)


def test_rate_limit_of_unknown_tokens_is_shared_by_both_processes(servers, room):
    """30 unknown tokens a minute per address (GUESS_RATE), counted in the database cache: 20
    guesses through A and 20 through B at once give exactly 30 × 404 and 10 × 429 — with one
    counter per process each would have stayed under 30."""
    import zlib

    from tournaments.captains.access import GUESS_RATE

    a, b = servers
    assert GUESS_RATE == "30/m"
    # stay within one window of the limiter (django-ratelimit's windows end at a per-key
    # offset within the minute): wait for a new one when less than 20 s are left
    ts = int(time.time())
    ends = ts - (ts % 60) + (zlib.crc32(HOST.encode()) % 60)
    ends = ends + 60 if ends < ts else ends
    if ends - ts < 20:
        time.sleep(ends - ts + 1)

    def guesses(port: int, k: int):
        phone = Phone(port)
        return [phone.request("GET", f"/c/nessuno-{port}-{k}-{i}/", headers={"Accept": "text/html"})[0]
                for i in range(10)]

    with ThreadPoolExecutor(4) as pool:
        results = [f.result() for f in [pool.submit(guesses, port, k) for port in (a, b) for k in (1, 2)]]
    statuses = sorted(s for r in results for s in r)
    assert statuses == [404] * 30 + [429] * 10
