"""Withdrawals, late pairs (art. 32–33) and the standings page (rules.md §8).

Round 1 of the 5-pair fixture: table 1 = 1 v 3, table 2 = 2 v 4, pair 5 rests.
"""
from decimal import Decimal

from django.urls import reverse

from tournaments import services
from tournaments.models import Pair, Table


def body(resp):
    return resp.content.decode()


def test_withdrawal_creates_forced_rest_for_the_opponent(arbiter_client, published):
    url = reverse("pair_withdraw", args=["prova"])
    page = body(arbiter_client.get(url + "?coppia=3&turno=1"))
    assert 'value="3" selected' in page and 'name="reason"' in page
    resp = arbiter_client.post(url, {"pair": "3", "from_round": "1", "reason": ""})
    assert resp.status_code == 200 and Pair.objects.get(number=3).status == "active"  # reason required
    resp = arbiter_client.post(url, {"pair": "3", "from_round": "1", "reason": "malore"}, follow=True)
    page = body(resp)
    assert "Coppia 3 ritirata dal turno 1" in page
    assert "Tavolo 1: riposo forzato per la coppia 1" in page
    t1 = Table.objects.get(round__number=1, number=1)
    assert t1.bye == Table.Bye.FORCED and t1.seats.get().pair.number == 1
    assert Pair.objects.get(number=3).withdrawn_from_round == 1
    assert "Riposo forzato" in page


def test_withdrawal_refused_once_sheet_entered(arbiter_client, arbiter, published):
    t1 = Table.objects.get(round=published, number=1)
    services.save_score_sheet(table=t1, hands=[services.HandInput(0, 0)] * 4, by=arbiter)
    resp = arbiter_client.post(reverse("pair_withdraw", args=["prova"]),
                               {"pair": "3", "from_round": "1", "reason": "malore"})
    assert "lo score è già inserito" in body(resp)
    assert Pair.objects.get(number=3).status == "active"


def test_late_pair_in_round_one_completes_the_rest_table(arbiter_client, published):
    url = reverse("late_pair", args=["prova"])
    data = {"last_name_1": "Tardi", "first_name_1": "Ugo", "membership_1": "T1", "club_1": "",
            "last_name_2": "Ritardo", "first_name_2": "Ida", "membership_2": "T2", "club_2": ""}
    resp = arbiter_client.post(url, data, follow=True)
    assert "Coppia tardiva 6 inserita" in body(resp)
    rest = Table.objects.get(round=published, number=3)
    assert rest.bye == "" and {s.pair.number for s in rest.seats.all()} == {5, 6}
    assert hasattr(rest, "sheet")  # the round is published: the new table gets its sheet


def test_late_pair_refused_after_round_one(arbiter_client, arbiter, published, five):
    for t in published.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=[services.HandInput(0, 0)] * 4, by=arbiter, validate=True)
    services.close_round(round=published, by=arbiter)
    services.generate_round(tournament=five, by=arbiter)
    data = {"last_name_1": "Tardi", "first_name_1": "Ugo", "membership_1": "T1", "club_1": "",
            "last_name_2": "Ritardo", "first_name_2": "Ida", "membership_2": "T2", "club_2": ""}
    resp = arbiter_client.post(reverse("late_pair", args=["prova"]), data)
    assert "solo durante il turno 1" in body(resp) and "art. 33" in body(resp)
    assert Pair.objects.count() == 5


def _close_round_one(arbiter, rnd):
    t1, t2 = rnd.tables.filter(bye="").order_by("number")
    # table 1: 600 v 0 → 13–7; table 2: 0 v 0 → 10–10 (vp20-4h)
    services.save_score_sheet(table=t1, hands=[services.HandInput(600, 0)] + [services.HandInput(0, 0)] * 3,
                              by=arbiter, validate=True)
    services.save_score_sheet(table=t2, hands=[services.HandInput(0, 0)] * 4, by=arbiter, validate=True)
    services.close_round(round=rnd, by=arbiter)


def test_standings_page_after_round_one(arbiter_client, arbiter, published):
    _close_round_one(arbiter, published)
    services.add_penalty(pair=Pair.objects.get(number=3), vp=Decimal(1), reason="cellulare", by=arbiter)
    page = body(arbiter_client.get(reverse("standings", args=["prova"]) + "?dopo=1"))
    assert "Classifica dopo il turno 1" in page
    rows = page.split('<tbody')[1].split("</tbody>")[0].split("<tr")[1:]
    cells = [[c.split(">", 1)[1].split("</td>")[0].strip() for c in r.split("<td")[1:]] for r in rows]
    # position, pair, players, VP, penalty, MP difference, MP scored, rounds, withdrawn
    # 5 rests: 14 VP; 1: 13 VP +600; 2 and 4: 10 VP, 0, tied on every tie-break → "3=";
    # 3: 7 − 1 penalty = 6 VP, −600.
    assert [(c[0], c[1], c[3], c[4], c[5]) for c in cells] == [
        ("1", "5", "14", "", "0"), ("2", "1", "13", "", "600"), ("3=", "2", "10", "", "0"),
        ("3=", "4", "10", "", "0"), ("5", "3", "6", "−1", "-600"),
    ]
    assert "Rossi1 Anna1 – Verdi1 Bruno1" in page
    assert "documenti/classifica.pdf?dopo=1" in page


def test_standings_sortable_by_pair_number(arbiter_client, arbiter, published):
    _close_round_one(arbiter, published)
    page = body(arbiter_client.get(reverse("standings", args=["prova"]) + "?sort=pair"))
    order = [r.split("<td", 3)[2].split(">", 1)[1].split("<")[0] for r in page.split("<tbody")[1].split("<tr")[1:]]
    assert order == ["1", "2", "3", "4", "5"]


def test_standings_marks_withdrawn_pairs(arbiter_client, arbiter, published):
    _close_round_one(arbiter, published)
    services.withdraw_pair(pair=Pair.objects.get(number=3), from_round=2, by=arbiter, reason="partita")
    page = body(arbiter_client.get(reverse("standings", args=["prova"])))
    assert "ritirata" in page


def test_standings_empty_before_any_closed_round(arbiter_client, published):
    page = body(arbiter_client.get(reverse("standings", args=["prova"])))
    assert "Nessun turno chiuso" in page


def test_standings_paginated_by_100_with_few_queries(arbiter_client, tournament, django_assert_max_num_queries):
    from tournaments.models import Player

    pairs = Pair.objects.bulk_create([Pair(tournament=tournament, number=n) for n in range(1, 151)])
    Player.objects.bulk_create([
        Player(tournament=tournament, pair=p, seat=s, first_name=f"N{p.number}{s}", last_name=f"C{p.number}{s}")
        for p in pairs for s in (1, 2)
    ])
    url = reverse("standings", args=["prova"])
    with django_assert_max_num_queries(15):
        page = body(arbiter_client.get(url))
    assert page.count("<tr") == 101  # header + 100 rows
    page2 = body(arbiter_client.get(url + "?page=2"))
    assert page2.count("<tr") == 51 and "C1501 N1501" in page2
