"""Custom VP scale pages (rules.md §4): every validation error through the form and the CSV
upload, a valid 2-hand scale saved and used by a tournament, deletion only when unused.

The scales below are made up for the tests; every expected figure is worked by hand.
"""
import datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.vp import format_vp, scale_from_dict, scale_to_dict
from tournaments import selectors, services
from tournaments.models import CustomScale, Pair, Round, ScoreSheet, Seat, Table, Tournament

# A 2-hand scale, 20 VP: bands 0–30, 35–100, 105–200, 205–∞.
VALID_2H = [(0, 30, 10, 10), (35, 100, 12, 8), (105, 200, 15, 5), (205, None, 18, 2)]

# (rows, what the message must say) — one mistake each, everything else as VALID_2H.
ERRORS = {
    "gap": ([(0, 30, 10, 10), (40, 100, 12, 8), (105, 200, 15, 5), (205, None, 18, 2)],
            "Buco tra 30 e 40"),
    "overlap": ([(0, 30, 10, 10), (30, 100, 12, 8), (105, 200, 15, 5), (205, None, 18, 2)],
                "Sovrapposizione tra 30 e 30"),
    "not_multiple_of_5": ([(0, 32, 10, 10), (35, 100, 12, 8), (105, 200, 15, 5), (205, None, 18, 2)],
                          "il limite superiore 32 non è multiplo di 5"),
    "split_not_total": ([(0, 30, 10, 10), (35, 100, 12, 7), (105, 200, 15, 5), (205, None, 18, 2)],
                        "12 + 7 = 19, non 20 (il totale della tabella)"),
    "winner_decreasing": ([(0, 30, 10, 10), (35, 100, 15, 5), (105, 200, 12, 8), (205, None, 18, 2)],
                          "i VP del vincente scendono da 15 a 12"),
}


@pytest.fixture
def arbiter(db, django_user_model):
    """Custom scales are shared by every tournament, so only staff create and delete them
    (no arbiter changes another's results): the arbiter of these tests is staff. Non-staff arbiters are tested
    in tests/tournaments/test_accounts.py."""
    return django_user_model.objects.create_user(username="arbitro", password="segreta-123", is_staff=True)


def form_data(rows, *, scale_id="vp20-2h", name="20 VP, 2 smazzate", total="20", hands="2", extra=3):
    data = {"scale-scale_id": scale_id, "scale-name": name, "scale-total": total, "scale-hands": hands,
            "band-TOTAL_FORMS": str(len(rows) + extra), "band-INITIAL_FORMS": "0",
            "band-MIN_NUM_FORMS": "0", "band-MAX_NUM_FORMS": "1000"}
    for i, (mn, mx, w, lo) in enumerate(rows):
        data.update({f"band-{i}-min": mn, f"band-{i}-max": "" if mx is None else mx,
                     f"band-{i}-winner": w, f"band-{i}-loser": lo})
    for i in range(len(rows), len(rows) + extra):  # blank rows are ignored
        data.update({f"band-{i}-min": "", f"band-{i}-max": "", f"band-{i}-winner": "", f"band-{i}-loser": ""})
    return data


def csv_text(rows, sep=";"):
    lines = [sep.join(["min", "max", "vincente", "perdente"])]
    lines += [sep.join("" if v is None else str(v) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


def upload_data(text, *, scale_id="vp20-2h", name="20 VP, 2 smazzate", total="", hands="2"):
    return {"scale-scale_id": scale_id, "scale-name": name, "scale-total": total, "scale-hands": hands,
            "scale-file": SimpleUploadedFile("tabella.csv", text.encode("utf-8"), content_type="text/csv")}


def test_pages_require_login(client, db):
    for name in ("scales", "scale_create", "scale_upload"):
        resp = client.get(reverse(name))
        assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]


def test_list_shows_builtin_scales_read_only_as_bands(arbiter_client):
    body = arbiter_client.get(reverse("scales")).content.decode()
    assert "vp20-3h" in body and "vp20-4h" in body
    assert "1505 – ∞" in body and "705 – 900" in body  # last 3-hand band, a 4-hand band
    assert reverse("scale_delete", args=["vp20-4h"]) not in body
    assert reverse("scales") in arbiter_client.get(reverse("home")).content.decode()


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_form_refuses_with_message_and_saves_nothing(arbiter_client, case):
    rows, message = ERRORS[case]
    resp = arbiter_client.post(reverse("scale_create"), form_data(rows))
    assert resp.status_code == 200
    assert message in resp.content.decode()
    assert not CustomScale.objects.exists()


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_csv_refuses_with_message_naming_the_line_and_saves_nothing(arbiter_client, case):
    rows, message = ERRORS[case]
    resp = arbiter_client.post(reverse("scale_upload"), upload_data(csv_text(rows), total="20"))
    body = resp.content.decode()
    assert resp.status_code == 200
    assert message.replace("Fascia", "Riga") in body or message in body
    assert "riga " in body.lower()  # CSV messages name the line of the file ("Riga 3", "(riga 2 e riga 3)")
    assert not CustomScale.objects.exists()


def test_form_message_names_the_band(arbiter_client):
    rows, _ = ERRORS["split_not_total"]
    body = arbiter_client.post(reverse("scale_create"), form_data(rows)).content.decode()
    assert "Fascia 2: 12 + 7 = 19" in body


def test_csv_message_names_the_line(arbiter_client):
    rows, _ = ERRORS["not_multiple_of_5"]
    body = arbiter_client.post(reverse("scale_upload"), upload_data(csv_text(rows))).content.decode()
    # line 1 is the header, the first band is line 2
    assert "Riga 2: il limite superiore 32 non è multiplo di 5" in body


def test_csv_total_defaults_to_first_band_and_a_wrong_total_is_caught(arbiter_client):
    body = arbiter_client.post(reverse("scale_upload"),
                               upload_data(csv_text(VALID_2H), total="25")).content.decode()
    assert "10 + 10 = 20, non 25" in body and not CustomScale.objects.exists()


def test_form_valid_two_hand_scale_is_saved(arbiter_client):
    resp = arbiter_client.post(reverse("scale_create"), form_data(VALID_2H))
    assert resp.status_code == 302
    custom = CustomScale.objects.get()
    assert custom.scale_id == "vp20-2h" and custom.name == "20 VP, 2 smazzate"
    scale = scale_from_dict(custom.data)
    assert scale_to_dict(scale) == custom.data
    assert scale.hands == 2 and scale.total == 20
    assert [(b.min, b.max, b.winner, b.loser) for b in scale.bands] == VALID_2H
    body = arbiter_client.get(reverse("scales")).content.decode()
    assert "20 VP, 2 smazzate" in body and "205 – ∞" in body
    assert ("vp20-2h", "20 VP, 2 smazzate") in selectors.scales.scale_choices()


def test_csv_valid_scale_with_decimal_comma_is_saved(arbiter_client):
    rows = [(0, 30, "10,5", "10,5"), (35, None, 21, 0)]
    resp = arbiter_client.post(reverse("scale_upload"), upload_data(csv_text(rows), scale_id="vp21-2h"))
    assert resp.status_code == 302
    scale = selectors.scales.scale_by_id("vp21-2h")
    assert scale.total == 21 and scale.bands[0].winner == Decimal("10.5")


def test_an_id_already_taken_is_refused(arbiter_client):
    for scale_id in ("vp20-4h", "vp20-2h"):
        resp = arbiter_client.post(reverse("scale_create"), form_data(VALID_2H, scale_id=scale_id))
        if scale_id == "vp20-4h":
            assert resp.status_code == 200 and "Esiste già" in resp.content.decode()
        else:
            assert resp.status_code == 302
    resp = arbiter_client.post(reverse("scale_create"), form_data(VALID_2H, scale_id="vp20-2h"))
    assert "Esiste già" in resp.content.decode() and CustomScale.objects.count() == 1


def test_no_bands_at_all_is_refused(arbiter_client):
    resp = arbiter_client.post(reverse("scale_create"), form_data([]))
    assert "Inserisci almeno una fascia" in resp.content.decode() and not CustomScale.objects.exists()


def _settings(t, **changes):
    data = {"name": t.name, "slug": t.slug, "date": t.date.isoformat(), "venue": t.venue, "kind": t.kind,
            "plan": t.plan, "hands_per_round": t.hands_per_round, "vp_scale": t.vp_scale,
            "mitchell_step": t.mitchell_step, "first_round": t.first_round, "rematch_window": t.rematch_window,
            "bye_percent": str(t.bye_percent), "bye_mp": t.bye_mp, "tiebreaks": t.tiebreaks, "rule_set": t.rule_set}
    data.update(changes)
    return data


def test_tournament_uses_the_custom_two_hand_scale(arbiter_client, tournament):
    arbiter_client.post(reverse("scale_create"), form_data(VALID_2H))
    resp = arbiter_client.post(reverse("tournament_edit", args=[tournament.slug]),
                               _settings(tournament, hands_per_round=2, vp_scale="vp20-2h"))
    assert resp.status_code == 302, resp.content.decode()
    t = Tournament.objects.get(pk=tournament.pk)
    assert t.vp_scale == "vp20-2h" and selectors.scales.scale_of(t).hands == 2
    # a table 0 v 150 MP: difference 150 → band 105–200 → 5–15
    from scoring.vp import convert
    assert convert(0, 150, selectors.scales.scale_of(t)) == (5, 15)


def test_a_two_hand_scale_is_refused_for_four_hands(arbiter_client, tournament):
    arbiter_client.post(reverse("scale_create"), form_data(VALID_2H))
    resp = arbiter_client.post(reverse("tournament_edit", args=[tournament.slug]),
                               _settings(tournament, vp_scale="vp20-2h"))
    assert resp.status_code == 200 and "è per 2 smazzate" in resp.content.decode()


# A 25-VP scale: max 25, so a rest at 70 % is 17.5 VP (25 × 0.7).
VP25 = [(0, 50, "12.5", "12.5"), (55, 200, 15, 10), (205, 400, 20, 5), (405, None, 25, 0)]


def test_rest_is_70_percent_of_a_25_vp_custom_scale_shown_17_5(arbiter_client, arbiter, make_pairs):
    resp = arbiter_client.post(reverse("scale_create"),
                               form_data(VP25, scale_id="vp25", name="25 VP", total="25", hands=""))
    assert resp.status_code == 302
    t = services.create_tournament(by=arbiter, name="Venticinque", slug="venticinque",
                                   date=datetime.date(2026, 12, 5), vp_scale="vp25", plan="D")
    assert selectors.scales.rest_values(t) == (Decimal("17.5"), 0)
    page = arbiter_client.get(reverse("scales")).content.decode()
    assert '<b class="rest-vp">17.5</b>' in page
    # one closed round, three pairs: 1 v 2 (300 v 50: difference 250 → 20–5), 3 rests
    make_pairs(t, 3)
    pair = {p.number: p for p in Pair.objects.filter(tournament=t)}
    rnd = Round.objects.create(tournament=t, number=1, system=Round.System.DANISH, state=Round.State.CLOSED)
    table = Table.objects.create(round=rnd, number=1)
    Seat.objects.create(round=rnd, table=table, pair=pair[1], line=Seat.Line.NS)
    Seat.objects.create(round=rnd, table=table, pair=pair[2], line=Seat.Line.EW)
    ScoreSheet.objects.create(table=table, state=ScoreSheet.State.VALIDATED, mp_ns=300, mp_ew=50,
                              vp_ns=Decimal(20), vp_ew=Decimal(5))
    rest = Table.objects.create(round=rnd, number=2, bye=Table.Bye.REST)
    Seat.objects.create(round=rnd, table=rest, pair=pair[3], line=Seat.Line.NS)
    rows = {r.pair: r for r in selectors.standings(t)}
    assert rows[1].vp == 20 and rows[2].vp == 5
    assert rows[3].vp == Decimal("17.5") and format_vp(rows[3].vp) == "17.5"
    assert [r.pair for r in selectors.standings(t)] == [1, 3, 2]


def test_delete_asks_confirmation_then_deletes(arbiter_client):
    arbiter_client.post(reverse("scale_create"), form_data(VALID_2H))
    url = reverse("scale_delete", args=["vp20-2h"])
    assert url in arbiter_client.get(reverse("scales")).content.decode()
    confirm = arbiter_client.get(url)
    assert confirm.status_code == 200 and "Cancellare la tabella" in confirm.content.decode()
    assert CustomScale.objects.exists()
    assert arbiter_client.post(url).status_code == 302
    assert not CustomScale.objects.exists()


def test_delete_refused_while_a_tournament_uses_it(arbiter_client, arbiter):
    arbiter_client.post(reverse("scale_create"), form_data(VALID_2H))
    services.create_tournament(by=arbiter, name="Due mani", slug="due-mani", date=datetime.date(2026, 12, 5),
                               hands_per_round=2, vp_scale="vp20-2h")
    url = reverse("scale_delete", args=["vp20-2h"])
    assert url not in arbiter_client.get(reverse("scales")).content.decode()
    resp = arbiter_client.post(url, follow=True)
    assert "usata dal torneo Due mani" in resp.content.decode()
    assert CustomScale.objects.filter(scale_id="vp20-2h").exists()
    resp = arbiter_client.get(url, follow=True)
    assert "usata dal torneo Due mani" in resp.content.decode()


def test_builtin_scale_cannot_be_deleted(arbiter_client):
    resp = arbiter_client.post(reverse("scale_delete", args=["vp20-4h"]), follow=True)
    assert "non è una tabella personalizzata" in resp.content.decode()
