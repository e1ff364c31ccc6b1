"""A membership number has one form at every door (members.numbers): trimmed, full-width
forms folded to ASCII (``８８０００７`` is ``880007``: one member, not two), anything but
ASCII letters, digits and «-» refused with a sentence (``①②``, Arabic-Indic digits, a
space, a control character). Points rules of championships take ASCII digits only."""
import json

import pytest
from django.urls import reverse

from members import importer
from members import services as member_services
from members.models import Member
from members.numbers import MembershipNumberError, legacy_membership_number, normal_membership_number
from scoring.championship import RuleError, parse_points_rule
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import Player
from tournaments.registrations import reading

from .helpers import pair, upload

FULL_WIDTH = "８８０００７"  # U+FF18 U+FF18 U+FF10 U+FF10 U+FF10 U+FF17
CIRCLED = "①②"  # U+2460 U+2461: NFKC would make them "12", they are not digits of a number
ARABIC = "١٢٣"  # U+0661..U+0663


@pytest.mark.parametrize("typed, stored", [
    ("880007", "880007"), ("  880007 ", "880007"), (FULL_WIDTH, "880007"), ("ＡＢ－１２", "AB-12"),
    ("ab-12", "ab-12"), ("", ""), (None, ""), ("\u3000８８\u3000", "88"),
])
def test_the_rule_keeps_ascii_letters_digits_and_hyphens_and_folds_width_forms(typed, stored):
    assert normal_membership_number(typed) == stored


@pytest.mark.parametrize("typed, named", [
    (CIRCLED, "U+2460"), (ARABIC, "U+0661"), ("402 616", "U+0020"), ("4026\x0716", "U+0007"),
    ("40\u202e26", "U+202E"), ("²", "U+00B2"), ("Ⅻ", "U+216B"), ("402/616", "U+002F"), ("8\x00", "U+0000"),
])
def test_anything_else_is_refused_with_a_sentence_naming_the_character(typed, named):
    with pytest.raises(MembershipNumberError) as refused:
        normal_membership_number(typed)
    assert named in refused.value.message and refused.value.message.endswith(".")
    assert "\u202e" not in refused.value.message and "\x07" not in refused.value.message  # named, never echoed


def test_thirty_characters_at_most_after_folding():
    assert normal_membership_number("８" * 30) == "8" * 30
    with pytest.raises(MembershipNumberError):
        normal_membership_number("8" * 31)


@pytest.mark.django_db
def test_member_list_file_folds_and_refuses():
    parsed = importer.parse("soci.csv", f"tessera,cognome,nome\n{FULL_WIDTH},Serra,Anna\n{CIRCLED},Neri,Ada\n"
                            .encode())
    assert parsed.errors == ["Riga 3, colonna tessera: La tessera contiene «①» (U+2460): sono ammesse solo "
                             "lettere e cifre latine (0-9, A-Z) e il trattino."]
    parsed = importer.parse("soci.csv", f"tessera,cognome,nome\n{FULL_WIDTH},Serra,Anna\n880007,Serra,Anna\n"
                            .encode())
    assert parsed.errors == ["Riga 3: la tessera 880007 compare già alla riga 2."]  # one member, not two


@pytest.mark.django_db
def test_member_list_page_and_member_form(arbiter_client):
    resp = arbiter_client.post(reverse("members:import"),
                               {"file": upload(f"tessera,cognome,nome\n{FULL_WIDTH},Serra,Anna\n")}, follow=True)
    assert resp.status_code == 200
    assert list(Member.objects.values_list("membership_number", flat=True)) == ["880007"]
    resp = arbiter_client.post(reverse("members:import"),
                               {"file": upload(f"tessera,cognome,nome\n{ARABIC},Neri,Ada\n")})
    assert resp.status_code == 200 and "U+0661" in resp.content.decode()
    resp = arbiter_client.post(reverse("members:add"), {"last_name": "Altro", "first_name": "X",
                                                        "membership_number": "８８０００７"})
    assert "La tessera 880007 è già di un altro socio." in resp.content.decode()
    resp = arbiter_client.post(reverse("members:add"), {"last_name": "Altro", "first_name": "X",
                                                        "membership_number": CIRCLED})
    assert resp.status_code == 200 and "U+2460" in resp.content.decode()
    assert Member.objects.count() == 1
    serra = Member.objects.get()
    merge = arbiter_client.get(reverse("members:merge", args=[serra.pk]), {"other": "#１"})
    assert merge.status_code == 302  # «#１» is not an internal number: no member found, back to the page


@pytest.mark.django_db
def test_the_registry_search_and_proposals_read_full_width_digits(arbiter):
    from members import selectors

    m = member_services.create_member(data=member_services.MemberData("Serra", "Anna", "880007"), by=arbiter)
    assert selectors.search(FULL_WIDTH) == [m] and selectors.search("８８０") == [m]
    assert selectors.propose("８８") == [m] and selectors.propose("88") == [m]
    assert selectors.propose("①") == [] and selectors.search(CIRCLED) == []


@pytest.mark.django_db
def test_member_service_refuses_what_the_form_refuses(arbiter):
    with pytest.raises(member_services.MemberError, match=r"U\+0661"):
        member_services.create_member(data=member_services.MemberData("Neri", "Ada", ARABIC), by=arbiter)
    m = member_services.create_member(data=member_services.MemberData("Neri", "Ada", FULL_WIDTH), by=arbiter)
    assert m.membership_number == "880007"


@pytest.mark.django_db
def test_registrations_fold_and_refuse_at_every_door(arbiter, arbiter_client, tournament):
    # the service (pair form, late entry, team lines, captains all reach it)
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Serra", "Anna", FULL_WIDTH), ("Neri", "Ada")))
    assert Player.objects.get(last_name="Serra").membership_number == "880007"
    with pytest.raises(ArbiterError, match=r"U\+2460"):
        services.add_pair(tournament=tournament, by=arbiter, players=pair(("Bruno", "Elia", CIRCLED), ("Vitale", "Eva")))
    # the same player again, typed in ASCII, is the same membership number
    with pytest.raises(ArbiterError):
        services.add_pair(tournament=tournament, by=arbiter, players=pair(("Serra", "Anna", "880007"), ("Rossi", "Lia")))
    # the pair form
    data = {"number": "", "last_name_1": "Bruno", "first_name_1": "Elia", "membership_1": ARABIC, "club_1": "",
            "last_name_2": "Vitale", "first_name_2": "Eva", "membership_2": "", "club_2": ""}
    resp = arbiter_client.post(reverse("pair_add", args=[tournament.slug]), data)
    assert resp.status_code == 200 and "U+0661" in resp.content.decode()
    data["membership_1"] = "８８０００７"
    resp = arbiter_client.post(reverse("pair_add", args=[tournament.slug]), data)
    assert resp.status_code == 200 and "La tessera 880007 è già di Serra Anna" in resp.content.decode()
    assert tournament.pairs.count() == 1
    # the registration file
    parsed = reading.parse("iscrizioni.csv", (
        "cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2\n"
        f"Bruno,Elia,{FULL_WIDTH},Vitale,Eva,880007\n"
        f"Rossi,Lia,{CIRCLED},Verdi,Ugo,\n").encode())
    assert "Riga 2: i due giocatori della coppia hanno la stessa tessera 880007." in parsed.errors
    assert any(e.startswith("Riga 3, colonna tessera_1: La tessera contiene «①» (U+2460)") for e in parsed.errors)
    parsed = reading.parse_players("giocatori.csv", f"cognome,nome,tessera\nBruno,Elia,{FULL_WIDTH}\n".encode())
    assert not parsed.errors and parsed.rows[0].player.membership_number == "880007"


@pytest.mark.django_db
def test_tournament_file_folds_and_refuses(arbiter, tournament):
    from tournaments import transfer

    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Serra", "Anna", "880007"), ("Neri", "Ada")))
    doc = json.loads(transfer.export_tournament(tournament))
    serra = next(i for i, p in enumerate(doc["players"]) if p["last_name"] == "Serra")
    doc["players"][serra]["membership_number"] = CIRCLED
    with pytest.raises(ArbiterError) as refused:
        transfer.import_tournament(data=json.dumps(doc).encode(), owner=arbiter, by=arbiter, slug="copia")
    assert refused.value.details[0].startswith(f"players[{serra}].membership_number: La tessera contiene «①»")
    doc["players"][serra]["membership_number"] = FULL_WIDTH
    copy = transfer.import_tournament(data=json.dumps(doc).encode(), owner=arbiter, by=arbiter, slug="copia")
    player = copy.tournament.players.get(last_name="Serra")
    assert player.membership_number == "880007"
    assert player.member_id == Player.objects.get(tournament=tournament, last_name="Serra").member_id  # one member


@pytest.mark.parametrize("text", ["table:1_000", "table:١٠", "table:１０", "table:1e3", "table:+5", "table:5,٣"])
def test_points_rules_take_ascii_digits_only(text):
    with pytest.raises(RuleError, match="non è un numero"):
        parse_points_rule(text)


def test_points_rules_still_take_decimals_with_a_point():
    assert parse_points_rule("table:25,18,7.5").text == "table:25,18,7.5"


@pytest.mark.django_db
def test_the_championship_form_refuses_other_digits(arbiter_client):
    resp = arbiter_client.post("/campionati/", {"slug": "c", "name": "C", "points": "table:1_000", "min_evenings": 1})
    assert resp.status_code == 200 and "non è un numero" in resp.content.decode()
    from championships.models import Championship

    assert not Championship.objects.exists()


@pytest.mark.parametrize("old, stored", [
    ("402 616", "402-616"), ("51.0016", "51-0016"), (" 51/0016 ", "51-0016"), ("a_b", "a-b"),
    (FULL_WIDTH, "880007"), ("A-1", "A-1"), ("", ""),
])
def test_a_number_written_before_the_rule_reads_with_hyphens_between_its_parts(old, stored):
    assert legacy_membership_number(old) == stored


@pytest.mark.parametrize("old", [CIRCLED, "4\x0716", "40\u202e26"])
def test_what_no_rule_can_read_stays_refused_when_written_before_the_rule(old):
    with pytest.raises(MembershipNumberError):
        legacy_membership_number(old)


@pytest.mark.django_db
def test_a_backup_written_before_the_rule_still_restores(arbiter, tournament):
    """A tournament file exported before the rule holds «402 616» as it was typed: it restores,
    with the number as the migrated database holds it (members 0003, tournaments 0022)."""
    from tournaments import transfer

    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Serra", "Anna", "402616"), ("Neri", "Ada")))
    doc = json.loads(transfer.export_tournament(tournament))
    serra = next(i for i, p in enumerate(doc["players"]) if p["last_name"] == "Serra")
    doc["players"][serra]["membership_number"] = "402 616"
    copy = transfer.import_tournament(data=json.dumps(doc).encode(), owner=arbiter, by=arbiter, slug="copia")
    assert copy.tournament.players.get(last_name="Serra").membership_number == "402-616"


@pytest.mark.django_db
def test_the_data_migrations_put_stored_numbers_in_the_rule_s_form(tournament):
    """members 0003 and tournaments 0022 run on rows written before the rule: folded, parts
    joined by «-»; a number no rule can read, or whose new form is another member's, stays."""
    import importlib

    from django.apps import apps as live_apps

    members_0003 = importlib.import_module("members.migrations.0003_membership_numbers_stored_form")
    tournaments_0022 = importlib.import_module("tournaments.migrations.0022_membership_numbers_stored_form")
    rows = {old: Member.objects.create(membership_number=old, last_name=f"S{i}", first_name="A", name_key=f"s{i}a")
            for i, old in enumerate(["402 616", FULL_WIDTH, CIRCLED, "51.0016", "51-0016"])}
    player = Player.objects.create(tournament=tournament, number=1, last_name="Serra", first_name="Anna",
                                   membership_number="402 616")
    members_0003.to_stored_form(live_apps, None)
    tournaments_0022.to_stored_form(live_apps, None)
    stored = {old: Member.objects.get(pk=m.pk).membership_number for old, m in rows.items()}
    assert stored == {"402 616": "402-616", FULL_WIDTH: "880007", CIRCLED: CIRCLED,
                      "51.0016": "51.0016",  # «51-0016» is already another member's
                      "51-0016": "51-0016"}
    player.refresh_from_db()
    assert player.membership_number == "402-616"
