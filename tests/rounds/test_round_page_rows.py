"""The round page of a big round: rows from a fixed number of queries, written in
Python with every value escaped, one form (one CSRF token) for all the "Valida" buttons.

Tournament of the fixtures: 5 pairs, 4 hands, vp20-4h. Round 1 (Mitchell, pairing-io.md):
table 1 = 1 v 3, table 2 = 2 v 4, pair 5 rests (table 3).
Hand calculation of the sheet used here: N/S 600+400+250+300 = 1550 MP, E/O
200+150+300+195 = 845 MP, difference 705 → vp20-4h band 705–900 → 14–6 VP.
"""
import datetime
import re

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services
from tournaments.models import Player, ScoreSheet

HANDS = [services.HandInput(ns=a, ew=b) for a, b in [(600, 200), (400, 150), (250, 300), (300, 195)]]


def round_url(slug="prova", number=1):
    return reverse("round", args=[slug, number])


def row_of(page: str, number: int) -> str:
    return re.search(rf'<tr id="table-{number}".*?</tr>', page, re.S).group(0)


def test_rows_show_pairs_results_states_and_actions(arbiter_client, arbiter, published):
    t1 = published.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=HANDS, by=arbiter)
    page = arbiter_client.get(round_url()).content.decode()

    one = row_of(page, 1)
    assert 'data-status="entered"' in one
    assert "<b>1</b>" in one and "Rossi1 – Verdi1" in one and "<b>3</b>" in one and "Rossi3 – Verdi3" in one
    assert ">1550<" in one and ">845<" in one and ">14–6<" in one
    assert ">Inserito<" in one and ">Modifica<" in one and ">Correzioni<" in one
    validate = reverse("sheet_validate", args=["prova", 1, 1])
    assert f'<button class="validate" form="validate-row" formaction="{validate}">Valida</button>' in one
    assert f'href="{reverse("audit", args=["prova"])}?round=1&amp;table=1"' in one

    two = row_of(page, 2)
    assert 'data-status="empty"' in two and ">Inserisci<" in two
    assert "Valida" not in two and "Correzioni" not in two

    rest = row_of(page, 3)
    assert "<b>5</b>" in rest and "Rossi5 – Verdi5" in rest and "<em>Riposo</em>" in rest

    # one form for every Valida button, with the page's only CSRF token of the table list
    form = re.search(r'<form method="post" id="validate-row"[^>]*>(.*?)</form>', page, re.S).group(1)
    assert 'name="csrfmiddlewaretoken"' in form
    assert page.count('form="validate-row"') == 1


def test_a_rows_validate_button_validates_its_table(arbiter_client, arbiter, published):
    t1 = published.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=HANDS, by=arbiter)
    page = arbiter_client.get(round_url()).content.decode()
    action = re.search(r'form="validate-row" formaction="([^"]+)"', row_of(page, 1)).group(1)
    response = arbiter_client.post(action, follow=True)
    assert "Tavolo 1 validato." in response.content.decode()
    assert ScoreSheet.objects.get(table=t1).state == ScoreSheet.State.VALIDATED
    assert 'data-status="validated"' in row_of(response.content.decode(), 1)


def test_names_and_notes_are_escaped(arbiter_client, arbiter, published):
    Player.objects.filter(pair__number=1, seat=1).update(last_name="<i>O'Neil & Co</i>")
    t1 = published.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=HANDS, by=services.Actor(label="capitano N/S tavolo 1"))
    services.dispute_sheet(table=t1, by=services.Actor(label="capitano E/O tavolo 1"), note="<script>x</script>")
    one = row_of(arbiter_client.get(round_url()).content.decode(), 1)
    assert "&lt;i&gt;O&#x27;Neil &amp; Co&lt;/i&gt; – Verdi1" in one and "<i>" not in one
    assert "«&lt;script&gt;x&lt;/script&gt;»" in one and "<script>" not in one
    assert ">Contestato<" in one


def test_draft_rows_have_no_score_columns(arbiter_client, arbiter, five):
    services.generate_round(tournament=five, by=arbiter)
    page = arbiter_client.get(round_url()).content.decode()
    one = row_of(page, 1)
    assert "<b>1</b>" in one and "<b>3</b>" in one
    assert "row-actions" not in one and 'id="validate-row"' not in page


def queries_of_round_page(client, slug) -> int:
    """Queries of one round page built from the database (the per-round-version cache of its
    rows emptied first: tests/rounds/test_round_cache.py counts the cached answer)."""
    from tournaments.views import round_cache

    round_cache.clear()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(round_url(slug)).status_code == 200
    return len(captured)


def test_queries_do_not_grow_with_the_tables(arbiter_client, arbiter, published, make_pairs):
    """5 pairs (3 tables) and 40 pairs (20 tables): the same number of queries."""
    big = services.create_tournament(by=arbiter, name="Grande", slug="grande", date=datetime.date(2026, 11, 30))
    make_pairs(big, 40)
    rnd = services.publish_round(round=services.generate_round(tournament=big, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    for table in rnd.tables.filter(bye="").order_by("number")[:10]:
        services.save_score_sheet(table=table, hands=HANDS, by=arbiter)
    services.save_score_sheet(table=published.tables.get(number=1), hands=HANDS, by=arbiter)
    queries_of_round_page(arbiter_client, "prova")  # warm-up (session, caches)
    assert queries_of_round_page(arbiter_client, "prova") == queries_of_round_page(arbiter_client, "grande")
