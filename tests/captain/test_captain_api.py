"""Captain link and JSON API: isolation per table, versioned and idempotent saves,
confirm/dispute by the other line, read-only after confirmation or closing, 404s, rate limits.

Expected VP come from the vp20-4h scale by hand: N/S 600+400+250+300 = 1550 MP,
E/O 200+150+300+195 = 845 MP, difference 705 → band 705–900 → 14–6.
"""
import json

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import AuditEntry, Round, ScoreSheet

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]
OTHER = [[100, 200], [100, 150], [100, 300], [100, 195]]


def post(client, name, table, body):
    return client.post(reverse(name, args=[table.token]), data=json.dumps(body), content_type="application/json")


def save(client, table, hands=HANDS, version=0, line="ns", declared=None):
    return post(client, "captain_save", table, {"line": line, "hands": hands, "version": version, "declared": declared})


def sheet_of(table):
    return ScoreSheet.objects.get(table=table)


def test_page_shows_both_lines_and_sets_csrf_cookie(client, tables):
    t = tables[3]
    response = client.get(reverse("captain", args=[t.token]))
    assert response.status_code == 200
    html = response.content.decode()
    assert t.ns.full_name in html and t.ew.full_name in html
    assert "csrftoken" in response.cookies
    assert 'id="captain-data"' in html


def test_save_computes_totals_and_vp_and_audits_table(client, tables):
    t = tables[3]
    response = save(client, t)
    assert response.status_code == 200, response.content
    data = response.json()["sheet"]
    assert data["mp"] == [1550, 845]
    assert data["vp"] == ["14", "6"]
    assert data["state"] == "entered" and data["entered_line"] == "ns"
    entry = AuditEntry.objects.get(action="sheet_saved")
    assert entry.table_number == 3 and entry.round_number == 1
    assert entry.actor == "capitano N/S tavolo 3" and entry.user is None and entry.at is not None


def test_link_of_table_3_cannot_touch_table_4(client, tables):
    t3, t4 = tables[3], tables[4]
    save(client, t4, hands=OTHER, line="ew")          # table 4 at version 1
    before = sheet_of(t4)
    # Table 4's version and data sent through table 3's link: only table 3 changes.
    body = {"line": "ns", "hands": HANDS, "version": 0, "table": 4, "token": t4.token}
    assert post(client, "captain_save", t3, body).status_code == 200
    after = sheet_of(t4)
    assert (after.version, after.content_hash, after.mp_ns) == (before.version, before.content_hash, before.mp_ns)
    assert sheet_of(t3).mp_ns == 1550
    # Table 4's version via table 3's link is refused (table 3 is now at version 1, 4 at 1: use 2).
    assert post(client, "captain_save", t3, {**body, "hands": OTHER, "version": 7}).status_code == 409
    # The state endpoint of table 3 shows table 3 only.
    state = client.get(reverse("captain_state", args=[t3.token])).json()["sheet"]
    assert state["hands"] == HANDS


def test_same_submission_twice_stores_one_sheet(client, tables):
    t = tables[2]
    assert save(client, t).status_code == 200
    second = save(client, t)   # the answer was lost: the phone sends the same sheet again
    assert second.status_code == 200
    sheet = sheet_of(t)
    assert sheet.version == 1
    assert AuditEntry.objects.filter(table_number=2, action__startswith="sheet_").count() == 1


def test_conflicting_saves_second_gets_409_with_current_sheet(client, tables):
    t = tables[1]
    assert save(client, t, hands=HANDS, version=0, line="ns").status_code == 200
    response = save(client, t, hands=OTHER, version=0, line="ew")   # E/O started from version 0 too
    assert response.status_code == 409
    payload = response.json()
    assert payload["error"]
    assert payload["sheet"]["hands"] == HANDS and payload["sheet"]["version"] == 1
    assert sheet_of(t).mp_ns == 1550


def test_other_line_confirms_then_link_is_read_only(client, other_client, tables):
    t = tables[1]
    save(client, t)
    # the line that entered cannot countersign its own sheet
    assert post(client, "captain_confirm", t, {"line": "ns", "version": 1}).status_code == 400
    response = post(other_client, "captain_confirm", t, {"line": "ew", "version": 1})
    assert response.status_code == 200
    assert response.json()["sheet"]["state"] == "confirmed" and response.json()["sheet"]["locked"]
    # the same confirmation re-sent is harmless
    assert post(other_client, "captain_confirm", t, {"line": "ew", "version": 1}).status_code == 200
    # nobody but the arbiter changes it now
    refused = save(client, t, hands=OTHER, version=2, line="ns")
    assert refused.status_code == 400
    assert sheet_of(t).mp_ns == 1550 and sheet_of(t).state == ScoreSheet.State.CONFIRMED


def test_confirm_of_an_old_version_is_refused(client, other_client, tables):
    t = tables[1]
    save(client, t)
    save(client, t, hands=OTHER, version=1)   # N/S corrects before E/O looked again
    response = post(other_client, "captain_confirm", t, {"line": "ew", "version": 1})
    assert response.status_code == 409
    assert response.json()["sheet"]["hands"] == OTHER
    assert sheet_of(t).state == ScoreSheet.State.ENTERED


def test_dispute_then_correct_then_confirm(client, other_client, tables):
    t = tables[2]
    save(client, t, hands=OTHER)
    assert post(other_client, "captain_dispute", t, {"line": "ew", "version": 1, "note": ""}).status_code == 400
    response = post(other_client, "captain_dispute", t, {"line": "ew", "version": 1, "note": "smazzata 1: 600 non 100"})
    assert response.status_code == 200 and response.json()["sheet"]["state"] == "disputed"
    assert sheet_of(t).dispute_note == "smazzata 1: 600 non 100"
    assert save(client, t, hands=HANDS, version=2).status_code == 200
    assert post(other_client, "captain_confirm", t, {"line": "ew", "version": 3}).status_code == 200
    sheet = sheet_of(t)
    assert sheet.state == ScoreSheet.State.CONFIRMED and sheet.confirmed_by == "capitano E/O tavolo 2"
    actions = list(AuditEntry.objects.filter(table_number=2).order_by("id").values_list("action", flat=True))
    assert actions == ["sheet_saved", "sheet_disputed", "sheet_corrected", "sheet_confirmed"]


def test_one_phone_cannot_enter_as_ns_then_confirm_as_ew(client, other_client, tables):
    """Regression: entering as N/S, switching the same phone to E/O and pressing
    "Confermo lo score" was accepted; the other line must countersign with its own phone."""
    t = tables[1]
    assert save(client, t, line="ns").status_code == 200
    assert client.get(reverse("captain_state", args=[t.token])).json()["sheet"]["saved_here"] is True
    assert other_client.get(reverse("captain_state", args=[t.token])).json()["sheet"]["saved_here"] is False
    for name, body in (("captain_confirm", {}), ("captain_dispute", {"note": "non torna"})):
        refused = post(client, name, t, {"line": "ew", "version": 1, **body})
        assert refused.status_code == 400
        assert refused.json()["error"] == "Lo score va confermato dall'altra linea, con un altro telefono."
    assert sheet_of(t).state == ScoreSheet.State.ENTERED and sheet_of(t).version == 1
    accepted = post(other_client, "captain_confirm", t, {"line": "ew", "version": 1})
    assert accepted.status_code == 200 and accepted.json()["sheet"]["state"] == "confirmed"
    assert sheet_of(t).confirmed_by == "capitano E/O tavolo 1"


def test_phone_that_corrected_after_a_dispute_cannot_confirm_but_the_other_can(client, other_client, tables):
    """The guard follows the current version: after E/O corrects a disputed sheet from its
    phone, the N/S phone (which saved an older version) confirms it."""
    t = tables[2]
    save(client, t, hands=OTHER, line="ns")                                              # v1 by phone A
    post(other_client, "captain_dispute", t, {"line": "ew", "version": 1, "note": "mano 1"})  # v2
    assert save(other_client, t, hands=HANDS, version=2, line="ew").status_code == 200   # v3 by phone B
    assert post(other_client, "captain_confirm", t, {"line": "ns", "version": 3}).status_code == 400
    assert post(client, "captain_confirm", t, {"line": "ns", "version": 3}).status_code == 200


def test_identical_sheet_retyped_by_other_phone_does_not_block_its_confirmation(client, other_client, tables):
    """The other line typing the very same sheet stores nothing (content hash): the sheet
    stays N/S's, and the E/O phone may still confirm it."""
    t = tables[3]
    save(client, t, line="ns")
    assert save(other_client, t, line="ew", version=1).status_code == 200
    assert sheet_of(t).version == 1 and sheet_of(t).entered_by == "capitano N/S tavolo 3"
    assert post(other_client, "captain_confirm", t, {"line": "ew", "version": 1}).status_code == 200


def test_closed_round_is_read_only(client, tables, published_round, arbiter):
    for t in tables.values():
        if not t.is_bye:
            services.save_score_sheet(table=t, hands=[services.HandInput(*h) for h in HANDS], by=arbiter,
                                      validate=True)
    services.close_round(round=published_round, by=arbiter)
    t = tables[1]
    page = client.get(reverse("captain", args=[t.token]))
    assert page.status_code == 200
    data = page.context["data"]["sheet"]
    assert data["locked"] and not data["round_open"] and data["hands"] == HANDS
    assert save(client, t, hands=OTHER, version=sheet_of(t).version).status_code == 400
    assert post(client, "captain_confirm", t, {"line": "ew"}).status_code == 400
    assert sheet_of(t).mp_ns == 1550


def test_unknown_token_and_draft_round_are_404(client, tables, tournament, arbiter, make_pairs):
    assert client.get("/c/not-a-token/").status_code == 404
    assert client.post("/c/not-a-token/salva/", data="{}", content_type="application/json").status_code == 404
    Round.objects.filter(pk=tables[1].round_id).update(state=Round.State.DRAFT)
    assert client.get(reverse("captain", args=[tables[1].token])).status_code == 404


def test_post_without_csrf_is_refused(tables):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    t = tables[1]
    strict.get(reverse("captain", args=[t.token]))
    body = json.dumps({"line": "ns", "hands": HANDS, "version": 0})
    url = reverse("captain_save", args=[t.token])
    assert strict.post(url, data=body, content_type="application/json").status_code == 403
    token = strict.cookies["csrftoken"].value
    ok = strict.post(url, data=body, content_type="application/json", headers={"X-CSRFToken": token})
    assert ok.status_code == 200


def test_bad_numbers_are_explained_and_nothing_stored(client, tables):
    t = tables[1]
    response = save(client, t, hands=[[601, 200], [400, 150], [250, 300], [300, 195]])
    assert response.status_code == 400 and "multiplo di 5" in response.json()["error"]
    response = save(client, t, hands=[["", 200], [400, 150], [250, 300], [300, 195]])
    assert response.status_code == 400 and "Smazzata 1" in response.json()["error"]
    assert sheet_of(t).version == 0 and not AuditEntry.objects.filter(table_number=1).exists()


def test_declared_totals_flag_a_sum_error(client, tables):
    response = save(client, tables[1], declared=[1500, 845])
    assert response.status_code == 200 and response.json()["sheet"]["sum_error"] is True


def test_unknown_tokens_are_rate_limited_per_ip(client, tables):
    codes = [client.get(f"/c/guess-{i}/").status_code for i in range(30)]
    assert set(codes) == {404}
    assert client.get("/c/guess-31/").status_code == 429
    # a valid link is never refused by the guess limiter (behind NAT or a
    # proxy the guesser shares the captains' address)
    assert client.get(reverse("captain", args=[tables[1].token])).status_code == 200
    # another address is not affected
    assert client.get("/c/guess-32/", REMOTE_ADDR="10.0.0.9").status_code == 404


def test_pin_entry_redirects_and_counts_wrong_pins_per_table(client, tables):
    t = tables[3]
    wrong = "0000" if t.pin != "0000" else "0001"
    url = reverse("captain_pin", args=["prova"])
    response = client.post(url, {"table": "3", "pin": t.pin})
    assert response.status_code == 302 and response.url == reverse("captain", args=[t.token])
    # 5 wrong PINs lock the table's PIN entry (423), the right PIN included
    codes = [client.post(url, {"table": "3", "pin": wrong}).status_code for _ in range(5)]
    assert codes == [400, 400, 400, 400, 423]
    assert client.post(url, {"table": "3", "pin": t.pin}).status_code == 423


def test_bye_table_page_says_rest(client, tournament, make_pairs, arbiter):
    make_pairs(tournament, 7)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    bye = rnd.tables.exclude(bye="").first()
    response = client.get(reverse("captain", args=[bye.token]))
    assert response.status_code == 200 and "riposa" in response.content.decode()
    assert post(client, "captain_save", bye, {"line": "ns", "hands": HANDS}).status_code == 400


@pytest.mark.parametrize("asset", ["css/captain.css", "js/captain.js"])
def test_assets_exist(asset, settings):
    assert (settings.BASE_DIR / "static" / asset).exists()


def test_page_weight_under_50_kb(client, tables, settings):
    """HTML + CSS + JS of the captain page, without images, under 50 KB (a phone on a weak network)."""
    html = client.get(reverse("captain", args=[tables[1].token])).content
    css = (settings.BASE_DIR / "static" / "css" / "captain.css").read_bytes()
    js = (settings.BASE_DIR / "static" / "js" / "captain.js").read_bytes()
    total = len(html) + len(css) + len(js)
    print(f"captain page: html {len(html)} B, css {len(css)} B, js {len(js)} B, total {total} B")
    assert total < 50 * 1024


def test_captain_page_carries_the_invalid_field_message(other_client, tables):
    page = other_client.get(reverse("captain", args=[tables[1].token])).content.decode()
    assert 'id="invalid" role="alert" hidden' in page
    data = json.loads(page.split('id="captain-data" type="application/json">')[1].split("</script>")[0])
    assert data["text"]["invalid"].startswith("Smazzata %(h)s, %(line)s: «%(v)s» non è un numero multiplo di 5")
