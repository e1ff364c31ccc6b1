"""Players registered without a membership number (rules.md §16): once a member list was
imported they are flagged «senza tessera» by the tournament's own setting
``missing_membership`` — flag (the default), refuse, ignore —, independent of the setting for
unknown or expired numbers, so a club can refuse unknown numbers and still welcome guests.

The list of ``helpers.LIST_CSV`` holds 402616 and 402617 (valid on the tournament's 30/11/2026),
402618 (expired 29/11); 999 is unknown.
"""
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.forms_data import tournament_settings
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import Player, Tournament
from tournaments.services import member_links

from .helpers import import_list, pair, upload

# row 2: a member and a guest; row 3: an unknown number and a member
REG = ("cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2\n"
       "Serra,Anna,402616,Neri,Ada,\n"
       "Rossi,Mario,999,D'Angelo,Nicolò,402617\n")


def preview(arbiter_client, tournament, text=REG):
    return arbiter_client.post(reverse("import", args=[tournament.slug]), {"file": upload(text)}).content.decode()


def confirm(arbiter_client, tournament):
    return arbiter_client.post(reverse("import", args=[tournament.slug]), {"confirm": "1"}, follow=True)


def box(page, box_id):
    """The items of the flag box ``box_id`` on a page ([] when absent)."""
    if f'id="{box_id}"' not in page:
        return []
    part = page.split(f'id="{box_id}"', 1)[1].split("</div>", 1)[0]
    return [li.split("</li>", 1)[0] for li in part.split('<li class="membership-flag">')[1:]]


def set_modes(tournament, *, numbers="flag", missing="flag"):
    Tournament.objects.filter(pk=tournament.pk).update(membership_check=numbers, missing_membership=missing)
    tournament.refresh_from_db()


def test_the_default_flags_a_player_without_a_number_at_import(arbiter_client, tournament):
    import_list()
    assert Tournament.objects.get(pk=tournament.pk).missing_membership == "flag"
    page = preview(arbiter_client, tournament)
    assert box(page, "membership-flags") == ["Riga 2: Neri Ada senza tessera", "Riga 3: tessera 999 sconosciuta"]
    assert box(page, "membership-refusals") == []
    assert 'name="confirm"' in page and 'id="import-refused"' not in page
    assert confirm(arbiter_client, tournament).status_code == 200
    assert tournament.pairs.count() == 2           # flagged: the arbiter decides, nothing refused
    assert member_links.player_flag_lines(tournament) == ["Neri Ada: senza tessera",
                                                          "Rossi Mario: tessera 999 sconosciuta"]
    pairs_page = arbiter_client.get(reverse("pairs", args=[tournament.slug])).content.decode()
    assert "Neri Ada: senza tessera" in box(pairs_page, "membership-flags")


def test_nothing_is_missing_before_a_member_list_is_imported(arbiter_client, tournament):
    """As nothing is unknown before a list (§16): a club that keeps no list is not told
    that every player lacks a number."""
    assert box(preview(arbiter_client, tournament), "membership-flags") == []
    assert member_links.refusal(tournament, pair(("Neri", "Ada"), ("Verdi", "Ugo"))) is None


def test_refuse_refuses_the_import_naming_the_guest(arbiter_client, tournament):
    import_list()
    set_modes(tournament, missing="refuse")
    page = preview(arbiter_client, tournament)
    assert box(page, "membership-refusals") == ["Riga 2: Neri Ada senza tessera"]
    assert box(page, "membership-flags") == ["Riga 3: tessera 999 sconosciuta"]   # still only flagged
    # the preview says nothing will be imported and offers no «Importa» button
    assert 'id="import-refused"' in page and 'name="confirm"' not in page
    assert "pronte" not in page
    body = confirm(arbiter_client, tournament).content.decode()   # an older page's button: still refused
    assert "Iscrizione rifiutata: Neri Ada senza tessera" in body
    assert not tournament.pairs.exists() and not Player.objects.filter(tournament=tournament).exists()


def test_refuse_refuses_a_pair_added_by_hand(tournament, arbiter):
    import_list()
    set_modes(tournament, missing="refuse")
    with pytest.raises(ArbiterError) as refused:
        services.add_pair(tournament=tournament, by=arbiter, players=pair(("Serra", "Anna", "402616"), ("Neri", "Ada")))
    assert refused.value.message.startswith("Iscrizione rifiutata: Neri Ada senza tessera")
    assert not tournament.pairs.exists()


def test_ignore_lets_guests_in_silently(arbiter_client, tournament):
    import_list()
    set_modes(tournament, missing="ignore")
    page = preview(arbiter_client, tournament)
    assert box(page, "membership-flags") == ["Riga 3: tessera 999 sconosciuta"]
    confirm(arbiter_client, tournament)
    assert member_links.player_flag_lines(tournament) == ["Rossi Mario: tessera 999 sconosciuta"]


def test_a_club_refuses_unknown_numbers_and_still_welcomes_guests(arbiter_client, tournament, arbiter):
    import_list()
    set_modes(tournament, numbers="refuse", missing="ignore")
    page = preview(arbiter_client, tournament)
    assert box(page, "membership-refusals") == ["Riga 3: tessera 999 sconosciuta"]
    assert 'id="import-refused"' in page and 'name="confirm"' not in page
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Serra", "Anna", "402616"), ("Neri", "Ada")))
    with pytest.raises(ArbiterError) as refused:
        services.add_pair(tournament=tournament, by=arbiter, players=pair(("Rossi", "Mario", "999"), ("Verdi", "Ugo")))
    assert "tessera 999 sconosciuta" in refused.value.message and "senza tessera" not in refused.value.message
    assert tournament.pairs.count() == 1


def test_the_command_prints_a_guest_and_refuses_in_refuse_mode(tournament, tmp_path, capsys):
    import_list()
    set_modes(tournament, missing="refuse")
    path = tmp_path / "reg.csv"
    path.write_text(REG)
    with pytest.raises(CommandError, match="1 giocatore rifiutato dal controllo delle tessere"):
        call_command("import_registrations", "prova", str(path))
    captured = capsys.readouterr()
    assert captured.err.splitlines()[0] == "Riga 2: Neri Ada senza tessera" and captured.out == ""
    assert not tournament.pairs.exists()


def test_the_settings_page_shows_and_saves_the_setting(arbiter_client, tournament):
    url = reverse("tournament_edit", args=[tournament.slug])
    page = arbiter_client.get(url).content.decode()
    field = page.split('name="missing_membership"', 1)[1].split("</select>", 1)[0]
    assert '<option value="flag" selected>' in field
    assert 'value="refuse"' in field and 'value="ignore"' in field
    assert "ospite" in page                         # the help text says what it is for
    resp = arbiter_client.post(url, tournament_settings(tournament, membership_check="refuse",
                                                        missing_membership="ignore"))
    assert resp.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.membership_check, tournament.missing_membership) == ("refuse", "ignore")
    # a post without the field (an older page) keeps the setting
    assert arbiter_client.post(url, tournament_settings(tournament, venue="Sala 2")).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).missing_membership == "ignore"
    bad = arbiter_client.post(url, tournament_settings(tournament, missing_membership="maybe"))
    assert bad.status_code == 200 and Tournament.objects.get(pk=tournament.pk).missing_membership == "ignore"
