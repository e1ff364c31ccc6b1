"""Trust: a disputed score sheet is never validated by one click (rules.md §3, art. 31–33:
the arbiter decides a dispute, and his decision is written in the audit trail).

Round 1 of 8 pairs, Mitchell (rules.md §6): tables 1–4, N/S pairs 1–4, E/W pairs 5–8;
4 hands a round, scale vp20-4h. The sheet of every example is HANDS below:
600+400+250+300 = 1550 MP for N/S, 200+150+300+195 = 845 MP for E/W, difference 705,
band 705–900 of vp20-4h (data/vp_scales.json) → 14–6 VP.
"""
from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments import services
from tournaments.errors import ArbiterError, StaleSheetError
from tournaments.models import AuditEntry, ScoreSheet
from tournaments.services import Actor, HandInput

HANDS = [HandInput(600, 200), HandInput(400, 150), HandInput(250, 300), HandInput(300, 195)]
NOTE = "smazzata 3: 250 non 300"
DECISION = "Controllato lo score cartaceo: vale quello di N/S"
NS = "capitano N/S tavolo {t}"
EW = "capitano E/O tavolo {t}"


@pytest.fixture
def tables(tournament, make_pairs, arbiter):
    make_pairs(tournament, 8)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    return {t.number: t for t in rnd.tables.all()}


def entered(table):
    services.save_score_sheet(table=table, hands=HANDS, by=Actor(NS.format(t=table.number)))


def disputed(table, note=NOTE):
    entered(table)
    services.dispute_sheet(table=table, by=Actor(EW.format(t=table.number)), note=note)
    return ScoreSheet.objects.get(table=table)


def sheet(table):
    return ScoreSheet.objects.get(table=table)


def validations(table_number):
    return AuditEntry.objects.filter(table_number=table_number,
                                     action__in=["sheet_validated", "sheet_validated_unconfirmed"])


# --------------------------------------------------------------------------- the service


@pytest.mark.parametrize("reason", ["", "   "])
def test_disputed_sheet_without_a_decision_is_refused(tables, arbiter, reason):
    before = disputed(tables[1])
    with pytest.raises(ArbiterError, match="tavolo 1 è contestato: scrivi la decisione"):
        services.validate_sheet(table=tables[1], by=arbiter, reason=reason)
    after = sheet(tables[1])
    assert after.state == ScoreSheet.State.DISPUTED and after.version == before.version
    assert not validations(1).exists()


def test_disputed_sheet_with_a_decision_is_validated_and_audited(tables, arbiter):
    before = disputed(tables[1])
    done = services.validate_sheet(table=tables[1], by=arbiter, reason=f"  {DECISION} ",
                                   expected_version=before.version)
    assert done.state == ScoreSheet.State.VALIDATED
    assert (done.mp_ns, done.mp_ew) == (1550, 845)          # the sheet itself is not changed
    assert (done.vp_ns, done.vp_ew) == (14, 6)              # 705 MP → 14–6 (vp20-4h)
    entry = validations(1).get()
    assert entry.action == "sheet_validated" and entry.user == arbiter
    assert entry.reason == DECISION
    assert entry.old == {"state": "disputed", "dispute_note": NOTE, "disputed_by": "capitano E/O tavolo 1"}
    assert entry.new == {"state": "validated"}


@pytest.mark.parametrize("how", ["arbiter_entered", "confirmed", "captain_unconfirmed"])
def test_entered_and_confirmed_sheets_still_validate_without_a_reason(tables, arbiter, how):
    t = tables[2]
    if how == "arbiter_entered":
        services.save_score_sheet(table=t, hands=HANDS, by=arbiter)
    else:
        entered(t)
        if how == "confirmed":
            services.confirm_sheet(table=t, by=Actor(EW.format(t=2)))
    assert services.validate_sheet(table=t, by=arbiter).state == ScoreSheet.State.VALIDATED
    assert validations(2).get().reason == ""


def test_validate_all_still_leaves_disputed_sheets_to_the_arbiter(tables, arbiter):
    """Table 1 confirmed, 2 entered by the arbiter, 3 disputed, 4 entered by a captain and
    not confirmed: validate-all takes 1 and 2 only (rules.md §3)."""
    entered(tables[1])
    services.confirm_sheet(table=tables[1], by=Actor(EW.format(t=1)))
    services.save_score_sheet(table=tables[2], hands=HANDS, by=arbiter)
    disputed(tables[3])
    entered(tables[4])
    assert services.validate_entered_sheets(round=tables[1].round, by=arbiter) == [1, 2]
    assert sheet(tables[3]).state == ScoreSheet.State.DISPUTED
    assert sheet(tables[4]).state == ScoreSheet.State.ENTERED
    assert not validations(3).exists()


def test_decision_on_an_old_version_is_refused(tables, arbiter):
    seen = disputed(tables[1]).version
    # the N/S captain corrects the disputed sheet: a new version, entered again
    services.save_score_sheet(table=tables[1], hands=[HandInput(600, 200), HandInput(400, 150),
                                                      HandInput(250, 250), HandInput(300, 195)],
                              by=Actor(NS.format(t=1)), expected_version=seen)
    with pytest.raises(StaleSheetError):
        services.validate_sheet(table=tables[1], by=arbiter, reason=DECISION, expected_version=seen)
    assert sheet(tables[1]).state == ScoreSheet.State.ENTERED


def test_save_and_validate_of_the_unchanged_disputed_sheet_needs_the_decision(tables, arbiter):
    """The grid's "Salva e valida" with the same numbers is a validation, not a correction:
    it too needs the decision, which then goes into the audit entry."""
    disputed(tables[1])
    with pytest.raises(ArbiterError, match="contestato"):
        services.save_score_sheet(table=tables[1], hands=HANDS, by=arbiter, validate=True)
    assert sheet(tables[1]).state == ScoreSheet.State.DISPUTED
    services.save_score_sheet(table=tables[1], hands=HANDS, by=arbiter, validate=True, reason=DECISION)
    assert sheet(tables[1]).state == ScoreSheet.State.VALIDATED
    assert validations(1).get().reason == DECISION


def test_a_correction_of_a_disputed_sheet_names_the_dispute_it_answers(tables, arbiter):
    disputed(tables[1])
    corrected = [HandInput(600, 200), HandInput(400, 150), HandInput(250, 250), HandInput(300, 195)]
    with pytest.raises(ArbiterError, match="contestato"):  # changed and validated: a decision too
        services.save_score_sheet(table=tables[1], hands=corrected, by=arbiter, kind="transcription",
                                  reason="smazzata 3 riletta", validate=True)
    services.save_score_sheet(table=tables[1], hands=corrected, by=arbiter, kind="transcription",
                              reason="smazzata 3 riletta", validate=True, decision=DECISION)
    entry = AuditEntry.objects.get(table_number=1, action="sheet_corrected")
    assert entry.old["dispute_note"] == NOTE and entry.old["disputed_by"] == "capitano E/O tavolo 1"
    assert entry.reason == "smazzata 3 riletta"
    assert validations(1).get().reason == DECISION


def test_the_refusal_is_translated(tables, arbiter):
    disputed(tables[1])
    with translation.override("en"), pytest.raises(ArbiterError) as exc:
        services.validate_sheet(table=tables[1], by=arbiter)
    assert exc.value.message == "Table 1's score sheet is disputed: write the arbiter's decision before validating it."


# --------------------------------------------------------------------------- the pages


def decision_url(table=1, **query):
    url = reverse("sheet_validate_disputed", args=["prova", 1, table])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def text(response):
    return response.content.decode()


def test_board_round_page_and_sheet_page_lead_to_the_decision_page(arbiter_client, tables):
    version = disputed(tables[1]).version
    entered(tables[2])
    services.confirm_sheet(table=tables[2], by=Actor(EW.format(t=2)))
    board = text(arbiter_client.get(reverse("board_rows", args=["prova", 1])))
    row1 = board.split('id="t1"')[1].split("</tr>")[0]
    assert f'href="{decision_url(1)}?da=tabellone&amp;versione={version}"' in row1
    assert reverse("board_validate", args=["prova", 1, 1]) not in row1           # no one-click form
    row2 = board.split('id="t2"')[1].split("</tr>")[0]
    assert f'action="{reverse("board_validate", args=["prova", 1, 2])}"' in row2  # unchanged: one click

    page = text(arbiter_client.get(reverse("round", args=["prova", 1])))
    row1 = page.split('id="table-1"')[1].split("</tr>")[0]
    assert f'href="{decision_url(1)}?da=turno&amp;versione={version}"' in row1 and "formaction=" not in row1
    row2 = page.split('id="table-2"')[1].split("</tr>")[0]
    assert 'form="validate-row"' in row2

    grid = text(arbiter_client.get(reverse("sheet", args=["prova", 1, 1])))
    assert f'id="decide-dispute" href="{decision_url(1)}?da=score&amp;versione={version}"' in grid


def test_decision_page_shows_the_dispute(arbiter_client, tables):
    version = disputed(tables[1]).version
    response = arbiter_client.get(decision_url(1, da="tabellone", versione=version))
    assert response.status_code == 200
    html = text(response)
    assert f"«{NOTE}»" in html
    assert re.search(r'id="line-ns"><b>1</b> Rossi1', html) and re.search(r'id="line-ew"><b>5</b> Rossi5', html)
    assert 'id="dispute-mp">1550–845<' in html and 'id="dispute-vp">14–6<' in html
    assert 'id="entered-by">capitano N/S tavolo 1<' in html
    assert 'id="disputed-by">capitano E/O tavolo 1 · ' in html
    assert f'name="version" value="{version}"' in html and 'name="reason"' in html and "required" in html
    assert f'id="decision-cancel" href="{reverse("board", args=["prova", 1])}#t1"' in html
    assert f'id="correct-sheet" href="{reverse("sheet", args=["prova", 1, 1])}"' in html


def test_cancel_leads_back_to_the_round_page(arbiter_client, tables):
    disputed(tables[1])
    html = text(arbiter_client.get(decision_url(1, da="turno")))
    assert f'id="decision-cancel" href="{reverse("round", args=["prova", 1])}#table-1"' in html


@pytest.mark.parametrize("reason", ["", "   "])
def test_blank_decision_shows_the_page_again(arbiter_client, tables, reason):
    version = disputed(tables[1]).version
    response = arbiter_client.post(decision_url(1), {"version": version, "reason": reason, "da": "tabellone"})
    assert response.status_code == 200
    html = text(response)
    assert 'id="decision-errors"' in html and "Scrivi la decisione dell&#x27;arbitro" in html
    assert f"«{NOTE}»" in html and 'name="da" value="tabellone"' in html
    assert sheet(tables[1]).state == ScoreSheet.State.DISPUTED and not validations(1).exists()


def test_too_long_decision_keeps_what_was_typed(arbiter_client, tables):
    version = disputed(tables[1]).version
    typed = "x" * 301
    response = arbiter_client.post(decision_url(1), {"version": version, "reason": typed})
    assert response.status_code == 200 and typed in text(response)
    assert sheet(tables[1]).state == ScoreSheet.State.DISPUTED


def test_decision_validates_and_goes_back_to_the_board(arbiter_client, arbiter, tables):
    version = disputed(tables[1]).version
    response = arbiter_client.post(decision_url(1), {"version": version, "reason": DECISION, "da": "tabellone"})
    assert response.status_code == 302 and response.url == reverse("board", args=["prova", 1]) + "#t1"
    assert sheet(tables[1]).state == ScoreSheet.State.VALIDATED
    entry = validations(1).get()
    assert entry.reason == DECISION and entry.old["dispute_note"] == NOTE and entry.user == arbiter
    # the audit page shows who, when, the dispute and the decision
    log = text(arbiter_client.get(reverse("audit", args=["prova"]) + "?round=1&table=1"))
    assert DECISION in log and NOTE in log and "contestato da: capitano E/O tavolo 1" in log
    assert "Score contestato" in log and "Score validato" in log


def test_decision_after_a_captains_change_is_409(arbiter_client, tables):
    seen = disputed(tables[1]).version
    services.save_score_sheet(table=tables[1], hands=[HandInput(600, 200), HandInput(400, 150),
                                                      HandInput(250, 250), HandInput(300, 195)],
                              by=Actor(NS.format(t=1)), expected_version=seen)
    response = arbiter_client.post(decision_url(1), {"version": seen, "reason": DECISION, "da": "tabellone"})
    assert response.status_code == 409
    html = text(response)
    assert "cambiato dopo che" in html and "1550–795" in html     # 250+250: E/W 795 now
    assert 'id="typed-decision">' in html and f"«{DECISION}»" in html  # shown, not lost
    assert sheet(tables[1]).state == ScoreSheet.State.ENTERED
    # opening the page from an old board row is refused the same way
    assert arbiter_client.get(decision_url(1, da="tabellone", versione=seen)).status_code == 409


def test_decision_without_the_version_is_400(arbiter_client, tables):
    disputed(tables[1])
    response = arbiter_client.post(decision_url(1), {"reason": DECISION})
    assert response.status_code == 400 and sheet(tables[1]).state == ScoreSheet.State.DISPUTED


def test_one_click_posts_of_a_disputed_sheet_go_to_the_decision_page(arbiter_client, tables):
    """An old board page or round page still posting "Valida" for a disputed sheet."""
    version = disputed(tables[1]).version
    response = arbiter_client.post(reverse("board_validate", args=["prova", 1, 1]), {"version": version})
    assert response.status_code == 302 and response.url == f"{decision_url(1)}?da=tabellone&versione={version}"
    response = arbiter_client.post(reverse("sheet_validate", args=["prova", 1, 1]))
    assert response.status_code == 302 and response.url == f"{decision_url(1)}?da=turno"
    assert sheet(tables[1]).state == ScoreSheet.State.DISPUTED and not validations(1).exists()


def test_save_and_validate_on_the_sheet_page_asks_for_the_decision(arbiter_client, tables, post_sheet):
    version = disputed(tables[1]).version
    data = post_sheet([(600, 200), (400, 150), (250, 300), (300, 195)], version=version, action="validate")
    data.update(kind="transcription", reason="ho parlato con i due capitani")
    response = arbiter_client.post(reverse("sheet", args=["prova", 1, 1]), data)
    assert response.status_code == 200
    html = text(response)
    assert 'id="decision-form"' in html and f'action="{decision_url(1)}"' in html
    assert "ho parlato con i due capitani</textarea>" in html                  # nothing typed is lost
    assert sheet(tables[1]).state == ScoreSheet.State.DISPUTED


def test_decision_page_of_a_sheet_not_disputed_sends_to_the_sheet(arbiter_client, tables):
    entered(tables[2])
    response = arbiter_client.get(decision_url(2))
    assert response.status_code == 302 and response.url == reverse("sheet", args=["prova", 1, 2])


def test_decision_page_in_english(arbiter_client, tables):
    from django.conf import settings

    disputed(tables[1])
    arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = text(arbiter_client.get(decision_url(1, da="tabellone")))
    assert '<html lang="en">' in html
    for english in ("Arbiter&#x27;s decision", "Validate with this decision", "Disputed by", "Dispute note",
                    "Correct the score sheet", "Round 1 · Table 1: score sheet disputed"):
        assert english in html, english
    response = arbiter_client.post(decision_url(1), {"version": sheet(tables[1]).version, "reason": ""})
    assert "Write the arbiter&#x27;s decision" in text(response)
