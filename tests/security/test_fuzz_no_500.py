"""Property: no input makes a page answer 500. Hypothesis throws arbitrary JSON at every
captain endpoint (save, confirm, dispute, call the arbiter, with the right or a wrong shape) and arbitrary
strings (control characters, NUL, lone surrogates, 20-digit numbers, very long texts) at the
main forms; every answer must be below 500. Example counts are modest so the run takes
seconds (``slow``)."""
from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

#: Texts a hostile client sends: any code point (lone surrogates included), control
#: characters, numbers too big for the database.
hostile_text = st.one_of(
    st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF), max_size=40),
    st.sampled_from(["\x00", "\x07\x1b[31m", "\ud800", "9" * 20, "-" + "9" * 30, "1e400", "NaN", "A" * 300,
                     "²", "①"]),  # digits to str.isdigit, a ValueError to int()
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**25), max_value=10**25)
    | st.floats(allow_nan=False) | hostile_text,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
captain_bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({
        "line": st.sampled_from(["ns", "ew"]) | json_values,
        "hands": st.lists(st.lists(json_values, min_size=2, max_size=2), min_size=4, max_size=4) | json_values,
        "version": st.integers(min_value=-5, max_value=5) | json_values,
        "declared": json_values, "note": hostile_text | json_values, "last_sent": json_values,
    }),
)


def _encode(body) -> bytes:
    return json.dumps(body).encode("utf-8", "surrogatepass")


@pytest.fixture
def captain_round(tournament, make_pairs, arbiter):
    from tournaments import services

    make_pairs(tournament, 8)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    return {t.number: t for t in rnd.tables.all()}


@FUZZ
@given(body=captain_bodies, endpoint=st.sampled_from(["captain_save", "captain_confirm", "captain_dispute",
                                                      "captain_call"]),
       table=st.integers(min_value=1, max_value=4))
def test_captain_endpoints_never_answer_500(captain_round, body, endpoint, table):
    from django.core.cache import cache

    cache.clear()  # the per-link write limit must not hide an answer behind a 429
    phone = Client(raise_request_exception=False)
    response = phone.post(reverse(endpoint, args=[captain_round[table].token]), data=_encode(body),
                          content_type="application/json")
    assert response.status_code < 500, (body, response.content[:300])


form_fields = st.dictionaries(
    st.sampled_from(["number", "last_name_1", "first_name_1", "membership_1", "club_1", "last_name_2",
                     "first_name_2", "membership_2", "club_2"]),
    hostile_text, min_size=4, max_size=9)


def _strings(values: dict) -> dict:
    # a browser cannot send a lone surrogate in a form: it sends the replacement character
    return {k: v.encode("utf-8", "replace").decode("utf-8") for k, v in values.items()}


@FUZZ
@given(fields=form_fields)
def test_pair_form_never_answers_500(arbiter, tournament, fields):
    client = Client(raise_request_exception=False)
    client.force_login(arbiter)
    response = client.post(reverse("pair_add", args=["prova"]), _strings(fields))
    assert response.status_code < 500, (fields, response.content[:300])


@FUZZ
@given(pair=hostile_text, from_round=hostile_text, reason=hostile_text,
       page=st.sampled_from(["pair_withdraw", "penalties", "teams"]))
def test_withdrawal_and_penalty_forms_never_answer_500(arbiter, published, pair, from_round, reason, page):
    client = Client(raise_request_exception=False)
    client.force_login(arbiter)
    data = _strings({"pair": pair, "from_round": from_round, "reason": reason, "vp": from_round,
                     "round_number": from_round, "name": reason, "players": reason, "number": pair})
    response = client.post(reverse(page, args=["prova"]), data)
    assert response.status_code < 500, (data, response.content[:300])


@FUZZ
@given(cells=st.dictionaries(st.sampled_from(["h1_ns", "h1_ew", "h2_ns", "declared_ns", "expected_version",
                                              "kind", "reason", "action", "round_state"]),
                             hostile_text, max_size=9))
def test_score_entry_form_never_answers_500(arbiter, published, cells):
    client = Client(raise_request_exception=False)
    client.force_login(arbiter)
    table = published.tables.filter(bye="").order_by("number").first()
    response = client.post(reverse("sheet", args=["prova", 1, table.number]), _strings(cells))
    assert response.status_code < 500, (cells, response.content[:300])


@FUZZ
@given(table=hostile_text, pin=hostile_text, etag=hostile_text)
def test_pin_page_and_sheet_state_never_answer_500(captain_round, table, pin, etag):
    from django.core.cache import cache

    cache.clear()
    phone = Client(raise_request_exception=False)
    response = phone.post(reverse("captain_pin", args=["prova"]), _strings({"table": table, "pin": pin}))
    assert response.status_code < 500, (table, pin, response.content[:300])
    state = phone.get(reverse("captain_state", args=[captain_round[1].token]),
                      HTTP_IF_NONE_MATCH=etag.encode("utf-8", "replace").decode("latin-1", "replace"))
    assert state.status_code < 500, (etag, state.content[:300])


@pytest.fixture
def team(arbiter):
    import datetime

    from tournaments import services

    tournament = services.create_tournament(by=arbiter, name="Squadre", slug="squadre", kind="teams", plan="RRR",
                                            date=datetime.date(2026, 12, 1))
    return services.add_team(tournament=tournament, name="Prima", by=arbiter, players=[
        services.PlayerData(first_name=f"N{k}", last_name=f"C{k}") for k in range(4)])


@FUZZ
@given(fields=st.dictionaries(st.sampled_from(["round", "p0", "p1", "p2", "p3"]), hostile_text, max_size=5))
def test_team_captain_form_never_answers_500(team, fields):
    phone = Client(raise_request_exception=False)
    response = phone.post(reverse("team_captain", args=[team.token]), _strings(fields))
    assert response.status_code < 500, (fields, response.content[:300])
