"""End to end (rules.md §20, §16 per club): two clubs on one server. Each club's arbiter logs
in, imports the club's member list, runs an evening (creates it, imports nine pairs and
registers a tenth from the member suggestions, generates and publishes round 1, enters a
sheet) and keeps a championship; neither sees the other club's members, tournaments or
championships: home page, member registry, member search, a member's page, suggestions.

Both lists hold the same *tessera* 777001 (Comune Carlo): two members, one per club
(rules.md §20: a membership number is unique within a club)."""
from pathlib import Path

from .helpers import RIGHT, create_tournament, import_entrants, send_sheet, submit, type_hands

DATA = Path(__file__).resolve().parents[1] / "data"
PASSWORD = "segreta-123"
HEADER = "tessera,cognome,nome,circolo,categoria,scadenza\n"
CLUBS = {
    # club slug: (arbiter, member list, own surname, evening's name and slug, championship)
    "borgo": ("anna", "610001,Borghesi,Anna,Circolo Aurora,,\n610002,Borghetti,Marco,Circolo Aurora,,\n"
                      "777001,Comune,Carlo,Circolo Aurora,,\n",
              "Borghesi", ("Serata del Borgo", "serata-borgo"), "Campionato del Borgo"),
    "lago": ("bruno", "620001,Laghi,Lucia,Bridge Club Po,,\n620002,Lagorio,Piero,Bridge Club Po,,\n"
                      "777001,Comune,Carlo,Bridge Club Po,,\n",
             "Laghi", ("Serata del Lago", "serata-lago"), "Campionato del Lago"),
}


def _log_in(browser, base: str, username: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="it-IT")
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(base + "/accounts/login/?next=/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    submit(page, "button.primary")
    return context, page


def _suggestions(page, field: str, text: str) -> list[str]:
    """Type ``text`` in the new pair's ``field`` and return the proposals once the answer to
    that very text has arrived (``member-suggest-answer`` event)."""
    page.evaluate("""(field) => { window.answers = [];
        document.querySelector(`input[name="${field}"]`).addEventListener('member-suggest-answer',
            e => window.answers.push(e.detail.query)); }""", field)
    page.fill(f'input[name="{field}"]', "")
    page.locator(f'input[name="{field}"]').press_sequentially(text)
    page.wait_for_function("(t) => window.answers.includes(t)", arg=text)
    return page.locator(f'input[name="{field}"] + .member-suggest li').all_inner_texts()


def _evening(page, base: str, tmp_path, club: str, other: str) -> None:
    """The arbiter of ``club`` imports his list, runs round 1 of an evening and never meets
    the members of ``other``."""
    _, members, surname, (name, slug), _ = CLUBS[club]
    other_surname = CLUBS[other][2]
    listing = tmp_path / f"soci-{club}.csv"
    listing.write_text(HEADER + members, encoding="utf-8")
    page.goto(base + "/soci/importa/")
    page.set_input_files('input[name="file"]', str(listing))
    submit(page, "button.primary")
    assert "Soci importati: 3 nuovi, 0 aggiornati." in page.content()

    create_tournament(page, base, name=name, slug=slug, date="2026-12-10", kind="pairs", plan="MMMD",
                      vp_scale="vp20-4h")
    import_entrants(page, base, slug, DATA / "registrations-9.csv", count=9, ready="9 coppie pronte",
                    done="9 coppie importate", listed="table.grid")
    page.goto(base + f"/tornei/{slug}/coppie/nuova/")
    # the other club's members are never proposed, its Comune Carlo neither (one proposal)
    assert _suggestions(page, "last_name_2", other_surname) == []
    comune = _suggestions(page, "last_name_2", "Comune")
    assert len(comune) == 1 and "777001" in comune[0], comune
    page.locator('input[name="last_name_2"] + .member-suggest li').first.click()
    proposals = _suggestions(page, "last_name_1", surname)
    assert proposals and all(surname in p for p in proposals), proposals
    page.locator('input[name="last_name_1"] + .member-suggest li').first.click()
    submit(page, "button.primary")
    assert page.url.endswith(f"/tornei/{slug}/coppie/")
    assert page.locator("table.grid tbody tr").count() == 10

    page.goto(base + f"/tornei/{slug}/")
    submit(page, "#next-action a.button.primary")  # "Genera il turno 1"
    submit(page, "#generate-button")
    assert page.url.endswith("/turni/1/")
    submit(page, "#publish")
    assert "Turno 1 pubblicato" in page.content()
    page.click("#next-table")
    type_hands(page, [value for hand in RIGHT for value in hand])
    send_sheet(page)  # the desk moves on to the next table
    page.goto(base + f"/tornei/{slug}/turni/1/")
    assert page.locator('tr[data-status="entered"]').count() == 1


def _sees_only_his_club(page, base: str, club: str, other: str, other_member_id: int) -> None:
    mine, theirs = CLUBS[club], CLUBS[other]
    page.goto(base + "/")
    home = page.content()
    assert mine[3][0] in home and theirs[3][0] not in home
    page.goto(base + "/soci/")
    registry = page.content()
    assert mine[2] in registry and theirs[2] not in registry
    assert registry.count("Comune") == 1
    page.goto(base + f"/soci/?q={theirs[2]}")
    assert page.locator("#members-table tbody tr", has_text=theirs[2]).count() == 0
    assert page.goto(base + f"/soci/{other_member_id}/").status == 404
    page.goto(base + "/campionati/")
    championships = page.content()
    assert mine[4] in championships and theirs[4] not in championships


def test_two_clubs_each_run_an_evening_and_see_only_their_own(chromium, live_server, transactional_db,
                                                              django_user_model, tmp_path):
    from championships import services as championship_services
    from clubs import services as club_services
    from members.models import Member

    base = live_server.url
    for slug, (username, *_rest) in CLUBS.items():
        club = club_services.create_club(slug=slug, name=f"Circolo {slug.title()}")
        django_user_model.objects.create_user(username=username, password=PASSWORD)
        club_services.add_arbiter(club=club, username=username)

    pages = {}
    for club, other in (("borgo", "lago"), ("lago", "borgo")):
        context, page = _log_in(chromium, base, CLUBS[club][0])
        pages[club] = (context, page)
        _evening(page, base, tmp_path, club, other)
        arbiter = django_user_model.objects.get(username=CLUBS[club][0])
        championship_services.create_championship(by=arbiter, slug=f"campionato-{club}", name=CLUBS[club][4],
                                                  tournaments=[CLUBS[club][3][1]])

    # the same tessera in two clubs: two members, one in each (rules.md §20)
    assert sorted(Member.objects.filter(membership_number="777001").values_list("club__slug", flat=True)) == [
        "borgo", "lago"]
    for club, other in (("borgo", "lago"), ("lago", "borgo")):
        other_member = Member.objects.get(club__slug=other, last_name=CLUBS[other][2])
        _sees_only_his_club(pages[club][1], base, club, other, other_member.pk)
    for context, _page in pages.values():
        context.close()
