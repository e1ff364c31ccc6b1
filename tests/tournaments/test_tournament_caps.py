"""The caps of tournaments/registrations/limits.py hold on the settings page too, so that every tournament
the pages make exports to a file the import accepts: at most 40 rounds in a plan and 60
hands a round."""
import datetime

import pytest

from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.forms import TournamentForm
from tournaments.plans import plan_refusal


def test_a_plan_of_41_rounds_is_refused_40_accepted():
    assert plan_refusal("M" * 41) == "Il piano ha 41 turni: al massimo 40."
    assert plan_refusal("M" * 20 + "|" + "D" * 20) is None


def test_the_services_refuse_a_plan_beyond_the_cap(arbiter):
    with pytest.raises(ArbiterError, match="al massimo 40"):
        services.create_tournament(by=arbiter, name="Lungo", slug="lungo", date=datetime.date(2026, 11, 30),
                                   plan="D" * 41)


@pytest.mark.parametrize("hands, ok", [(60, True), (61, False)])
def test_the_settings_form_caps_the_hands_per_round(db, hands, ok):
    form = TournamentForm(data={"name": "T", "date": "2026-11-30", "kind": "pairs", "plan": "MMMD",
                                "hands_per_round": hands, "vp_scale": "vp20-4h", "mitchell_step": 1,
                                "first_round": "number", "rematch_window": "all", "bye_percent": "70",
                                "bye_mp": "zero", "tiebreaks": "vp,mp_difference", "rule_set": "fibur"})
    form.is_valid()
    assert ("hands_per_round" not in form.errors) is ok
    if not ok:
        assert form.errors["hands_per_round"] == ["Le smazzate per turno sono al massimo 60."]
