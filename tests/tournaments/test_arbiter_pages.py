"""Arbiter pages: login required, tournaments, pairs."""
from django.urls import reverse

from tournaments.models import Pair, Tournament


def test_pages_require_login(client, tournament):
    for url in (reverse("home"), reverse("tournament", args=["prova"]), reverse("pairs", args=["prova"])):
        resp = client.get(url)
        assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]


def test_home_lists_tournaments_newest_first(arbiter_client, arbiter):
    import datetime

    from tournaments import services

    services.create_tournament(by=arbiter, name="Vecchio", slug="vecchio", date=datetime.date(2025, 1, 1))
    services.create_tournament(by=arbiter, name="Nuovo", slug="nuovo", date=datetime.date(2026, 6, 1))
    body = arbiter_client.get(reverse("home")).content.decode()
    assert body.index("Nuovo") < body.index("Vecchio")


def test_create_tournament_with_defaults(arbiter_client):
    resp = arbiter_client.post(reverse("tournament_create"), {
        "name": "Coppa", "slug": "coppa", "date": "2026-12-01", "venue": "", "kind": "pairs", "plan": "mmmd",
        "hands_per_round": 4, "vp_scale": "vp20-4h", "mitchell_step": 1, "first_round": "number",
        "rematch_window": "all", "bye_percent": "70", "bye_mp": "zero",
        "tiebreaks": "vp,mp_difference,head_to_head,mp_scored", "rule_set": "fibur",
    })
    assert resp.status_code == 302
    t = Tournament.objects.get(slug="coppa")
    assert t.plan == "MMMD" and t.audit.filter(action="tournament_created").exists()


def test_scale_must_match_hands(arbiter_client):
    resp = arbiter_client.post(reverse("tournament_create"), {
        "name": "Coppa", "slug": "coppa", "date": "2026-12-01", "kind": "pairs", "plan": "MMMD",
        "hands_per_round": 3, "vp_scale": "vp20-4h", "mitchell_step": 1, "first_round": "number",
        "rematch_window": "all", "bye_percent": "70", "bye_mp": "zero",
        "tiebreaks": "vp", "rule_set": "fibur",
    })
    assert resp.status_code == 200 and "è per 4 smazzate" in resp.content.decode()


def test_add_edit_remove_pair(arbiter_client, tournament):
    data = {"number": "", "last_name_1": " Rossi ", "first_name_1": "Anna", "membership_1": "1", "club_1": "",
            "last_name_2": "Verdi", "first_name_2": "Bruno", "membership_2": "2", "club_2": ""}
    assert arbiter_client.post(reverse("pair_add", args=["prova"]), data).status_code == 302
    pair = Pair.objects.get(tournament=tournament, number=1)
    assert pair.name == "Rossi – Verdi"
    # the same player again is refused with a message, nothing saved
    data2 = dict(data, membership_2="3")
    resp = arbiter_client.post(reverse("pair_add", args=["prova"]), data2)
    assert "già iscritto" in resp.content.decode() and Pair.objects.count() == 1
    data3 = dict(data, last_name_2="Bianchi")
    assert arbiter_client.post(reverse("pair_edit", args=["prova", 1]), data3).status_code == 302
    assert Pair.objects.get(pk=pair.pk).name == "Rossi – Bianchi"
    assert arbiter_client.post(reverse("pair_remove", args=["prova", 1])).status_code == 302
    assert not Pair.objects.exists()


def test_pair_with_results_cannot_be_removed(arbiter_client, arbiter, tournament, make_pairs):
    from tournaments import services

    make_pairs(tournament, 4)
    services.generate_round(tournament=tournament, by=arbiter)
    resp = arbiter_client.post(reverse("pair_remove", args=["prova", 1]), follow=True)
    assert "non si può cancellare" in resp.content.decode()
    assert Pair.objects.filter(number=1).exists()


def test_pairs_page_lists_pairs(arbiter_client, tournament, make_pairs):
    make_pairs(tournament, 3)
    body = arbiter_client.get(reverse("pairs", args=["prova"])).content.decode()
    assert "Rossi3" in body and "Verdi1" in body


def test_mitchell_plan_longer_than_the_movement_is_warned(arbiter_client, tournament, make_pairs):
    """6 pairs: T = 3 tables, step 1 → meetings repeat after 3 Mitchell rounds (rules §6)."""
    from tournaments import services

    make_pairs(tournament, 6)
    services.update_tournament(tournament=tournament, by=None, plan="MMMM")
    body = arbiter_client.get(reverse("tournament", args=["prova"])).content.decode()
    assert "turno 4" in body.lower()


def test_refusal_without_referer_redirects_home(arbiter_client, arbiter, monkeypatch):
    """Regression: an ArbiterError in a view without a tournament and no Referer crashed."""
    from tournaments import services
    from tournaments.errors import ArbiterError

    def refuse(**kwargs):
        raise ArbiterError("rifiutato")

    monkeypatch.setattr(services, "create_tournament", refuse)
    resp = arbiter_client.post(reverse("tournament_create"), {
        "name": "Coppa", "slug": "coppa", "date": "2026-12-01", "kind": "pairs", "plan": "MMMD",
        "hands_per_round": 4, "vp_scale": "vp20-4h", "mitchell_step": 1, "first_round": "number",
        "rematch_window": "all", "bye_percent": "70", "bye_mp": "zero",
        "tiebreaks": "vp", "rule_set": "fibur",
    })
    assert resp.status_code == 302 and resp["Location"] == reverse("home")


def test_new_tournament_form_defaults_to_the_4_hand_scale(arbiter_client):
    """Regression: the form preselected vp20-3h while the default is 4 hands → refused."""
    body = arbiter_client.get(reverse("tournament_create")).content.decode()
    assert '<option value="vp20-4h" selected>' in body


def test_pairs_list_links_to_withdrawal(arbiter_client, tournament, make_pairs):
    make_pairs(tournament, 2)
    body = arbiter_client.get(reverse("pairs", args=["prova"])).content.decode()
    assert reverse("pair_withdraw", args=["prova"]) + "?coppia=2" in body


def test_builtin_scale_names_follow_the_ui_language(arbiter_client, tournament, settings):
    """Regression: the Italian UI showed the data file's English name '20 VP, 4 hands'."""
    body = arbiter_client.get(reverse("tournament", args=["prova"])).content.decode()
    assert "20 VP, 4 smazzate" in body and "4 hands" not in body


def test_pairs_that_played_offer_no_delete(arbiter_client, arbiter, tournament, make_pairs):
    """Regression: 'Cancella' was offered for pairs already seated, then refused."""
    from tournaments import services

    make_pairs(tournament, 4)
    services.generate_round(tournament=tournament, by=arbiter)
    body = arbiter_client.get(reverse("pairs", args=["prova"])).content.decode()
    assert reverse("pair_remove", args=["prova", 1]) not in body


def test_favicon(client):
    resp = client.get("/favicon.ico")
    assert resp.status_code == 301 and resp["Location"].endswith("favicon.svg")


def test_individual_tournaments_can_be_created(arbiter_client):
    """Individual play (rules §9) is built: the form no longer refuses the kind."""
    resp = arbiter_client.post(reverse("tournament_create"), {
        "name": "Indiv", "slug": "indiv", "date": "2026-12-01", "kind": "individual", "plan": "MMMD",
        "hands_per_round": 4, "vp_scale": "vp20-4h", "mitchell_step": 1, "first_round": "number",
        "rematch_window": "all", "bye_percent": "70", "bye_mp": "zero", "tiebreaks": "vp", "rule_set": "fibur",
    })
    assert resp.status_code == 302
    assert Tournament.objects.get(slug="indiv").kind == "individual"
