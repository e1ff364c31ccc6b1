"""End to end (rules.md §16): the arbiter imports the club's member list, then registers an
evening's pair from it by picking the proposals while typing; one of the two numbers expired
the day before the tournament (29/11 < 30/11) and the pairs page flags it."""

from .helpers import create_tournament, log_in_arbiter, submit

LIST = ("tessera,cognome,nome,circolo,categoria,scadenza\n"
        "402616,Serra,Anna,Circolo Aurora,Dame,2026-12-31\n"
        "402617,D'Angelo,Nicolò,Circolo Aurora,Seniores,30/11/2026\n"
        "402618,Santoro,Marta,Circolo Aurora,,29/11/2026\n")


def test_import_a_member_list_and_register_a_pair_from_it(page, live_server, django_user_model, tmp_path):
    base = live_server.url
    log_in_arbiter(page, base, django_user_model)
    members = tmp_path / "soci.csv"
    members.write_text(LIST, encoding="utf-8")
    page.goto(base + "/soci/importa/")
    page.set_input_files('input[name="file"]', str(members))
    submit(page, "button.primary")
    assert "Soci importati: 3 nuovi, 0 aggiornati." in page.content()
    assert page.locator("#members-table tbody tr").count() == 3

    create_tournament(page, base, name="Giovedì 30", slug="gio-30", date="2026-11-30", kind="pairs",
                      plan="MMMD", vp_scale="vp20-4h")
    page.goto(base + "/tornei/gio-30/coppie/nuova/")
    page.locator('input[name="last_name_1"]').press_sequentially("serr")
    page.locator(".member-suggest li", has_text="Serra Anna · 402616").click()
    assert page.input_value('input[name="first_name_1"]') == "Anna"
    assert page.input_value('input[name="membership_1"]') == "402616"
    page.locator('input[name="membership_2"]').press_sequentially("402618")
    page.locator(".member-suggest li", has_text="Santoro Marta").click()
    assert page.input_value('input[name="last_name_2"]') == "Santoro"
    submit(page, "button.primary")
    assert page.url.endswith("/tornei/gio-30/coppie/")
    flags = page.locator("#membership-flags")
    assert flags.locator("li").all_inner_texts() == ["Santoro Marta: tessera 402618 scaduta"]

    page.goto(base + "/soci/?q=402618")
    submit(page, "text=Santoro Marta")
    assert page.locator("#member-evenings tbody tr").all_inner_texts()[0].startswith("30/11/2026")
