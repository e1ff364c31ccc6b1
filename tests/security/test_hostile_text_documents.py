"""Property: whatever text a door accepted (control characters, NUL, bidirectional overrides,
lone surrogates, long texts), the tournament's export imports again and every document of
it (PDF, XLSX, CSV: table list, score sheets, standings, prizes, federation results, the
championship's standings) answers 200.

Each example plays a one-round, four-pair evening whose texts come through the doors: the
new-tournament and settings forms (name, organising club, arbiter's name), the pair
registration (surnames and a club), the member-list import (a member's surname, club and
category), ``manage.py prizes --set`` (a prize's name and category), a penalty's reason and
the championship's name. A door may refuse a text with a sentence (a NUL, a text left
empty, one too long): the evening then takes a plain text there and goes on. Few examples,
each a few PDFs: ``slow``.
"""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from championships import services as championship_services
from championships.models import Championship
from members import importer
from members.models import Member
from tests.championships.helpers import play_with_vp
from tests.forms_data import tournament_settings
from tests.tournaments.helpers import create as create_by_form
from tournaments import services, transfer
from tournaments.errors import ArbiterError
from tournaments.models import Round, Tournament
from tournaments.services.entrants import PlayerData

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

HOSTILE_CHARS = ["\x00", "\x07", "\x1b", "\t", "\n", "\r", "\x7f", "\x85", "\x9b", "\ud800", "\udfff",
                 *(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))),
                 "\u200e", "\u200f", "\u061c", "\u200d", "\ufeff", "=", "'", '"', "<", "&", "|", ";", ","]
#: Texts from outside: mostly hostile characters among letters, sometimes very long.
hostile_text = st.one_of(
    st.text(alphabet=st.one_of(st.sampled_from(HOSTILE_CHARS), st.sampled_from("Rossi àèç ")), max_size=30),
    st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF), max_size=20),
    st.builds(lambda a, b: a * 150 + b, st.sampled_from(["A", "\u202e", "\x07"]), st.sampled_from(["", "\x00"])),
)

EXAMPLES = settings(max_examples=6, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

DOCUMENTS = ["documenti/turno-1/tabellone.pdf", "documenti/turno-1/score.pdf", "documenti/turno-1/score.xlsx",
             "documenti/classifica.pdf", "documenti/classifica.xlsx", "documenti/premi.pdf",
             "documenti/federazione.xlsx", "documenti/federazione.csv"]


def as_browser_sends(text: str) -> str:
    """``text`` as a browser posts it: UTF-8, a lone surrogate replaced (U+FFFD)."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def door(call, fallback):
    """The result of ``call()``, or ``fallback()`` when the door refused with a sentence."""
    try:
        return call()
    except (ArbiterError, CommandError):
        return fallback()


def empty():
    Championship.objects.all().delete()
    Round.objects.all().delete()  # a seat protects its pair: rounds first
    Tournament.objects.all().delete()
    Member.objects.all().delete()


@EXAMPLES
@given(texts=st.lists(hostile_text, min_size=10, max_size=10))
def test_what_the_doors_accept_exports_imports_and_prints(arbiter, arbiter_client, tmp_path, texts):
    empty()
    # the new-tournament form: the name (a refused one: a plain name)
    assert create_by_form(arbiter_client, name=as_browser_sends(texts[0]), slug="sera", plan="M").status_code < 500
    if not Tournament.objects.filter(slug="sera").exists():
        assert create_by_form(arbiter_client, name="Serata", slug="sera", plan="M").status_code == 302
    t = Tournament.objects.get(slug="sera")
    # the pair registration: surnames and a club
    for k in range(1, 5):
        def add(last=texts[k], club=texts[5], k=k):
            return services.add_pair(tournament=t, by=arbiter, players=[
                PlayerData(last_name=last, first_name="Anna", membership_number=f"A{k}", club=club),
                PlayerData(last_name=f"Verdi{k}", first_name="Bruno", membership_number=f"B{k}")])
        door(add, lambda k=k: add(last=f"Rossi{k}", club=""))
    play_with_vp(arbiter, t, {1: 20, 2: 12, 3: 8, 4: 0})
    # the settings form: organising club and arbiter's name
    data = tournament_settings(t, organising_club=as_browser_sends(texts[6]), arbiter_name=as_browser_sends(texts[7]),
                               tiebreaks_0="vp", tiebreaks_1="mp_difference", tiebreaks_2="head_to_head",
                               tiebreaks_3="mp_scored")
    assert arbiter_client.post("/tornei/sera/impostazioni/", data).status_code in (200, 302)
    # the member list: a member's surname, club and category
    member_list = (f"tessera,cognome,nome,circolo,categoria\nA1,{json.dumps(texts[8])},Anna,"
                   f"{json.dumps(texts[5])},{json.dumps(texts[9])}\n")
    parsed = importer.parse("soci.csv", member_list.encode("utf-8", "surrogatepass"))
    if parsed.ok:
        importer.save(parsed)
    # the prize file: a prize's name and a category
    prize_file = tmp_path / "premi.json"
    prize_file.write_text(json.dumps([{"prize": texts[9], "scope": "overall"},
                                      {"prize": "Dame", "scope": f"category:{texts[8]}"}]), encoding="utf-8")
    door(lambda: call_command("prizes", "sera", "--set", str(prize_file), stdout=StringIO()), lambda: None)
    # a penalty's reason; the championship's name
    pair = t.pairs.get(number=4)
    door(lambda: services.add_penalty(pair=pair, vp=1, reason=texts[6], by=arbiter), lambda: None)
    door(lambda: championship_services.create_championship(by=arbiter, slug="inverno", name=texts[0],
                                                           tournaments=["sera"]),
         lambda: championship_services.create_championship(by=arbiter, slug="inverno", name="Inverno",
                                                           tournaments=["sera"]))

    copy = transfer.import_tournament(data=transfer.export_tournament(t), slug="copia", name="Copia").tournament
    assert copy.pairs.count() == 4
    for path in DOCUMENTS:
        response = arbiter_client.get(f"/tornei/sera/{path}")
        assert response.status_code == 200, (path, texts)
    for path in ("classifica.xlsx", "classifica.pdf"):
        assert arbiter_client.get(f"/campionati/inverno/{path}").status_code == 200, (path, texts)


def test_the_evening_with_plain_texts_prints_every_document(arbiter, arbiter_client, tmp_path):
    """The property's evening itself, with ordinary texts: every door accepts, every document
    answers 200 (so a failure above is the texts' doing)."""
    test_what_the_doors_accept_exports_imports_and_prints.hypothesis.inner_test(
        arbiter, arbiter_client, tmp_path, ["Serata", "Rossi", "Bianchi", "Verdi", "Neri", "Aurora", "Circolo",
                                            "Mario Rossi", "Serra", "Dame"])
    assert Tournament.objects.get(slug="sera").organising_club == "Circolo"
    assert Member.objects.get(membership_number="A1").last_name == "Serra"
