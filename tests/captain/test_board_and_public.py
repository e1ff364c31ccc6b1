"""Arbiter's live board, captain links page, public pages and their switches."""
import re

from django.test import Client
from django.urls import reverse

from tests.captain.helpers import HANDS, captain_post, captain_save
from tournaments import services
from tournaments.models import AuditEntry, ScoreSheet, Tournament


def rows(arbiter_client, stamp=""):
    return arbiter_client.get(reverse("board_rows", args=["prova", 1]), {"stamp": stamp})


def test_board_needs_login(client, published_round):
    response = client.get(reverse("board", args=["prova", 1]))
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert client.get(reverse("board_rows", args=["prova", 1])).status_code == 302


def test_board_lists_every_table_and_follows_the_captains(client, other_client, arbiter_client, tables):
    page = arbiter_client.get(reverse("board", args=["prova", 1]))
    assert page.status_code == 200
    html = page.content.decode()
    for number in (1, 2, 3, 4):
        assert f'id="t{number}"' in html
    assert html.count('data-state="empty"') == 4
    stamp = page.context["stamp"]
    assert rows(arbiter_client, stamp).status_code == 204          # nothing changed

    captain_save(client, tables[3])                                 # the N/S captain of table 3 enters
    fragment = rows(arbiter_client, stamp)
    assert fragment.status_code == 200
    html = fragment.content.decode()
    assert 'id="t3" data-state="entered"' in html and "1550–845" in html and "14–6" in html
    assert html.count('data-state="empty"') == 3

    captain_post(other_client, "captain_dispute", tables[3], {"line": "ew", "version": 1, "note": "manca la chiusura"})
    html = rows(arbiter_client, fragment.context["stamp"]).content.decode()
    assert 'id="t3" data-state="disputed"' in html and "manca la chiusura" in html and 'role="alert"' in html


def test_board_links_each_table_to_its_sheet_page(arbiter_client, tables):
    html = arbiter_client.get(reverse("board", args=["prova", 1])).content.decode()
    assert 'href="/tornei/prova/turni/1/tavoli/2/"' in html


def test_board_names_the_pairs_at_each_table(arbiter_client, tables):
    """Mitchell round 1 of 8 pairs (rules.md §6): pairs 1–4 N/S at tables 1–4, 5–8 E/W;
    the board names each line by its pair number and surnames."""
    html = arbiter_client.get(reverse("board", args=["prova", 1])).content.decode()
    assert "<b>1</b> <span class=\"hide-phone\">Rossi1 – Verdi1</span>" in html
    assert "<b>5</b> <span class=\"hide-phone\">Rossi5 – Verdi5</span>" in html


def test_sum_error_is_flagged(client, arbiter_client, tables):
    captain_save(client, tables[1], declared=[1500, 845])
    html = rows(arbiter_client).content.decode()
    assert "Errore di somma" in html and "Tavolo 1: errore di somma" in html


def test_validate_button_on_confirmed_sheets(client, other_client, arbiter_client, tables):
    captain_save(client, tables[2])
    url = reverse("board_validate", args=["prova", 1, 2])
    captain_post(other_client, "captain_confirm", tables[2], {"line": "ew", "version": 1})
    assert f'action="{url}"' in rows(arbiter_client).content.decode()
    response = arbiter_client.post(url, {"version": 2})   # the version the board showed
    assert response.status_code == 302 and response.url == reverse("board", args=["prova", 1])
    assert ScoreSheet.objects.get(table=tables[2]).state == ScoreSheet.State.VALIDATED
    assert AuditEntry.objects.filter(action="sheet_validated", table_number=2, user__isnull=False).exists()
    # the captain's link no longer accepts changes
    assert captain_save(client, tables[2], version=3, hands=[[5, 0]] * 4).status_code == 400


def test_captain_links_page_has_qr_and_pin(arbiter_client, tables):
    html = arbiter_client.get(reverse("captain_links", args=["prova", 1])).content.decode()
    for t in tables.values():
        assert t.pin in html and f"/c/{t.token}/" in html
    assert html.count("<svg") == 4


def test_captain_links_page_of_a_draft_says_the_links_work_from_publication(arbiter_client, tournament, make_pairs,
                                                                            arbiter):
    """A draft round's links answer 404 until the round is published (and change if it is
    drawn again): its links page says so; the published round's page does not."""
    make_pairs(tournament, 8)
    draft = services.generate_round(tournament=tournament, by=arbiter)
    html = arbiter_client.get(reverse("captain_links", args=["prova", draft.number])).content.decode()
    assert 'id="draft-links-note"' in html and "funzionano solo dopo la pubblicazione" in html
    services.publish_round(round=draft, by=arbiter, acknowledge_warnings=True)
    html = arbiter_client.get(reverse("captain_links", args=["prova", draft.number])).content.decode()
    assert 'id="draft-links-note"' not in html


def test_settings_page_leads_to_the_public_switches(arbiter_client, tournament):
    html = arbiter_client.get(reverse("tournament_edit", args=["prova"])).content.decode()
    assert 'id="public-switches-note"' in html and reverse("public_switches", args=["prova"]) in html


def test_public_pages_404_when_off(client, published_round):
    assert client.get(reverse("public", args=["prova"])).status_code == 404
    assert client.get(reverse("projector", args=["prova"])).status_code == 404
    assert client.get(reverse("public", args=["nessuno"])).status_code == 404


def test_arbiter_switches_public_pages_on_and_off(arbiter_client, published_round, tables):
    client = Client()                                               # a player, not logged in
    url = reverse("public_switches", args=["prova"])
    assert client.get(url).status_code == 302                       # arbiter only
    assert arbiter_client.post(url, {"public_enabled": "on"}).status_code == 302
    t = Tournament.objects.get(slug="prova")
    assert t.public_enabled and not t.projector_enabled
    assert AuditEntry.objects.filter(action="tournament_updated").exists()
    page = client.get(reverse("public", args=["prova"]))
    assert page.status_code == 200
    assert tables[1].ns.full_name in page.content.decode()
    assert client.get(reverse("projector", args=["prova"])).status_code == 404
    arbiter_client.post(url, {"projector_enabled": "on"})
    assert client.get(reverse("public", args=["prova"])).status_code == 404
    projector = client.get(reverse("projector", args=["prova"]))
    assert projector.status_code == 200
    assert 'http-equiv="refresh" content="30;url=?s=0"' in projector.content.decode()   # one screen only


def test_public_standings_after_closed_round(client, arbiter, tournament, tables, published_round):
    for t in tables.values():
        services.save_score_sheet(table=t, hands=[services.HandInput(*h) for h in HANDS], by=arbiter, validate=True)
    services.close_round(round=published_round, by=arbiter)
    services.update_tournament(tournament=tournament, by=arbiter, public_enabled=True, projector_enabled=True)
    html = client.get(reverse("public", args=["prova"])).content.decode()
    assert "Classifica dopo il turno 1" in html
    # every N/S line won 14–6; the four N/S pairs share 1st place
    assert html.count(">1=<") == 4 and html.count("<b>14</b>") == 4
    # projector: screen 1 = tables, screen 2 = standings (8 pairs ≤ 16 rows), then back to 1
    first = client.get(reverse("projector", args=["prova"])).content.decode()
    assert "url=?s=1" in first and "Tabellone turno 1" in first
    second = client.get(reverse("projector", args=["prova"]), {"s": 1}).content.decode()
    assert "Classifica dopo il turno 1" in second and "url=?s=0" in second


def test_board_counts_a_sum_error_sheet_under_errore_di_somma_like_the_round_page(client, arbiter_client, tables):
    """Regression: the board counted a sheet with a sum error under "Inserito" while the
    round page lists "Errore di somma" separately."""
    captain_save(client, tables[1], declared=[1500, 845])          # 1550 typed, 1500 written: sum error
    captain_save(client, tables[2])                                 # entered, sums right
    fragment = rows(arbiter_client)
    counts = {value: n for value, _label, n in fragment.context["states"]}
    # a captain's entry not yet confirmed is "awaiting", as on the round page
    assert counts == {"empty": 2, "draft": 0, "entered": 0, "awaiting": 1, "sum_error": 1, "confirmed": 0,
                      "disputed": 0, "validated": 0}
    html = fragment.content.decode()
    assert "Errore di somma: <b>1</b>" in html and "Inserito, da confermare: <b>1</b>" in html
    round_page = arbiter_client.get(reverse("round", args=["prova", 1]))
    assert {k: n for k, n in round_page.context["counts"].items()} == counts


def test_board_who_column_shows_the_arbiters_label_as_stored_not_arbitro_arbitro(arbiter, arbiter_client, tables):
    """Regression: the "Chi" column showed "arbitro arbitro", and a sheet saved with
    "Salva e valida" showed nobody. The board shows entered_by as the services store it."""
    hands = [services.HandInput(*h) for h in HANDS]
    services.save_score_sheet(table=tables[1], hands=hands, by=arbiter, validate=True)   # "Salva e valida"
    services.save_score_sheet(table=tables[2], hands=hands, by=arbiter)                  # "Salva"
    fragment = rows(arbiter_client)
    by_table = {r["number"]: r for r in fragment.context["rows"]}
    for number in (1, 2):
        stored = ScoreSheet.objects.get(table=tables[number]).entered_by
        assert stored and by_table[number]["entered_by"] == stored
    assert by_table[1]["state"] == "validated"
    html = fragment.content.decode()
    assert "arbitro arbitro" not in html
    assert html.count("arbitro (arbitro)") == 2


def test_public_page_header_links_to_the_public_page_not_the_arbiters_login(client, arbiter, tournament, tables):
    """Regression: the tournament name in the players' page header led to /tornei/<slug>/,
    the arbiter's login page."""
    services.update_tournament(tournament=tournament, by=arbiter, public_enabled=True)
    html = client.get(reverse("public", args=["prova"])).content.decode()
    assert '<a class="crumb" href="/p/prova/">Torneo di prova</a>' in html
    assert 'href="/tornei/prova/"' not in html


def test_public_page_has_a_find_your_seat_list_by_surname(client, arbiter, tournament, tables):
    """Players look themselves up by surname: pair, table, line (like the printed table list)."""
    services.update_tournament(tournament=tournament, by=arbiter, public_enabled=True)
    response = client.get(reverse("public", args=["prova"]))
    html = response.content.decode()
    assert 'id="posto"' in html and "Trova il tuo posto" in html
    seats = response.context["seats"]
    # 8 pairs of make_pairs: Rossi1..8 Anna, Verdi1..8 Bruno; by surname all Rossi first.
    assert [s.last_name for s in seats] == [f"Rossi{k}" for k in range(1, 9)] + [f"Verdi{k}" for k in range(1, 9)]
    where = {}
    for t in tables.values():
        where[t.ns.number] = (t.number, "N/S")
        where[t.ew.number] = (t.number, "E/O")
    for s in seats:
        assert (s.table, s.line) == where[s.pair]
        assert s.pair == int(s.last_name[-1])
    # no captain link leaks to the players' page
    for t in tables.values():
        assert t.token not in html


def test_round_page_links_to_the_captain_links_page(arbiter_client, tables):
    """Regression: the page of captain links and QR codes was reachable only from the live board."""
    html = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    url = reverse("captain_links", args=["prova", 1])
    assert f'href="{url}">Link e QR dei capitani</a>' in html


def test_disputed_sheet_with_a_sum_error_was_counted_contestato_0(client, other_client, arbiter_client, tables):
    """Regression: table 3 disputed AND with a sum error showed only "Errore di somma" on
    the round page, and the board's counter said "Contestato: 0". Now the dispute wins the
    badge and the counter, the sum-error mark and the note stay visible on both pages."""
    captain_save(client, tables[3], declared=[1500, 845])                # sum error
    captain_post(other_client, "captain_dispute", tables[3], {"line": "ew", "version": 1, "note": "manca la chiusura"})
    fragment = rows(arbiter_client)
    counts = {value: n for value, _label, n in fragment.context["states"]}
    assert counts == {"empty": 3, "draft": 0, "entered": 0, "awaiting": 0, "sum_error": 0, "confirmed": 0,
                      "disputed": 1, "validated": 0}
    html = fragment.content.decode()
    assert "Contestato: <b>1</b>" in html and "Tavolo 3: errore di somma" in html and "manca la chiusura" in html
    round_page = arbiter_client.get(reverse("round", args=["prova", 1]))
    assert dict(round_page.context["counts"]) == counts
    page = round_page.content.decode()
    row = page.split('id="table-3"')[1].split("</tr>")[0]
    assert "Contestato" in row and "Errore di somma" in row and "manca la chiusura" in row
    # no Valida button while the sum error stands (the service would refuse it)
    assert reverse("sheet_validate", args=["prova", 1, 3]) not in row
    assert reverse("board_validate", args=["prova", 1, 3]) not in html
    grid = arbiter_client.get(reverse("sheet", args=["prova", 1, 3])).content.decode()
    assert 'id="sheet-status">Contestato' in grid and 'id="sum-error-mark"' in grid and "manca la chiusura" in grid
    fixes = arbiter_client.get(reverse("sheet_corrections", args=["prova", 1, 3])).content.decode()
    assert 'id="sheet-status">Contestato' in fixes and 'id="sum-error-mark"' in fixes
    assert "manca la chiusura" in fixes.split('id="dispute-note"')[1]


def test_board_had_no_valida_button_for_arbiter_entered_sheets(arbiter, arbiter_client, tables):
    """Regression: the board offered "Valida" only for confirmed sheets, the round page also
    for sheets the arbiter entered. Same rule now on both."""
    services.save_score_sheet(table=tables[1], hands=[services.HandInput(*h) for h in HANDS], by=arbiter)
    url = reverse("board_validate", args=["prova", 1, 1])
    assert f'action="{url}"' in rows(arbiter_client).content.decode()
    round_page = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    assert reverse("sheet_validate", args=["prova", 1, 1]) in round_page
    assert arbiter_client.post(url, {"version": 1}).status_code == 302   # the version shown
    assert ScoreSheet.objects.get(table=tables[1]).state == ScoreSheet.State.VALIDATED


def test_board_columns_were_cut_off_on_a_phone(arbiter_client, tables):
    """Regression: at 360 px the MP, VP, Chi and Valida columns were cut off. The table
    scrolls inside its own box and the pair names are hidden on a phone (numbers stay)."""
    html = rows(arbiter_client).content.decode()
    assert '<div class="scroll-x board-scroll"><table class="grid compact board">' in html
    assert '<span class="hide-phone">' in html.split('id="t1"')[1]


def test_public_brand_links_to_the_public_page_not_the_login(client, arbiter, tournament, published_round):
    services.update_tournament(tournament=tournament, by=arbiter, public_enabled=True)
    html = client.get(reverse("public", args=["prova"])).content.decode()
    brand = re.search(r'<a class="brand" href="([^"]+)"', html).group(1)
    assert brand == reverse("public", args=["prova"])


def test_public_says_final_standings_after_the_last_planned_round(client, arbiter, tournament, tables,
                                                                   published_round):
    services.update_tournament(tournament=tournament, by=arbiter, plan="M", public_enabled=True,
                               projector_enabled=True)
    for t in tables.values():
        services.save_score_sheet(table=t, hands=[services.HandInput(*h) for h in HANDS], by=arbiter, validate=True)
    services.close_round(round=published_round, by=arbiter)
    html = client.get(reverse("public", args=["prova"])).content.decode()
    assert "Classifica finale" in html and "Classifica dopo il turno" not in html
    screen = client.get(reverse("projector", args=["prova"]), {"s": 1}).content.decode()
    assert "Classifica finale" in screen
