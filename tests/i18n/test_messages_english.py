"""Messages of the pure modules follow the reader's language: a score sheet's errors carry a
code and parameters beside their Italian text, and every message template is translated
with its placeholders kept."""
import pytest
from django.utils import translation

from scoring import sheets as sheet_rules
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.i18n_messages import TEMPLATES, message_text


def test_sheet_error_keeps_italian_text_and_carries_a_code():
    with pytest.raises(sheet_rules.SheetError) as exc:
        sheet_rules.sheet_totals([sheet_rules.HandScore(ns=123, ew=0)], scale=None)
    (message,) = exc.value.messages
    assert message == "Smazzata 1, linea N/S: 123 non è multiplo di 5"   # str() unchanged
    assert (message.code, message.params) == ("sheet.hand_not_multiple", {"hand": 1, "line": "ns", "value": 123})
    with translation.override("en"):
        assert message_text(message) == "Hand 1, line N/S: 123 is not a multiple of 5"


def test_score_sheet_error_in_english_under_english(arbiter, published):
    t1 = published.tables.get(number=1)
    hands = [services.HandInput(0, 0)] * 3 + [services.HandInput(0, 7)]   # 7 MP: not a multiple of 5
    with translation.override("en"), pytest.raises(ArbiterError) as exc:
        services.save_score_sheet(table=t1, hands=hands, by=arbiter)
    assert exc.value.message == "Hand 4, line E/W: 7 is not a multiple of 5"
    with translation.override("it"), pytest.raises(ArbiterError) as exc:
        services.save_score_sheet(table=t1, hands=hands, by=arbiter)
    assert exc.value.message == "Smazzata 4, linea E/O: 7 non è multiplo di 5"


def test_every_template_is_translated_and_keeps_its_placeholders():
    import re

    with translation.override("en"):
        for code, template in TEMPLATES.items():
            english = translation.gettext(template)
            assert english != template, code
            assert sorted(re.findall(r"%\((\w+)\)s", english)) == sorted(re.findall(r"%\((\w+)\)s", template)), code


def test_makemessages_collects_the_projects_aliases():
    """``make messages`` must keep the N_ (gettext_noop) and _lazy (gettext_lazy) strings live:
    with Django's own keywords their translations went to the catalogue's obsolete entries."""
    from django.core.management import get_commands, load_command_class

    command = load_command_class(get_commands()["makemessages"], "makemessages")
    assert {"--keyword=N_", "--keyword=_lazy"} <= set(command.xgettext_options)
