"""Round cycle pages: generate, adjust, publish, close, reopen and their refusals.

Tournament of the fixtures: 5 pairs, plan MMMD, 4 hands, vp20-4h. Round 1 (Mitchell,
pairing-io.md): table 1 = 1 v 3, table 2 = 2 v 4, pair 5 rests.
"""
import html

from django.urls import reverse

from tournaments import services
from tournaments.models import AuditEntry, Round, ScoreSheet, Seat, Table
from tournaments.services import Actor, HandInput


def body(resp):
    return resp.content.decode()


def round_url(number, name="round", *extra):
    return reverse(name, args=["prova", number, *extra])


def test_round_pages_require_login(client, published):
    for url in (round_url(1), round_url(1, "sheet", 1), reverse("standings", args=["prova"])):
        resp = client.get(url)
        assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]


def test_tournament_page_offers_generate_then_continue(arbiter_client, five):
    page = body(arbiter_client.get(reverse("tournament", args=["prova"])))
    assert "Genera il turno 1" in page
    resp = arbiter_client.post(reverse("round_generate", args=["prova"]))
    assert resp.status_code == 302 and resp["Location"] == round_url(1)
    page = body(arbiter_client.get(reverse("tournament", args=["prova"])))
    assert "Continua il turno 1" in page and "Bozza" in page


def test_draft_page_shows_tables_and_clean_check(arbiter_client, five):
    arbiter_client.post(reverse("round_generate", args=["prova"]))
    page = body(arbiter_client.get(round_url(1)))
    assert 'id="check-ok"' in page
    assert "Riposo" in page and "Rossi5" in page  # pair 5 rests (Mitchell phantom table)


def test_generate_again_while_published_is_refused(arbiter_client, published):
    resp = arbiter_client.post(reverse("round_generate", args=["prova"]), follow=True)
    assert "Il turno 1 è ancora in gioco" in body(resp)
    assert Round.objects.count() == 1


def test_regenerate_draft_asks_confirmation_and_replaces_it(arbiter_client, arbiter, five):
    first = services.generate_round(tournament=five, by=arbiter)
    page = body(arbiter_client.get(reverse("round_generate", args=["prova"])))
    assert "Rigenerare il turno 1?" in page and "sarà sostituita" in page
    arbiter_client.post(reverse("round_generate", args=["prova"]))
    assert Round.objects.count() == 1 and Round.objects.get().pk != first.pk


def test_swap_reruns_checker_and_shows_report(arbiter_client, arbiter, five):
    services.generate_round(tournament=five, by=arbiter)
    resp = arbiter_client.post(round_url(1, "round_swap"), {"pair_a": "1", "pair_b": "3"}, follow=True)
    page = body(resp)
    assert "Coppie 1 e 3 scambiate" in page
    # 1 and 3 exchange N/S and E/W at table 1: the movement expects N/S 1, E/O 3.
    assert 'id="check-report"' in page and "il movimento prevede N/S 1, E/O 3" in page
    assert Round.objects.get().check_report


def test_swap_with_pair_not_in_round_is_refused(arbiter_client, arbiter, five):
    services.generate_round(tournament=five, by=arbiter)
    resp = arbiter_client.post(round_url(1, "round_swap"), {"pair_a": "1", "pair_b": "9"}, follow=True)
    assert "La coppia 9 non è in questo turno" in body(resp)


def test_move_to_rest_reruns_checker(arbiter_client, arbiter, five):
    services.generate_round(tournament=five, by=arbiter)
    resp = arbiter_client.post(round_url(1, "round_rest"), {"pair": "2"}, follow=True)
    page = body(resp)
    assert "Ora riposa la coppia 2" in page
    assert "riposa 5 secondo il movimento, non 2" in page
    rest = Table.objects.get(bye=Table.Bye.REST)
    assert rest.seats.get().pair.number == 2


def test_publish_with_report_needs_confirmation_listing_problems(arbiter_client, arbiter, five):
    rnd = services.generate_round(tournament=five, by=arbiter)
    services.swap_pairs(round=rnd, pair_a=1, pair_b=3, by=arbiter)
    page = body(arbiter_client.get(round_url(1, "round_publish")))
    assert "il movimento prevede N/S 1, E/O 3" in page and 'name="acknowledge" value="1"' in page
    # without the acknowledgement the service refuses and lists the problems
    resp = arbiter_client.post(round_url(1, "round_publish"), follow=True)
    assert "confermali per pubblicare" in body(resp)
    assert Round.objects.get().state == Round.State.DRAFT
    arbiter_client.post(round_url(1, "round_publish"), {"acknowledge": "1"})
    assert Round.objects.get().state == Round.State.PUBLISHED
    entry = AuditEntry.objects.get(action="round_published")
    assert entry.new["acknowledged"]


def test_publish_with_a_pair_missing_is_refused(arbiter_client, arbiter, five):
    rnd = services.generate_round(tournament=five, by=arbiter)
    Seat.objects.filter(round=rnd, pair__number=4).delete()  # pair 4 lost its seat
    resp = arbiter_client.post(round_url(1, "round_publish"), {"acknowledge": "1"}, follow=True)
    assert "Impossibile pubblicare: 4 senza tavolo né riposo" in body(resp)
    assert Round.objects.get().state == Round.State.DRAFT


def test_publish_then_page_shows_empty_badges_and_next_table(arbiter_client, arbiter, five):
    services.generate_round(tournament=five, by=arbiter)
    arbiter_client.post(round_url(1, "round_publish"))
    page = body(arbiter_client.get(round_url(1)))
    assert page.count('data-status="empty"') == 2
    assert 'id="next-table"' in page and round_url(1, "sheet", 1) in page
    assert "documenti/turno-1/tabellone.pdf" in page and 'href="tabellone-live/"' in page


def test_close_with_a_sheet_missing_is_refused(arbiter_client, arbiter, published):
    page = body(arbiter_client.get(round_url(1, "round_close")))
    assert "Chiudere il turno 1?" in page
    resp = arbiter_client.post(round_url(1, "round_close"), follow=True)
    assert "score non validati ai tavoli 1, 2" in body(resp)
    assert Round.objects.get().state == Round.State.PUBLISHED


def _play_round(arbiter, rnd):
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=[services.HandInput(100, 0)] + [services.HandInput(0, 0)] * 3,
                                  by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


def test_close_then_reopen_with_reason(arbiter_client, arbiter, published):
    for table in published.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=[services.HandInput(0, 0)] * 4, by=arbiter)
    arbiter_client.post(round_url(1, "round_validate_all"))
    resp = arbiter_client.post(round_url(1, "round_close"), follow=True)
    assert "Turno 1 chiuso" in body(resp)
    page = body(arbiter_client.get(round_url(1, "round_reopen")))
    assert "Riaprire il turno 1?" in page and 'name="reason"' in page
    resp = arbiter_client.post(round_url(1, "round_reopen"), {"reason": ""}, follow=True)
    assert "Indica il motivo" in body(resp) and Round.objects.get().state == Round.State.CLOSED
    arbiter_client.post(round_url(1, "round_reopen"), {"reason": "score sbagliato al tavolo 2"})
    assert Round.objects.get().state == Round.State.PUBLISHED
    assert AuditEntry.objects.get(action="round_reopened").reason == "score sbagliato al tavolo 2"


def test_reopen_after_next_round_published_is_refused(arbiter_client, arbiter, published, five):
    _play_round(arbiter, published)
    rnd2 = services.generate_round(tournament=five, by=arbiter)
    services.publish_round(round=rnd2, by=arbiter, acknowledge_warnings=True)
    page = body(arbiter_client.get(round_url(1)))
    assert 'id="reopen"' not in page
    resp = arbiter_client.post(round_url(1, "round_reopen"), {"reason": "errore"}, follow=True)
    assert "Il turno 2 è già pubblicato: il turno 1 non si può più riaprire" in body(resp)
    assert Round.objects.get(number=1).state == Round.State.CLOSED


def test_closed_round_offers_next_round(arbiter_client, arbiter, published):
    _play_round(arbiter, published)
    page = body(arbiter_client.get(round_url(1)))
    assert 'id="generate-next"' in page and "Genera il turno 2" in page
    page = body(arbiter_client.get(reverse("tournament", args=["prova"])))
    assert "Genera il turno 2" in page


def test_validate_all_skips_sum_errors(arbiter_client, arbiter, published):
    t1, t2 = published.tables.filter(bye="").order_by("number")
    services.save_score_sheet(table=t1, hands=[services.HandInput(0, 0)] * 4, by=arbiter)
    services.save_score_sheet(table=t2, hands=[services.HandInput(0, 0)] * 4, by=arbiter, declared=(5, 0))
    resp = arbiter_client.post(round_url(1, "round_validate_all"), follow=True)
    page = body(resp)
    assert "1 score validato (tavolo 1)." in page and "Resta 1 tavolo da inserire" in page
    t1.sheet.refresh_from_db()
    t2.sheet.refresh_from_db()
    assert t1.sheet.state == "validated" and t2.sheet.state == "entered"
    assert 'class="badge sum_error"' in page


def test_turni_tab_goes_to_latest_round(arbiter_client, published):
    resp = arbiter_client.get(reverse("rounds", args=["prova"]))
    assert resp["Location"] == round_url(1)


# --------------------------------------------------------------------------- regressions (first user's report)

ZERO = [HandInput(0, 0)] * 4


def test_close_confirm_gave_no_warning_of_tables_not_validated(arbiter_client, arbiter, published):
    """The confirmation page said nothing about missing sheets: it now lists, before the
    click, every table not validated with its state and a link to it."""
    t1, t2 = published.tables.filter(bye="").order_by("number")
    services.save_score_sheet(table=t1, hands=ZERO, by=arbiter, declared=(5, 0))  # sum error
    page = body(arbiter_client.get(round_url(1, "round_close")))
    assert 'id="not-validated"' in page
    assert "2 tavoli non sono validati" in page
    assert 'id="pending-1"' in page and "Errore di somma" in page
    assert 'id="pending-2"' in page and "Da inserire" in page
    assert round_url(1, "sheet_corrections", 1) in page  # the sum error: to the corrections
    assert round_url(1, "sheet", 2) in page  # the empty sheet: to the grid
    assert 'id="confirm-button" disabled' in page
    # one left: the singular
    services.accept_declared_totals(table=t1, by=arbiter, reason="controllato")
    services.validate_sheet(table=t1, by=arbiter)
    page = body(arbiter_client.get(round_url(1, "round_close")))
    assert "1 tavolo non è validato" in page and 'id="pending-1"' not in page
    # all validated: no list, the button works
    services.save_score_sheet(table=t2, hands=ZERO, by=arbiter, validate=True)
    page = body(arbiter_client.get(round_url(1, "round_close")))
    assert 'id="not-validated"' not in page and 'id="confirm-button">' in page


def test_close_refused_stayed_on_confirm_page_offering_the_same_button(arbiter_client, published):
    """After the refusal the arbiter was sent back (Referer) to the confirmation with the
    same button; now to the round page, with the message."""
    confirm = "http://testserver" + round_url(1, "round_close")
    resp = arbiter_client.post(round_url(1, "round_close"), HTTP_REFERER=confirm)
    assert resp.status_code == 302 and resp["Location"] == round_url(1)
    page = body(arbiter_client.get(resp["Location"]))
    assert "score non validati ai tavoli 1, 2" in page and 'id="tables"' in page
    assert Round.objects.get().state == Round.State.PUBLISHED


def test_restano_1_tavoli_plural_for_one_table(arbiter_client, arbiter, published):
    """«Restano 1 tavoli»: count-dependent messages use ngettext."""
    page = body(arbiter_client.post(round_url(1, "round_validate_all"), follow=True))
    assert "Restano 2 tavoli da inserire" in page and "0 score validati." in page
    t1 = published.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=ZERO, by=arbiter)
    page = body(arbiter_client.post(round_url(1, "round_validate_all"), follow=True))
    assert "1 score validato (tavolo 1)." in page and "Resta 1 tavolo da inserire, correggere o validare." in page
    assert "Restano 1" not in page


def test_validate_all_took_captain_sheets_not_yet_confirmed(arbiter_client, arbiter, published):
    """A sheet a captain entered and the other line has not confirmed is not bulk-validated
    (the other line may still dispute it); confirmed ones and the arbiter's are."""
    t1, t2 = published.tables.filter(bye="").order_by("number")
    services.save_score_sheet(table=t1, hands=ZERO, by=Actor("capitano N/S tavolo 1"))
    services.save_score_sheet(table=t2, hands=ZERO, by=Actor("capitano N/S tavolo 2"))
    services.confirm_sheet(table=t2, by=Actor("capitano E/O tavolo 2"))
    page = body(arbiter_client.get(round_url(1)))
    assert "Valida tutti i confermati e quelli inseriti dall'arbitro (1)" in page
    assert 'class="badge awaiting"' in page  # table 1 waits for the E/W captain
    page = body(arbiter_client.post(round_url(1, "round_validate_all"), follow=True))
    # both counts and the tables left, in one sentence
    assert ("1 score validato (tavolo 2); 1 inserito da un capitano non ancora confermato "
            "dall'altra linea: tavolo 1.") in html.unescape(page)
    assert ScoreSheet.objects.get(table=t1).state == "entered"
    assert ScoreSheet.objects.get(table=t2).state == "validated"
    # the arbiter validates it alone, from the round page
    arbiter_client.post(round_url(1, "sheet_validate", 1))
    assert ScoreSheet.objects.get(table=t1).state == "validated"


def test_arbiter_correction_of_captain_sheet_is_bulk_validated(arbiter_client, arbiter, published):
    """Once the arbiter corrects a captain's unconfirmed sheet it counts as his entry."""
    t1 = published.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=ZERO, by=Actor("capitano N/S tavolo 1"))
    services.save_score_sheet(table=t1, hands=[HandInput(100, 0)] + ZERO[1:], by=arbiter, reason="letto dal foglio",
                              kind="transcription")
    arbiter_client.post(round_url(1, "round_validate_all"))
    assert ScoreSheet.objects.get(table=t1).state == "validated"


def test_standings_pdf_only_after_close_while_excel_always(arbiter_client, arbiter, published, five):
    """The round page showed «Classifica (PDF)» only once closed but Excel always: now both
    appear once a round is closed, pointing at the standings after the last closed round."""
    page = body(arbiter_client.get(round_url(1)))
    assert 'id="standings-pdf"' not in page and 'id="standings-xlsx"' not in page
    _play_round(arbiter, published)
    page = body(arbiter_client.get(round_url(1)))
    assert 'documenti/classifica.pdf?dopo=1"' in page and 'documenti/classifica.xlsx?dopo=1"' in page
    rnd2 = services.generate_round(tournament=five, by=arbiter)
    services.publish_round(round=rnd2, by=arbiter, acknowledge_warnings=True)
    page = body(arbiter_client.get(round_url(2)))  # round 2 in play: standings after round 1
    assert 'documenti/classifica.pdf?dopo=1"' in page and 'documenti/classifica.xlsx?dopo=1"' in page
    resp = arbiter_client.get(reverse("standings_xlsx", args=["prova"]) + "?dopo=1")
    assert resp.status_code == 200


def _one_round_plan(arbiter, five):
    """The plan shortened to a single Mitchell round (allowed before it is generated)."""
    return services.update_tournament(tournament=five, by=arbiter, plan="M")


def test_generate_page_offered_a_round_after_the_last_planned_one(arbiter_client, arbiter, five):
    """Regression: after the last planned round /turni/genera/ asked "Genera il turno 5?"
    with a button the service then refused. Now it says every planned round is generated
    and links the standings and the settings, with no generate button."""
    _one_round_plan(arbiter, five)
    rnd = services.generate_round(tournament=five, by=arbiter)
    services.publish_round(round=rnd, by=arbiter)
    _play_round(arbiter, rnd)
    resp = arbiter_client.get(reverse("round_generate", args=["prova"]))
    page = body(resp)
    assert resp.status_code == 200
    assert "Tutti i turni previsti sono stati generati" in page
    assert "Generare il turno 2" not in page and 'id="generate-button"' not in page
    assert f'href="{reverse("standings", args=["prova"])}"' in page
    assert f'href="{reverse("tournament_edit", args=["prova"])}"' in page
    # a stray POST shows the same page, not the refused offer again
    page = body(arbiter_client.post(reverse("round_generate", args=["prova"]), follow=True))
    assert "Tutti i turni previsti sono stati generati" in page and 'id="generate-button"' not in page
    assert Round.objects.filter(tournament=five).count() == 1


def test_closing_the_last_round_said_standings_decide_the_next_pairings(arbiter_client, arbiter, five):
    """Regression: the confirmation to close the last planned round said the standings
    decide the next pairings; there are none: they are the final standings."""
    _one_round_plan(arbiter, five)
    rnd = services.generate_round(tournament=five, by=arbiter)
    services.publish_round(round=rnd, by=arbiter)
    page = body(arbiter_client.get(round_url(1, "round_close")))
    assert "classifica finale" in page and "accoppiamenti successivi" not in page


def test_close_of_a_round_before_the_last_still_speaks_of_next_pairings(arbiter_client, published):
    page = body(arbiter_client.get(round_url(1, "round_close")))
    assert "decide gli accoppiamenti successivi" in page and "classifica finale" not in page


def test_validate_all_button_showed_zero_to_validate(arbiter_client, arbiter, published):
    """Regression: "Valida tutti … (0)" stood there with nothing to validate."""
    page = body(arbiter_client.get(round_url(1)))
    assert 'id="validate-all"' not in page and "(0)" not in page
    services.save_score_sheet(table=published.tables.get(number=1), hands=[HandInput(0, 0)] * 4, by=arbiter)
    page = body(arbiter_client.get(round_url(1)))
    assert 'id="validate-all"' in page and "(1)" in page


def close(rnd, arbiter):
    for t in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=ZERO, by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


def test_reopen_page_cancel_returns_to_the_round(arbiter_client, arbiter, published):
    close(published, arbiter)
    page = body(arbiter_client.get(reverse("round_reopen", args=["prova", 1]),
                                   HTTP_REFERER="http://testserver/altrove/"))
    round_url = reverse("round", args=["prova", 1])
    cancel = page.split('name="reason"')[1]
    assert f'href="{round_url}"' in cancel and "/altrove/" not in cancel
