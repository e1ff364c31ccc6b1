"""Issue 14 item 8: messages of the pure modules follow the reader's language."""
import pytest
from django.utils import translation

import pairing.check
from scoring import sheets as sheet_rules
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.i18n_messages import TEMPLATES, message_text, stored, stored_text
from tournaments.models import Round


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


def test_check_report_stored_as_codes_and_rendered_in_english():
    """A checker message (the better-ranked pair must sit N/S, rules §7) kept in
    ``Round.check_report`` as code + params, shown in the reader's language."""
    message = pairing.check.Message("check.better_ns", "tavolo %(table)s: la coppia meglio classificata "
                                    "(%(pair)s) deve sedere in N/S", table=1, pair=1)
    item = stored(message)
    assert item == {"code": "check.better_ns", "params": {"table": 1, "pair": 1},
                    "text": "tavolo 1: la coppia meglio classificata (1) deve sedere in N/S"}
    with translation.override("en"):
        assert stored_text(item) == "table 1: the better-ranked pair (1) must sit N/S"
        assert Round(check_report=[item, "vecchio testo"]).check_messages == [
            "table 1: the better-ranked pair (1) must sit N/S", "vecchio testo"]   # old plain items as they are
    with translation.override("it"):
        assert stored_text(item) == "tavolo 1: la coppia meglio classificata (1) deve sedere in N/S"


def test_every_template_is_translated_and_keeps_its_placeholders():
    import re

    with translation.override("en"):
        for code, template in TEMPLATES.items():
            english = translation.gettext(template)
            assert english != template, code
            assert sorted(re.findall(r"%\((\w+)\)s", english)) == sorted(re.findall(r"%\((\w+)\)s", template)), code


def test_management_command_lang_option(db):
    """vp20-4h: |1620 − 1115| = 505 MP → band 505–700 → 13–7 (rules.md §4)."""
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("vp", "--hands", "4", "1620", "1115", "--lang", "en", stdout=out)
    assert "difference 505 MP, band 505–700" in out.getvalue() and out.getvalue().splitlines()[-1] == "13 7"
    out = StringIO()
    call_command("vp", "--hands", "4", "1620", "1115", stdout=out)
    assert "differenza 505 MP, fascia 505–700" in out.getvalue()
    assert translation.get_language() == "it"   # the override ends with the command


def test_import_command_speaks_english(tournament, tmp_path):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="No file"):
        call_command("import_registrations", "prova", str(tmp_path / "manca.csv"), "--lang", "en")
