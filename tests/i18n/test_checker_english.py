"""Every pairing-checker message is stored in ``Round.check_report`` as code + parameters and
read in the reader's language (the gettext patterns are the checker's own)."""
from django.utils import translation

import pairing.check
from pairing.check import check
from pairing.messages import TEMPLATES as PAIRING_TEMPLATES
from tournaments.i18n_messages import TEMPLATES, stored, stored_text
from tournaments.models import Round

INDIVIDUAL = {"system": "danish-individual", "ranking": [1, 2, 3, 4, 5, 6, 7, 8, 9],
              "partners": [[1, 2], [3, 4]], "rested": [9]}


def test_the_gettext_patterns_are_the_checker_patterns():
    for code, template in PAIRING_TEMPLATES.items():
        assert TEMPLATES.get(code) == template, code


def test_an_individual_check_report_reads_english_to_an_english_reader():
    # 1+4 while 1+3 was possible; 9 rests again while 8 has not rested (rules.md §9)
    response = {"tables": [{"table": 1, "ns": [1, 4], "ew": [2, 3]}, {"table": 2, "ns": [5, 6], "ew": [7, 8]}],
                "rest": [9], "repeated_partners": [], "warnings": []}
    report = [stored(m) for m in check(INDIVIDUAL, response)]
    assert all(isinstance(item, dict) and item["code"].startswith("check.") for item in report)
    with translation.override("en"):
        assert Round(check_report=report).check_messages == [
            "avoidable second rest: 9 has already rested, 8 has not",
            "rest: it belongs to 8 (the lowest ranked who have not rested)"]
    with translation.override("it"):
        assert stored_text(report[0]) == "secondo riposo evitabile: 9 ha già riposato, 8 no"


def test_a_pairs_check_report_shape_error_reads_english():
    report = [stored(m) for m in check({"system": "danish", "ranking": [1, 2, 3, 4]},
                                       {"tables": [{"table": 1, "ns": 1, "ew": 1}], "bye": None})]
    with translation.override("en"):
        texts = [stored_text(item) for item in report]
    assert "table 1: pair 1 plays against itself" in texts
    assert "pair 3 is missing (neither at a table nor resting)" in texts


def test_a_mitchell_table_that_is_not_the_movement_names_the_lines_in_english():
    """Round 1 of a 4-pair Mitchell (step 1): 1 v 3 at table 1, 2 v 4 at table 2 (pairing-io.md);
    a response swapping the E/W pairs is reported with the lines named in the reader's words."""
    request = {"system": "mitchell", "pairs": [1, 2, 3, 4], "round": 1}
    swapped = {"tables": [{"table": 1, "ns": 1, "ew": 4}, {"table": 2, "ns": 2, "ew": 3}], "bye": None}
    report = [stored(m) for m in check(request, swapped)]
    with translation.override("en"):
        texts = [stored_text(item) for item in report]
    assert "Mitchell: at table 1 the movement gives N/S 1, E/W 3, not N/S 1, E/W 4" in texts
    with translation.override("it"):
        assert "Mitchell: al tavolo 1 il movimento prevede N/S 1, E/O 3, non N/S 1, E/O 4" in \
            [stored_text(item) for item in report]


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
