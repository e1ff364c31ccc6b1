"""Score entry grid and corrections pages.

Round 1 of the 5-pair fixture: table 1 = 1 v 3, table 2 = 2 v 4, pair 5 rests.
VP by the 4-hand scale (vp20-4h, rules.md §4): difference 0–100 → 10–10, 505–700 → 13–7.
"""
import json
from decimal import Decimal

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import AuditEntry, ScoreSheet, Table
from tournaments.services import Actor, HandInput


def body(resp):
    return resp.content.decode()


def sheet_url(table, name="sheet", number=1):
    return reverse(name, args=["prova", number, table])


def table(rnd, number):
    return Table.objects.get(round=rnd, number=number)


def test_grid_page_has_one_row_per_hand_and_scale_json(arbiter_client, published):
    page = body(arbiter_client.get(sheet_url(1)))
    for i in range(1, 5):
        assert f'name="h{i}_ns"' in page and f'name="h{i}_ew"' in page
    assert 'name="h5_ns"' not in page
    assert 'id="vp-scale"' in page and "js/entry.js" in page
    # the ns total of hand 1 comes before the ew total of hand 1, which comes before hand 2
    assert page.index('name="h1_ns"') < page.index('name="h1_ew"') < page.index('name="h2_ns"')
    scale = json.loads(page.split('id="vp-scale" type="application/json">')[1].split("</script>")[0])
    assert scale["bands"][3] == {"min": 505, "max": 700, "winner": 13, "loser": 7}


def test_save_goes_to_next_table_to_enter(arbiter_client, published, post_sheet):
    # 4 hands, only the first differs: 600 v 0 → difference 600 → 13–7.
    resp = arbiter_client.post(sheet_url(1), post_sheet([(600, 0), (0, 0), (0, 0), (0, 0)], version=0))
    assert resp.status_code == 302 and resp["Location"] == sheet_url(2)
    sheet = ScoreSheet.objects.get(table__number=1)
    assert (sheet.mp_ns, sheet.mp_ew, sheet.vp_ns, sheet.vp_ew) == (600, 0, Decimal(13), Decimal(7))
    assert sheet.state == "entered"
    # the last table saved: back to the round page
    resp = arbiter_client.post(sheet_url(2), post_sheet([(0, 0)] * 4, version=0), follow=True)
    assert resp.redirect_chain[-1][0] == reverse("round", args=["prova", 1])
    assert "Tutti gli score del turno sono inseriti" in body(resp)


def test_save_and_validate(arbiter_client, published, post_sheet):
    arbiter_client.post(sheet_url(1), post_sheet([(0, 0)] * 4, version=0, action="validate"))
    assert ScoreSheet.objects.get(table__number=1).state == "validated"


def test_not_multiple_of_5_refused_and_typed_values_kept(arbiter_client, published, post_sheet):
    resp = arbiter_client.post(sheet_url(1), post_sheet([(600, 0), (0, 123), (0, 0), (0, 0)], declared=(600, 123),
                                                        version=0))
    page = body(resp)
    assert resp.status_code == 400
    assert "Smazzata 2, linea E/O: 123 non è multiplo di 5" in page
    assert 'name="h1_ns" value="600"' in page and 'name="h2_ew" value="123"' in page
    assert 'name="declared_ew" value="123"' in page
    assert ScoreSheet.objects.get(table__number=1).state == "empty"


def test_missing_and_non_numeric_cells_are_named(arbiter_client, published, post_sheet):
    data = post_sheet([(600, 0), (0, 0), (0, 0), (0, 0)], version=0)
    data["h3_ns"] = ""
    data["h4_ew"] = "dieci"
    page = body(arbiter_client.post(sheet_url(1), data))
    assert "Smazzata 3, linea N/S: manca il punteggio" in page
    assert "Smazzata 4, linea E/O: «dieci» non è un numero intero" in page
    assert 'value="dieci"' in page


def test_base_plus_cards_fill_the_total(arbiter_client, published, post_sheet):
    # hand 1 N/S: base 400 + cards 185 = 585 (scoring/hands.py example); total left empty
    data = post_sheet([(0, 0), (0, 0), (0, 0), (0, 0)], version=0,
                      parts={"h1_ns_base": 400, "h1_ns_cards": 185, "parts": 1})
    data["h1_ns"] = ""
    arbiter_client.post(sheet_url(1), data)
    sheet = ScoreSheet.objects.get(table__number=1)
    hand = sheet.hands.get(number=1)
    assert (hand.ns_base, hand.ns_cards, hand.ns_score, sheet.mp_ns) == (400, 185, 585, 585)
    page = body(arbiter_client.get(sheet_url(1)))
    assert 'class="card parts"' in page and 'name="h1_ns_base" value="400"' in page


def test_base_plus_cards_disagreeing_with_total_is_refused(arbiter_client, published, post_sheet):
    data = post_sheet([(500, 0), (0, 0), (0, 0), (0, 0)], version=0, parts={"h1_ns_base": 400, "h1_ns_cards": 185})
    page = body(arbiter_client.post(sheet_url(1), data))
    assert "Smazzata 1, linea N/S: base 400 + carte 185 = 585, non 500" in page


def test_stale_version_shows_current_sheet_and_typed_values(arbiter_client, arbiter, published, post_sheet):
    services.save_score_sheet(table=table(published, 1), hands=[services.HandInput(300, 0)] + [
        services.HandInput(0, 0)] * 3, by=arbiter)  # version 1, saved "from another device"
    resp = arbiter_client.post(sheet_url(1), post_sheet([(900, 0), (0, 0), (0, 0), (0, 0)], version=0))
    page = body(resp)
    assert resp.status_code == 409
    assert "modificato da un altro dispositivo" in page
    assert 'name="h1_ns" value="300"' in page  # the current sheet in the grid
    assert 'id="typed"' in page and "900" in page  # what the arbiter typed, shown beside it
    assert 'name="expected_version" value="1"' in page
    assert ScoreSheet.objects.get(table__number=1).mp_ns == 300


def test_sum_error_flagged_then_validate_refused(arbiter_client, published, post_sheet):
    # hands sum 600/0, the paper says 650/0
    resp = arbiter_client.post(sheet_url(1), post_sheet([(600, 0), (0, 0), (0, 0), (0, 0)], declared=(650, 0),
                                                        version=0), follow=True)
    page = body(resp)
    assert resp.redirect_chain[-1][0] == sheet_url(1)  # stays on the table to see the flag
    assert "errore di somma" in page and 'id="sum-error-flag"' in page
    resp = arbiter_client.post(sheet_url(1, "sheet_validate"), follow=True)
    assert "errore di somma (dichiarato 650/0, somma delle smazzate 600/0)" in body(resp)
    assert ScoreSheet.objects.get(table__number=1).state == "entered"
    # accept the hands on the corrections page, then validation works
    page = body(arbiter_client.get(sheet_url(1, "sheet_corrections")))
    assert 'id="sum-error"' in page
    arbiter_client.post(sheet_url(1, "sheet_corrections"), {"action": "accept_sum", "sum-reason": "controllato"})
    sheet = ScoreSheet.objects.get(table__number=1)
    assert not sheet.sum_error and sheet.declared_ns is None
    arbiter_client.post(sheet_url(1, "sheet_validate"))
    assert ScoreSheet.objects.get(table__number=1).state == "validated"


def test_swapped_lines_need_a_reason_and_are_audited(arbiter_client, arbiter, published):
    services.save_score_sheet(table=table(published, 1), hands=[services.HandInput(600, 0)] + [
        services.HandInput(0, 0)] * 3, by=arbiter)
    resp = arbiter_client.post(sheet_url(1, "sheet_corrections"), {"action": "swap", "swap-reason": ""})
    assert resp.status_code == 400 and ScoreSheet.objects.get(table__number=1).mp_ns == 600
    arbiter_client.post(sheet_url(1, "sheet_corrections"), {"action": "swap", "swap-reason": "N/S e E/O invertiti"})
    sheet = ScoreSheet.objects.get(table__number=1)
    assert (sheet.mp_ns, sheet.mp_ew, sheet.vp_ns, sheet.vp_ew) == (0, 600, Decimal(7), Decimal(13))
    entry = AuditEntry.objects.get(action="sheet_lines_swapped")
    assert entry.reason == "N/S e E/O invertiti" and entry.table_number == 1 and entry.round_number == 1
    audit_url = reverse("audit", args=["prova"]) + "?round=1&table=1"
    assert audit_url.replace("&", "&amp;") in body(arbiter_client.get(sheet_url(1, "sheet_corrections")))
    assert "Linee invertite" in body(arbiter_client.get(audit_url))  # the audit page names the action


def test_arbitral_score(arbiter_client, published):
    resp = arbiter_client.post(sheet_url(2, "sheet_corrections"), {
        "action": "arbitral", "arb-vp_ns": "14", "arb-vp_ew": "3", "arb-mp_ns": "", "arb-mp_ew": "",
        "arb-reason": "comportamento scorretto E/O (art. 15)"})
    assert resp.status_code == 302
    sheet = ScoreSheet.objects.get(table__number=2)
    assert sheet.arbitral and (sheet.vp_ns, sheet.vp_ew) == (Decimal(14), Decimal(3))
    assert sheet.state == "validated"
    page = body(arbiter_client.get(reverse("round", args=["prova", 1])))
    assert "arbitrale" in page and "14–3" in page
    # VP above the scale maximum: refused by the service with a message
    resp = arbiter_client.post(sheet_url(2, "sheet_corrections"), {
        "action": "arbitral", "arb-vp_ns": "21", "arb-vp_ew": "0", "arb-reason": "x"}, follow=True)
    assert "I VP devono stare tra 0 e 20" in body(resp)


def test_correction_page_warns_when_a_later_danish_round_is_published(arbiter_client, arbiter, five):
    five.plan = "MD"
    five.save()
    rnd = services.generate_round(tournament=five, by=arbiter)
    services.publish_round(round=rnd, by=arbiter)
    for t in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=[services.HandInput(0, 0)] * 4, by=arbiter, validate=True)
    services.close_round(round=rnd, by=arbiter)
    services.publish_round(round=services.generate_round(tournament=five, by=arbiter), by=arbiter,
                           acknowledge_warnings=True)
    page = body(arbiter_client.get(sheet_url(1, "sheet_corrections")))
    assert "Il turno 2 (danese) è già pubblicato" in page and "non l'accoppiamento" in page


def test_next_table_button_skips_entered_tables(arbiter_client, arbiter, published):
    services.save_score_sheet(table=table(published, 1), hands=[services.HandInput(0, 0)] * 4, by=arbiter)
    resp = arbiter_client.get(reverse("sheet_next", args=["prova", 1]) + "?dopo=2")
    assert resp["Location"] == sheet_url(2)  # wraps round: table 1 is entered, table 2 is not


def test_next_table_button_of_a_draft_says_the_round_is_not_published(arbiter_client, arbiter, five):
    services.generate_round(tournament=five, by=arbiter)
    resp = arbiter_client.get(reverse("sheet_next", args=["prova", 1]), follow=True)
    page = body(resp)
    assert "Il turno 1 non è ancora pubblicato" in page and "sono inseriti" not in page


def test_rest_table_has_no_sheet(arbiter_client, published):
    resp = arbiter_client.get(sheet_url(3), follow=True)
    assert "non ha uno score" in body(resp)


def test_hand_calculator(arbiter_client, published):
    url = reverse("hand_calculator", args=["prova"])
    # 1 clean + 1 dirty + closing, 185 melded: base 400, cards 185 (rules.md §2)
    data = arbiter_client.get(url, {"clean": 1, "dirty": 1, "closing": "1", "cards_on_table": 185}).json()
    assert data == {"base": 400, "cards": 185, "score": 585}
    resp = arbiter_client.get(url, {"semi_clean": 1})  # not in the FIBUR rule set
    assert resp.status_code == 400 and "non prevede il burraco semipulito" in resp.json()["error"]


# --------------------------------------------------------------------------- regressions (first user's report)

ZERO = [HandInput(0, 0)] * 4
NEED_REASON = "Indica il motivo della correzione."


def test_accept_hands_on_sum_error_with_empty_reason_was_allowed(arbiter_client, arbiter, published):
    """Accepting the hands with an empty reason left the audit trail without a why."""
    services.save_score_sheet(table=table(published, 1), hands=ZERO, by=arbiter, declared=(5, 0))
    for blank in ("", "   "):
        resp = arbiter_client.post(sheet_url(1, "sheet_corrections"), {"action": "accept_sum", "sum-reason": blank})
        page = body(resp)
        assert resp.status_code == 400
        assert "Indica il motivo della correzione" in page and "Correzione non eseguita" in page
        assert ScoreSheet.objects.get(table__number=1).sum_error
    arbiter_client.post(sheet_url(1, "sheet_corrections"), {"action": "accept_sum", "sum-reason": "somma rifatta"})
    assert not ScoreSheet.objects.get(table__number=1).sum_error
    entry = AuditEntry.objects.filter(action="sheet_corrected").latest("pk")
    assert entry.reason == "somma rifatta"


@pytest.mark.parametrize("action, data", [
    ("swap", {}),
    ("arbitral", {"arb-vp_ns": "14", "arb-vp_ew": "3"}),
    ("unvalidate", {}),
])
def test_every_correction_needs_a_reason(arbiter_client, arbiter, published, action, data):
    services.save_score_sheet(table=table(published, 1), hands=[HandInput(600, 0)] + ZERO[1:], by=arbiter,
                              validate=True)
    before = AuditEntry.objects.count()
    prefix = {"swap": "swap", "arbitral": "arb", "unvalidate": "unv"}[action]
    resp = arbiter_client.post(sheet_url(1, "sheet_corrections"),
                               {"action": action, f"{prefix}-reason": " ", **data})
    assert resp.status_code == 400 and "Indica il motivo della correzione" in body(resp)
    assert AuditEntry.objects.count() == before
    sheet = ScoreSheet.objects.get(table__number=1)
    assert (sheet.state, sheet.mp_ns, sheet.arbitral) == ("validated", 600, False)


def _grid(post_sheet, hands, version, reason=None, action="save", kind=None):
    data = post_sheet(hands, version=version, action=action)
    if reason is not None:
        data["reason"] = reason
    if kind is not None:
        data["kind"] = kind
    return data


@pytest.mark.parametrize("state", ["confirmed", "validated"])
def test_grid_correction_of_confirmed_or_validated_sheet_had_no_reason(arbiter_client, arbiter, published,
                                                                       post_sheet, state):
    """The arbiter changed an already confirmed / validated sheet in the grid with no reason."""
    t1 = table(published, 1)
    services.save_score_sheet(table=t1, hands=ZERO, by=Actor("capitano N/S tavolo 1"))
    services.confirm_sheet(table=t1, by=Actor("capitano E/O tavolo 1"))
    if state == "validated":
        services.validate_sheet(table=t1, by=arbiter)
    version = ScoreSheet.objects.get(table=t1).version
    page = body(arbiter_client.get(sheet_url(1)))
    assert 'name="reason"' in page and 'id="reason-required"' in page
    resp = arbiter_client.post(sheet_url(1), _grid(post_sheet, [(100, 0), (0, 0), (0, 0), (0, 0)], version,
                                                   kind="sum_error"))
    assert resp.status_code == 400 and NEED_REASON in body(resp)
    assert 'name="h1_ns" value="100"' in body(resp)  # nothing typed is lost
    assert ScoreSheet.objects.get(table=t1).mp_ns == 0
    arbiter_client.post(sheet_url(1), _grid(post_sheet, [(100, 0), (0, 0), (0, 0), (0, 0)], version,
                                            reason="smazzata 1 letta male", kind="sum_error"))
    assert ScoreSheet.objects.get(table=t1).mp_ns == 100
    assert AuditEntry.objects.get(action="sheet_corrected").reason == "smazzata 1 letta male"


def test_grid_reason_not_asked_without_a_change_or_on_the_arbiters_own_entry(arbiter_client, arbiter, published,
                                                                               post_sheet):
    """Optional otherwise: the arbiter's own unconfirmed entry is corrected freely, and an
    unchanged «Salva e valida» of a confirmed sheet is a validation, not a correction."""
    t1, t2 = table(published, 1), table(published, 2)
    services.save_score_sheet(table=t1, hands=ZERO, by=arbiter)
    page = body(arbiter_client.get(sheet_url(1)))
    assert 'name="reason"' in page and 'id="reason-required"' not in page
    assert 'name="reason" value="" maxlength="300" required' not in page
    resp = arbiter_client.post(sheet_url(1), _grid(post_sheet, [(100, 0), (0, 0), (0, 0), (0, 0)], 1,
                                                   kind="transcription"))
    assert resp.status_code == 302 and ScoreSheet.objects.get(table=t1).mp_ns == 100
    services.save_score_sheet(table=t2, hands=ZERO, by=Actor("capitano N/S tavolo 2"))
    services.confirm_sheet(table=t2, by=Actor("capitano E/O tavolo 2"))
    version = ScoreSheet.objects.get(table=t2).version
    resp = arbiter_client.post(sheet_url(2), _grid(post_sheet, [(0, 0)] * 4, version, action="validate"))
    assert resp.status_code == 302 and ScoreSheet.objects.get(table=t2).state == "validated"


def test_grid_correction_in_closed_mitchell_round_had_no_reason(arbiter_client, arbiter, published, post_sheet):
    for t in published.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=ZERO, by=arbiter, validate=True)
    services.close_round(round=published, by=arbiter)
    version = ScoreSheet.objects.get(table__number=1).version
    resp = arbiter_client.post(sheet_url(1), _grid(post_sheet, [(100, 0), (0, 0), (0, 0), (0, 0)], version,
                                                   kind="sum_error"))
    assert resp.status_code == 400 and NEED_REASON in body(resp)
    arbiter_client.post(sheet_url(1), _grid(post_sheet, [(100, 0), (0, 0), (0, 0), (0, 0)], version,
                                            reason="errore di somma dopo la chiusura", kind="sum_error"))
    assert ScoreSheet.objects.get(table__number=1).mp_ns == 100


@pytest.mark.parametrize("case", ["captain_entered", "disputed"])
def test_grid_correction_without_reason_of_captain_or_disputed_sheet(arbiter_client, arbiter, published,
                                                                     post_sheet, case):
    """Regression: the grid let the arbiter overwrite a captain's unconfirmed sheet (or a
    disputed one) with the reason marked optional, and the service then refused it. The
    field is now required and shown as such, and a refusal keeps the typed values."""
    t1 = table(published, 1)
    services.save_score_sheet(table=t1, hands=ZERO, by=Actor("capitano N/S tavolo 1"))
    if case == "disputed":
        services.dispute_sheet(table=t1, by=Actor("capitano E/O tavolo 1"), note="manca la chiusura")
    version = ScoreSheet.objects.get(table=t1).version
    page = body(arbiter_client.get(sheet_url(1)))
    assert 'id="reason-required"' in page and 'required aria-required="true"' in page
    resp = arbiter_client.post(sheet_url(1), _grid(post_sheet, [(100, 0), (0, 0), (0, 0), (0, 0)], version,
                                                   kind="transcription"))
    assert resp.status_code == 400 and NEED_REASON in body(resp)
    assert 'name="h1_ns" value="100"' in body(resp)
    assert ScoreSheet.objects.get(table=t1).mp_ns == 0
    resp = arbiter_client.post(sheet_url(1), _grid(post_sheet, [(100, 0), (0, 0), (0, 0), (0, 0)], version,
                                                   reason="letto dal foglio", kind="transcription"))
    assert resp.status_code == 302 and ScoreSheet.objects.get(table=t1).mp_ns == 100
