"""«Salva e valida» of a disputed sheet on the arbiter's grid (trust, rules.md §3): every
validation of a disputed sheet records the arbiter's decision, server side too.

Round 1 of 8 pairs, Mitchell, 4 hands, vp20-4h. The captains' sheet: 600+400+250+300 =
1550 N/S, 200+150+300+195 = 845 E/W. The arbiter's correction: hand 3 N/S 250 → 300, so
N/S 1600, difference 755, band 705–900 of vp20-4h → 14–6 VP."""
import pytest
from django.urls import reverse

from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, ScoreSheet
from tournaments.services import Actor, HandInput

HANDS = [HandInput(600, 200), HandInput(400, 150), HandInput(250, 300), HandInput(300, 195)]
CORRECTED = [HandInput(600, 200), HandInput(400, 150), HandInput(300, 300), HandInput(300, 195)]
DECISION = "Visto lo score cartaceo: la smazzata 3 di N/S è 300"


@pytest.fixture
def disputed(tournament, make_pairs, arbiter):
    make_pairs(tournament, 8)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    table = rnd.tables.get(number=1)
    services.save_score_sheet(table=table, hands=HANDS, by=Actor("capitano N/S tavolo 1"))
    services.dispute_sheet(table=table, by=Actor("capitano E/O tavolo 1"), note="smazzata 3")
    return table


def _validations(table):
    return AuditEntry.objects.filter(table_number=table.number, action="sheet_validated")


def test_service_refuses_a_changed_disputed_sheet_validated_without_decision(disputed, arbiter):
    with pytest.raises(ArbiterError, match="contestato: scrivi la decisione"):
        services.save_score_sheet(table=disputed, hands=CORRECTED, by=arbiter, validate=True,
                                  kind="transcription", reason="visto il cartaceo")
    sheet = ScoreSheet.objects.get(table=disputed)
    assert sheet.state == "disputed" and sheet.mp_ns == 1550  # nothing stored


def test_service_saves_the_correction_then_validates_with_the_decision(disputed, arbiter):
    sheet = services.save_score_sheet(table=disputed, hands=CORRECTED, by=arbiter, validate=True,
                                      kind="transcription", reason="visto il cartaceo", decision=DECISION)
    assert sheet.state == "validated" and (sheet.mp_ns, sheet.mp_ew) == (1600, 845)
    assert (sheet.vp_ns, sheet.vp_ew) == (14, 6)
    entry = _validations(disputed).get()
    assert entry.reason == DECISION
    assert entry.old["state"] == "disputed" and entry.old["dispute_note"] == "smazzata 3"
    assert entry.old["disputed_by"] == "capitano E/O tavolo 1"


def test_grid_refuses_without_decision_and_validates_with_it(arbiter_client, disputed, post_sheet):
    version = ScoreSheet.objects.get(table=disputed).version
    data = post_sheet([(600, 200), (400, 150), (300, 300), (300, 195)], version=version, action="validate")
    data.update(kind="transcription", reason="visto il cartaceo")
    page = arbiter_client.get(reverse("sheet", args=["prova", 1, 1])).content.decode()
    assert 'id="decision-field"' in page and 'name="decision"' in page
    response = arbiter_client.post(reverse("sheet", args=["prova", 1, 1]), data)
    assert response.status_code == 400
    assert "Lo score del tavolo 1 è contestato: scrivi la decisione dell&#x27;arbitro" in response.content.decode()
    assert ScoreSheet.objects.get(table=disputed).state == "disputed" and not _validations(disputed).exists()
    data["decision"] = DECISION
    response = arbiter_client.post(reverse("sheet", args=["prova", 1, 1]), data)
    assert response.status_code == 302
    assert ScoreSheet.objects.get(table=disputed).state == "validated"
    assert _validations(disputed).get().reason == DECISION


def test_grid_unchanged_with_decision_validates_with_it(arbiter_client, disputed, post_sheet):
    version = ScoreSheet.objects.get(table=disputed).version
    data = post_sheet([(600, 200), (400, 150), (250, 300), (300, 195)], version=version, action="validate")
    data.update(kind="transcription", reason="", decision=DECISION)
    response = arbiter_client.post(reverse("sheet", args=["prova", 1, 1]), data)
    assert response.status_code == 302
    assert _validations(disputed).get().reason == DECISION
