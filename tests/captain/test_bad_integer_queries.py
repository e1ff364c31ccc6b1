"""A query-string integer that is not one (letters, a decimal, 10**30, a negative, nothing)
never makes an arbiter page answer 500: the audit page ignores it, the other pages answer
below 500."""
import pytest
from django.urls import reverse

HUGE = 10**30


@pytest.mark.parametrize("query", ["round=abc", "table=x", "round=1.5", f"round={HUGE}", "table=-1", "round="])
def test_audit_page_with_bad_integer_was_500(arbiter_client, tables, query):
    response = arbiter_client.get(reverse("audit", args=["prova"]) + "?" + query)
    assert response.status_code == 200


@pytest.mark.parametrize("name,query", [
    ("standings", "dopo=abc"), ("standings", f"dopo={HUGE}"),
    ("sheet", f"dopo={HUGE}"), ("pair_withdraw", f"coppia=abc&turno={HUGE}"), ("late_pair", "turno=x"),
    ("standings_xlsx", f"dopo={HUGE}"), ("standings_pdf", "dopo=abc"), ("standings_pdf", f"dopo={HUGE}"),
])
def test_arbiter_pages_with_bad_integer_never_500(arbiter_client, tables, name, query):
    args = ["prova", 1, 1] if name == "sheet" else ["prova"]
    response = arbiter_client.get(reverse(name, args=args) + "?" + query)
    assert response.status_code < 500
