"""The English UI: with the language cookie set to ``en`` the key pages
render in English; without it (and without a browser asking for English) Italian, the
default (settings.LANGUAGE_CODE = "it").

Besides a few expected English words per page, every page is scanned for leftovers:
a visible text node (or title/aria-label/placeholder) that is exactly an Italian
message of the catalogue means a string that escaped translation.
"""
from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse

from tests.i18n.helpers import assert_english, leftovers, page
from tournaments import services
from tournaments.models import Pair, Table

"""Typed data of the fixtures that happens to be an Italian word (the venue)."""


@pytest.fixture
def arbiter_english(english, arbiter):
    # staff, so the custom VP scale forms (staff only) are reached too
    arbiter.is_staff = True
    arbiter.save(update_fields=["is_staff"])
    english.force_login(arbiter)
    return english


@pytest.fixture
def closed(published, arbiter):
    """Round 1 closed: table 1 600–0 (13–7 VP), table 2 0–0 (10–10), a 1 VP penalty to pair 3."""
    t1, t2 = published.tables.filter(bye="").order_by("number")
    services.save_score_sheet(table=t1, hands=[services.HandInput(600, 0)] + [services.HandInput(0, 0)] * 3,
                              by=arbiter, validate=True)
    services.save_score_sheet(table=t2, hands=[services.HandInput(0, 0)] * 4, by=arbiter, validate=True)
    services.close_round(round=published, by=arbiter)
    services.add_penalty(pair=Pair.objects.get(number=3), vp=Decimal(1), reason="cellulare", by=arbiter)
    return published


def test_italian_is_the_default_without_cookie(client):
    html = page(client, reverse("login"))
    assert '<html lang="it">' in html
    assert "Accesso arbitro" in html and "Entra" in html
    assert "Arbiter login" not in html


def test_italian_first_whatever_the_browser_asks_until_english_is_chosen(client):
    """No cookie: Italian, even for a browser asking only for English (Italian first);
    the cookie set by the language selector switches to English."""
    def login_page(accept_language):
        return client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=accept_language).content.decode()

    assert "Accesso arbitro" in login_page("it-IT,it;q=0.9,en;q=0.8")
    assert "Accesso arbitro" in login_page("en-US,en;q=0.9")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Arbiter login" in login_page("it-IT,it;q=0.9")


def test_set_language_switches_to_english_and_back(client):
    resp = client.post(reverse("set_language"), {"language": "en", "next": reverse("login")})
    assert resp.status_code == 302 and resp.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    html = page(client, reverse("login"))
    assert "Arbiter login" in html and "Accesso arbitro" not in html
    client.post(reverse("set_language"), {"language": "it", "next": reverse("login")})
    assert "Accesso arbitro" in page(client, reverse("login"))


def test_login_page_in_english(english, italian_to_english):
    html = page(english, reverse("login"))
    assert_english(html, italian_to_english,
                   present=["Arbiter login", "Username", "Password", "Log in"],
                   absent=["Accesso arbitro", "Utente", ">Entra<"])


def test_wrong_password_message_in_english(english, arbiter):
    resp = english.post(reverse("login"), {"username": "arbitro", "password": "sbagliata"})
    html = resp.content.decode()
    assert "Wrong username or password." in html and "Utente o password errati" not in html


def test_home_in_english(arbiter_english, tournament, italian_to_english):
    html = page(arbiter_english, reverse("home"))
    assert_english(html, italian_to_english,
                   present=["Tournaments", "New tournament", "VP scales", "Venue", "Log out"],
                   absent=["Tornei", "Nuovo torneo", "Tabelle VP", "Esci"])
    assert "Torneo di prova" in html  # data stays as typed


def test_tournament_page_in_english(arbiter_english, five, italian_to_english):
    html = page(arbiter_english, reverse("tournament", args=["prova"]))
    assert_english(html, italian_to_english,
                   present=["Rounds", "Generate round 1", "Import entries", "Public pages", "Standings",
                            "Penalties", "Settings", "hands"],
                   absent=["Genera il turno", "Importa iscrizioni", "Pagine pubbliche", "Impostazioni"])


def test_pairs_page_in_english(arbiter_english, five, italian_to_english):
    html = page(arbiter_english, reverse("pairs", args=["prova"]))
    assert_english(html, italian_to_english,
                   present=["Pairs", "Add pair", "Import from file", "Players", "Edit", "Delete"],
                   absent=["Aggiungi coppia", "Importa da file", "Giocatori", "Modifica", "Cancella"])
    assert "Rossi1" in html


def test_draft_round_page_in_english(arbiter_english, five, arbiter, italian_to_english):
    services.generate_round(tournament=five, by=arbiter)
    html = page(arbiter_english, reverse("round", args=["prova", 1]))
    assert_english(html, italian_to_english,
                   present=["Round 1", "Draft check", "Table", "E/W", "Publish", "Rest"],
                   absent=["Turno 1", "Controllo della bozza", "Tavolo", "E/O", "Pubblica", "Riposo"])


def test_published_round_page_in_english(arbiter_english, published, italian_to_english):
    html = page(arbiter_english, reverse("round", args=["prova", 1]))
    assert_english(html, italian_to_english,
                   present=["Round 1", "Published", "Score sheet", "Enter", "Close the round",
                            "Documents and more", "Table list (PDF)"],
                   absent=["Turno 1", "Pubblicato", "Chiudi il turno", "Documenti e altro"])


def test_sheet_entry_page_in_english(arbiter_english, published, italian_to_english):
    html = page(arbiter_english, reverse("sheet", args=["prova", 1, 1]))
    assert_english(html, italian_to_english,
                   present=["Round 1 · Table 1", "Hand", "Declared", "Save and validate", "Hand calculator",
                            "base %(base)s + cards %(cards)s = %(score)s"],
                   absent=["Smazzata", "Dichiarato", "Salva e valida", "Calcolatore", "carte %(cards)s"])


def test_standings_page_in_english(arbiter_english, closed, italian_to_english):
    html = page(arbiter_english, reverse("standings", args=["prova"]) + "?dopo=1")
    assert_english(html, italian_to_english,
                   present=["Standings after round 1", "Players", "Standings (PDF)", "Standings (Excel)", "Print"],
                   absent=["Classifica dopo il turno", "Giocatori", "Stampa"])


def test_live_board_in_english(arbiter_english, published, italian_to_english):
    html = page(arbiter_english, reverse("board", args=["prova", 1]))
    assert_english(html, italian_to_english,
                   present=["Round 1: live board", "links and QR codes", "E/W"],
                   absent=["tabellone live", "Link e QR dei capitani"])


def test_captain_pages_in_english(english, published, italian_to_english):
    html = page(english, reverse("captain_pin", args=[published.tournament.slug]))
    assert_english(html, italian_to_english,
                   present=["Table score sheet", "Type your table number", "Open the score sheet"],
                   absent=["Score del tavolo", "Apri lo score"])
    table = Table.objects.get(round=published, number=1)
    html = page(english, reverse("captain", args=[table.token]))
    assert_english(html, italian_to_english,
                   present=["Table 1", "Round 1", "I am:", "E/W", "Send the score sheet", "I confirm the score sheet",
                            "Choose your line (N/S or E/W)"],
                   absent=["Tavolo 1", "Io sono", "E/O", "Invia lo score", "Scegli la tua linea"])


def test_captain_rest_table_in_english(english, published):
    rest = Table.objects.get(round=published, bye=Table.Bye.REST)
    html = page(english, reverse("captain", args=[rest.token]))
    assert "has the rest this round" in html and "riposa" not in html


def test_public_page_in_english(english, closed, italian_to_english):
    t = closed.tournament
    t.public_enabled = t.projector_enabled = True
    t.save(update_fields=["public_enabled", "projector_enabled"])
    html = page(english, reverse("public", args=["prova"]))
    assert_english(html, italian_to_english,
                   present=["Standings after round 1", "Table list", "MP diff."],
                   absent=["Classifica dopo", "Tabellone", "Scarto"])
    html = page(english, reverse("projector", args=["prova"]))
    assert '<html lang="en">' in html and leftovers(html, italian_to_english) == []


@pytest.mark.parametrize("name, args, query", [
    ("tournament_edit", ["prova"], ""),
    ("tournament_create", [], ""),
    ("pair_add", ["prova"], ""),
    ("pair_edit", ["prova", 1], ""),
    ("pair_remove", ["prova", 1], ""),
    ("import", ["prova"], ""),
    ("penalties", ["prova"], ""),
    ("audit", ["prova"], ""),
    ("public_switches", ["prova"], ""),
    ("pair_withdraw", ["prova"], "?coppia=3"),
    ("late_pair", ["prova"], ""),
    ("sheet", ["prova", 1, 2], ""),
    ("sheet_corrections", ["prova", 1, 1], ""),
    ("round_reopen", ["prova", 1], ""),
    ("captain_links", ["prova", 1], ""),
    ("standings", ["prova"], ""),
    ("scales", [], ""),
    ("scale_create", [], ""),
    ("scale_upload", [], ""),
])
def test_other_arbiter_pages_have_no_italian_leftovers(arbiter_english, closed, italian_to_english,
                                                       name, args, query):
    html = page(arbiter_english, reverse(name, args=args) + query)
    assert '<html lang="en">' in html
    assert leftovers(html, italian_to_english) == []


def test_prizes_page_in_english(arbiter_english, closed, italian_to_english):
    """The prize page's help on money prizes is in English too: its Italian text holds a «%»,
    which the template tag doubles before looking the message up."""
    html = page(arbiter_english, reverse("prizes", args=["prova"]))
    assert_english(html, italian_to_english,
                   present=["Prizes in money", "share of the prize pool", "Prize list"],
                   absent=["Premi in denaro", "montepremi"])


def _template_messages(po_text: str):
    """(msgid, references) of every message of a .po file, ``references`` the ``#:`` paths."""
    for block in po_text.split("\n\n"):
        refs = [r for line in block.splitlines() if line.startswith("#:") for r in line[2:].split()]
        lines = block.splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith("msgid ")]
        if not starts:
            continue
        i, parts = starts[0], []
        parts.append(lines[i][len("msgid "):])
        for line in lines[i + 1:]:
            if not line.startswith('"'):
                break
            parts.append(line)
        msgid = "".join(p.strip()[1:-1] for p in parts)
        yield msgid, refs


def test_template_messages_double_their_percent_signs(english_catalogue):
    """A template's {% trans %} and {% blocktrans %} look a message up with every «%» doubled
    (Django escapes it from string formatting): a message only templates use, written with a
    single «%», is never found and shows in Italian on an English page."""
    import re

    text = english_catalogue.with_suffix(".po").read_text(encoding="utf-8")
    single = re.compile(r"(?<!%)%(?![%(])")
    wrong = [msgid for msgid, refs in _template_messages(text)
             if refs and all(r.endswith(".html") for r in refs) and single.search(msgid.replace("%%", ""))]
    assert wrong == []


def test_catalogue_is_complete_and_checked(english_catalogue):
    """Every message of the committed .po has a checked English translation (none empty or
    fuzzy) and the placeholders agree (``msgfmt --check``, as compilemessages runs it)."""
    import subprocess

    po = english_catalogue.with_suffix(".po")
    result = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "untranslated" not in result.stderr and "fuzzy" not in result.stderr, result.stderr
