"""Drafts and frozen settings on the arbiter's pages: frozen settings shown on the
settings page, the outdated-draft banner with its one-click redraw, and the generate
form that carries the state it showed.

Values worked by hand (see tests/tournaments/test_services_drafts.py): a rest is 70%
of 20 = 14 VP; plan MD with 4 pairs, round 1 = 1 v 3 2100–0, 2 v 4 400–0 gives round 2
= 1 v 2, 4 v 3, and after correcting table 1 to 0–2100 = 3 v 2, 4 v 1.
"""
import re
from decimal import Decimal

from django.urls import reverse

from tests.forms_data import tournament_settings
from tournaments import selectors, services
from tournaments.models import AuditEntry, Round, Table
from tournaments.services import HandInput


def body(resp):
    return resp.content.decode()


def hands(ns, ew):
    return [HandInput(ns, ew)] + [HandInput(0, 0)] * 3


def close(rnd, arbiter, scores):
    if rnd.state == Round.State.DRAFT:
        rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    for t in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=hands(*scores.get(t.number, (0, 0))), by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


def seating(rnd):
    return {t.number: (t.ns.number, t.ew.number) for t in selectors.round_tables(rnd) if not t.bye}


def settings_post(tournament, **changes):
    return tournament_settings(tournament, **{k: str(v) for k, v in changes.items()})


def test_settings_page_shows_frozen_fields_and_why(arbiter_client, published):
    page = body(arbiter_client.get(reverse("tournament_edit", args=["prova"])))
    assert 'id="frozen-note"' in page and "regole §12" in page
    for name in ("bye_percent", "bye_mp", "hands_per_round", "vp_scale", "rule_set", "kind"):
        tag = re.search(rf'<(input|select)[^>]*name="{name}"[^>]*>', page).group(0)
        assert "disabled" in tag, name
    # tiebreaks_0: the first select of the ordered chooser
    for name in ("tiebreaks_0", "mitchell_step", "rematch_window", "venue"):
        tag = re.search(rf'<(input|select)[^>]*name="{name}"[^>]*>', page).group(0)
        assert "disabled" not in tag, name
    assert "Fissato dalla pubblicazione del turno 1: cambierebbe risultati già inseriti" in page


def test_settings_page_before_round_one_is_published_freezes_nothing(arbiter_client, five):
    page = body(arbiter_client.get(reverse("tournament_edit", args=["prova"])))
    # only the kind (pairs/individual) is locked, because pairs are registered
    assert 'id="frozen-note"' not in page and page.count("disabled") == 1
    assert 'name="kind" disabled' in page


def test_posting_a_new_rest_percent_after_round_one_keeps_14_vp(arbiter_client, arbiter, published):
    """Frozen settings on the page: the frozen field ignores the posted 50; the other
    changes (venue) are saved; pair 5 keeps its 14 VP for resting in round 1."""
    close(published, arbiter, {})
    tournament = published.tournament
    resp = arbiter_client.post(reverse("tournament_edit", args=["prova"]),
                               settings_post(tournament, bye_percent="50", bye_mp="band_lower_edge",
                                             venue="Sala grande"), follow=True)
    assert "Impostazioni salvate" in body(resp)
    tournament.refresh_from_db()
    assert tournament.bye_percent == Decimal("70") and tournament.bye_mp == "zero"
    assert tournament.venue == "Sala grande"
    row = next(r for r in selectors.standings(tournament, after_round=1) if r.pair == 5)
    assert row.vp == Decimal("14")


def _md_four(tournament, make_pairs, arbiter):
    services.update_tournament(tournament=tournament, by=arbiter, plan="MD")
    make_pairs(tournament, 4)
    close(services.generate_round(tournament=tournament, by=arbiter), arbiter, {1: (2100, 0), 2: (400, 0)})
    return services.generate_round(tournament=tournament, by=arbiter)


def test_outdated_draft_page_shows_reasons_refuses_publish_and_redraws(arbiter_client, arbiter, tournament,
                                                                        make_pairs):
    """Outdated drafts on the pages: the banner and its one-click redraw."""
    draft = _md_four(tournament, make_pairs, arbiter)
    assert seating(draft) == {1: (1, 2), 2: (4, 3)}
    url = reverse("round", args=["prova", 2])
    assert 'id="outdated"' not in body(arbiter_client.get(url))
    t1 = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    services.save_score_sheet(table=t1, hands=hands(0, 2100), by=arbiter, kind="transcription", reason="linee invertite", validate=True)
    page = body(arbiter_client.get(url))
    assert 'id="outdated"' in page and "Bozza superata" in page
    assert "classifica dopo il turno 1 è cambiata per le coppie 1, 3" in page
    assert 'id="redraw"' in page and 'id="publish"' not in page
    # A publish posted anyway (an old tab) is refused with the reasons.
    resp = arbiter_client.post(reverse("round_publish", args=["prova", 2]), HTTP_REFERER=url, follow=True)
    page = body(resp)
    assert "La bozza del turno 2 è superata: ridisegnala prima di pubblicarla" in page
    assert Round.objects.get(tournament=tournament, number=2).state == "draft"
    # The publish confirmation sends back to the round page.
    resp = arbiter_client.get(reverse("round_publish", args=["prova", 2]))
    assert resp.status_code == 302 and resp["Location"] == url
    # One click draws it again.
    resp = arbiter_client.post(reverse("round_redraw", args=["prova", 2]), follow=True)
    page = body(resp)
    assert "Turno 2 ridisegnato" in page and 'id="outdated"' not in page
    assert seating(Round.objects.get(tournament=tournament, number=2)) == {1: (3, 2), 2: (4, 1)}
    # A second click changes nothing.
    resp = arbiter_client.post(reverse("round_redraw", args=["prova", 2]), follow=True)
    assert "già aggiornata" in body(resp)
    assert AuditEntry.objects.filter(tournament=tournament, action="round_redrawn").count() == 1
    audit_page = body(arbiter_client.get(reverse("audit", args=["prova"]) + "?round=2"))
    assert "Bozza ridisegnata (era superata)" in audit_page and "coppie 1, 3" in audit_page


def test_generate_form_carries_its_state_and_three_posts_make_one_round(arbiter_client, five):
    page = body(arbiter_client.get(reverse("round_generate", args=["prova"])))
    data = {
        "expected_round": re.search(r'name="expected_round" value="(\d+)"', page).group(1),
        "state": re.search(r'name="state" value="([0-9a-f]+)"', page).group(1),
    }
    assert data["expected_round"] == "1"
    pages = [body(arbiter_client.post(reverse("round_generate", args=["prova"]), data, follow=True))
             for _ in range(3)]
    assert "Turno 1 generato" in pages[0]
    assert all("era già stato generato" in p for p in pages[1:])
    assert Round.objects.count() == 1
    assert AuditEntry.objects.filter(action="round_generated").count() == 1


def test_generate_next_button_on_closed_round_page_is_idempotent(arbiter_client, arbiter, published):
    close(published, arbiter, {})
    page = body(arbiter_client.get(reverse("round", args=["prova", 1])))
    form = page[page.index('action="%s"' % reverse("round_generate", args=["prova"])):]
    data = {
        "expected_round": re.search(r'name="expected_round" value="(\d+)"', form).group(1),
        "state": re.search(r'name="state" value="([0-9a-f]+)"', form).group(1),
    }
    assert data["expected_round"] == "2"
    for _ in range(2):
        arbiter_client.post(reverse("round_generate", args=["prova"]), data)
    assert Round.objects.filter(number=2).count() == 1
    assert AuditEntry.objects.filter(action="round_generated", round_number=2).count() == 1


def test_stale_generate_form_is_refused_with_a_message(arbiter_client, arbiter, five):
    page = body(arbiter_client.get(reverse("round_generate", args=["prova"])))
    state = re.search(r'name="state" value="([0-9a-f]+)"', page).group(1)
    rnd = services.generate_round(tournament=five, by=arbiter)  # another tab generated and published it
    services.publish_round(round=rnd, by=arbiter)
    resp = arbiter_client.post(reverse("round_generate", args=["prova"]),
                               {"expected_round": "1", "state": state}, follow=True)
    assert "stato superato" in body(resp)
    assert Round.objects.get().pk == rnd.pk and Round.objects.get().state == "published"
