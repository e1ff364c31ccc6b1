"""Issue 14 item 8, the rest: every pairing-checker message and the own output of the
management commands seed_demo, serve, simulate and create_arbiter follow the reader's
language."""
from django.utils import translation

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
