"""Sheet versions: a captain's save carries the version its phone saw, so a lost answer sent
again is accepted, an edit after a lost answer too (``last_sent``), and an edit over another
phone's sheet is answered 409; the live board's "Valida" posts the version it showed and is
answered 409 with the current sheet when the captains changed it since.

Hands of the vp20-4h scale by hand: N/S 600+400+250+300 = 1550 MP, E/O 200+150+300+195 =
845 MP (EDITED: 850 MP).
"""
import json

from django.urls import reverse

from tournaments.models import AuditEntry, ScoreSheet

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]
EDITED = [[600, 200], [400, 150], [250, 300], [300, 200]]     # hand 4 E/O 195 → 200


def save(client, table, body):
    return client.post(reverse("captain_save", args=[table.token]), data=json.dumps(body),
                       content_type="application/json")


def body(hands=HANDS, version=0, line="ns", **extra):
    return {"line": line, "hands": hands, "version": version, "declared": None, **extra}


def test_captain_save_without_version_is_refused(client, tables):
    t = tables[3]
    response = save(client, t, {"line": "ns", "hands": HANDS})
    assert response.status_code == 400
    assert "versione" in response.json()["error"]
    assert ScoreSheet.objects.get(table=t).state == ScoreSheet.State.EMPTY


def test_lost_answer_resent_with_old_version_succeeds(client, tables):
    t = tables[1]
    assert save(client, t, body()).status_code == 200          # answer lost on the way back
    response = save(client, t, body())                          # same content, version 0 again
    assert response.status_code == 200
    assert response.json()["sheet"]["version"] == 1
    assert AuditEntry.objects.filter(action__startswith="sheet_", table_number=1).count() == 1


def test_edit_after_lost_answer_was_refused_as_another_phone(client, tables):
    """Regression: the phone saved HANDS (answer lost, still at version 0), the captain
    corrected hand 4 and saved again: 409 "updated by another phone" although the server
    held exactly what this phone had sent. With ``last_sent`` it is accepted."""
    t = tables[1]
    assert save(client, t, body()).status_code == 200          # server: version 1 = HANDS
    response = save(client, t, body(hands=EDITED, last_sent={"hands": HANDS, "declared": [None, None]}))
    assert response.status_code == 200, response.content
    sheet = response.json()["sheet"]
    assert sheet["version"] == 2 and sheet["mp"] == [1550, 850]


def test_edit_with_old_version_over_another_phones_sheet_is_still_409(client, other_client, tables):
    t = tables[1]
    assert save(other_client, t, body(hands=EDITED, line="ew")).status_code == 200   # the other phone
    response = save(client, t, body(last_sent={"hands": HANDS, "declared": [None, None]}))
    assert response.status_code == 409
    assert response.json()["sheet"]["mp"] == [1550, 850]


def _confirmed(client, other_client, t):
    assert save(client, t, body()).status_code == 200
    response = other_client.post(reverse("captain_confirm", args=[t.token]), content_type="application/json",
                                 data=json.dumps({"line": "ew", "version": 1}))
    assert response.status_code == 200
    return ScoreSheet.objects.get(table=t).version


def test_board_validate_posts_the_version_seen(client, other_client, arbiter, tables):
    t = tables[2]
    seen = _confirmed(client, other_client, t)
    client.force_login(arbiter)
    rows = client.get(reverse("board_rows", args=["prova", 1])).content.decode()
    row = rows.split('id="t2"')[1].split("</tr>")[0]
    assert f'name="version" value="{seen}"' in row
    response = client.post(reverse("board_validate", args=["prova", 1, 2]), {"version": seen})
    assert response.status_code == 302
    assert ScoreSheet.objects.get(table=t).state == ScoreSheet.State.VALIDATED


def test_board_validate_after_captains_change_is_409_with_current_sheet(client, other_client, arbiter, tables):
    t = tables[3]
    assert save(client, t, body()).status_code == 200           # board shows version 1
    assert save(client, t, body(hands=EDITED, version=1)).status_code == 200   # captain changes: version 2
    client.force_login(arbiter)
    response = client.post(reverse("board_validate", args=["prova", 1, 3]), {"version": 1})
    assert response.status_code == 409
    html = response.content.decode()
    assert "cambiato dopo che" in html and "1550–850" in html
    assert ScoreSheet.objects.get(table=t).state == ScoreSheet.State.ENTERED


def test_board_validate_without_version_is_400(client, arbiter, tables):
    t = tables[3]
    assert save(client, t, body()).status_code == 200
    client.force_login(arbiter)
    response = client.post(reverse("board_validate", args=["prova", 1, 3]))
    assert response.status_code == 400
    assert ScoreSheet.objects.get(table=t).state == ScoreSheet.State.ENTERED
