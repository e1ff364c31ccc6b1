"""Captain JSON bodies of the wrong shape get a sentence (400), never a 500 (rules of the
boundary: docs/security.md, "JSON bodies"). The examples are those a hostile
client sends: ``line`` as a list or an object, nesting thousands deep, a lone surrogate in a note."""
import json

import pytest
from django.urls import reverse

from tournaments.models import ScoreSheet

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]


def post_raw(client, name, table, body):
    data = body if isinstance(body, bytes) else body.encode("utf-8", "surrogatepass")
    return client.post(reverse(name, args=[table.token]), data=data,
                       content_type="application/json")


def post(client, name, table, payload):
    return post_raw(client, name, table, json.dumps(payload))


@pytest.mark.parametrize("name", ["captain_save", "captain_confirm", "captain_dispute"])
def test_line_of_the_wrong_shape_is_a_sentence(client, tables, name):
    for line in [["ns"], {"a": 1}, 1, None, True, "x" * 10000]:
        response = post(client, name, tables[1], {"line": line, "hands": HANDS, "version": 0, "note": "x"})
        assert response.status_code == 400, line
        assert "N/S" in response.json()["error"]


def test_call_with_a_line_of_the_wrong_shape_is_answered_not_a_500(client, tables):
    """«Chiama l'arbitro» (``/c/<token>/chiama/``) reads ``line`` only
    for the audit label: a list or an object (unhashable: ``line in LINES`` raised
    TypeError, a 500) labels the call by its table, as no line does."""
    from tournaments.models import AuditEntry

    for line in [["ns"], {"a": 1}, 1, None, True]:
        response = client.post(reverse("captain_call", args=[tables[1].token]),
                               data=json.dumps({"reason": "", "line": line}), content_type="application/json")
        assert response.status_code == 200, (line, response.content)
    assert AuditEntry.objects.get(action="arbiter_called").actor == "tavolo 1"


@pytest.mark.parametrize("name", ["captain_save", "captain_confirm", "captain_dispute", "captain_call"])
def test_nesting_thousands_deep_is_refused(client, tables, name):
    body = '{"line": "ns", "hands": ' + "[" * 100000 + "]" * 100000 + "}"
    response = post_raw(client, name, tables[1], body)
    assert response.status_code == 400
    assert response.json()["error"]


def test_nesting_a_few_levels_deep_is_still_read(client, tables):
    """A normal body nests three levels (the object, the hands, a hand): it passes."""
    response = post(client, "captain_save", tables[1], {"line": "ns", "hands": HANDS, "version": 0})
    assert response.status_code == 200, response.content


def test_lone_surrogate_in_a_dispute_note_is_dropped_and_the_rest_kept(client, other_client, tables):
    t = tables[2]
    assert post(client, "captain_save", t, {"line": "ns", "hands": HANDS, "version": 0}).status_code == 200
    body = '{"line": "ew", "version": 1, "note": "mano 3 \\ud800sbagliata\\u0007"}'
    response = post_raw(other_client, "captain_dispute", t, body)
    assert response.status_code == 200, response.content
    sheet = ScoreSheet.objects.get(table=t)
    assert sheet.state == ScoreSheet.State.DISPUTED
    assert sheet.dispute_note == "mano 3 sbagliata"


def test_note_made_only_of_control_characters_is_refused(client, other_client, tables):
    t = tables[2]
    post(client, "captain_save", t, {"line": "ns", "hands": HANDS, "version": 0})
    response = post_raw(other_client, "captain_dispute", t, '{"line": "ew", "version": 1, "note": "\\u0000\\ud800"}')
    assert response.status_code == 400
    assert ScoreSheet.objects.get(table=t).state == ScoreSheet.State.ENTERED


WRONG_FIELDS = [
    ("hands", {"a": 1}), ("hands", "1,2"), ("hands", [[{"a": 1}, 2]] * 4), ("hands", [[10**30, 0]] * 4),
    ("hands", [[1e300, 0]] * 4), ("hands", [[1.5, 0]] * 4), ("declared", [[1], [2]]), ("version", [1]),
    ("version", {"v": 1}), ("version", 10**30), ("version", "1" * 30),
]
IGNORED_FIELDS = [("declared", {"x": 1}), ("last_sent", {"hands": {"a": 1}}), ("last_sent", [1, 2])]


def test_save_with_a_field_of_the_wrong_shape_is_a_sentence(client, tables):
    for field, value in WRONG_FIELDS:
        response = post(client, "captain_save", tables[3], {"line": "ns", "hands": HANDS, "version": 0, field: value})
        assert response.status_code == 400, (field, value, response.content)
        assert response.json()["error"]
    assert ScoreSheet.objects.get(table=tables[3]).version == 0


def test_optional_fields_of_the_wrong_shape_are_ignored(client, tables):
    """``declared`` and ``last_sent`` are optional: a value of another shape counts as absent."""
    for field, value in IGNORED_FIELDS:
        response = post(client, "captain_save", tables[4], {"line": "ns", "hands": HANDS, "version": 0, field: value})
        assert response.status_code == 200, (field, value, response.content)


def test_thirty_digit_version_is_refused_with_a_sentence(client, tables):
    response = post(client, "captain_save", tables[3], {"line": "ns", "hands": HANDS, "version": 10**30})
    assert response.status_code in (400, 409)
    assert ScoreSheet.objects.get(table=tables[3]).version == 0


def test_body_that_is_not_an_object_is_a_sentence(client, tables):
    for body in ["[]", "null", "1", '"ns"', "{", b"\xff\xfe", '{"line": "ns"' + " " * 10, "9" * 5000]:
        response = post_raw(client, "captain_save", tables[1], body)
        assert response.status_code == 400, body
        assert response.json()["error"]


def test_body_beyond_the_size_cap_is_refused(client, tables):
    payload = {"line": "ns", "hands": HANDS, "version": 0, "pad": "x" * 200_000}
    response = post(client, "captain_save", tables[1], payload)
    assert response.status_code == 400
    assert ScoreSheet.objects.get(table=tables[1]).version == 0
