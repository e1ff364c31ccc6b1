"""Linking a tournament's players to members, and the unknown/expired flags (rules.md §16)."""
import datetime

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from members.models import Member
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import Player, Tournament
from tournaments.services import member_links

from .helpers import import_list, pair

pytestmark = pytest.mark.django_db


def _new_tournament(arbiter, slug, date=datetime.date(2026, 11, 30), **kw):
    return services.create_tournament(by=arbiter, name=slug, slug=slug, date=date, **kw)


def _member_of(tournament, last):
    return Player.objects.get(tournament=tournament, last_name=last).member


def test_by_number_links_the_listed_member(tournament, arbiter):
    import_list()
    services.add_pair(tournament=tournament, by=arbiter,
                      players=pair(("Serra", "Anna", "402616"), ("Santoro", "Marta", "402618")))
    assert _member_of(tournament, "Serra") == Member.objects.get(membership_number="402616")
    assert Member.objects.count() == 3  # nobody new


def test_an_absent_number_makes_a_new_member_from_the_registration(tournament, arbiter):
    services.add_pair(tournament=tournament, by=arbiter,
                      players=pair(("Rossi", "Mario", "111"), ("Bianchi", "Luca", "")))
    rossi = _member_of(tournament, "Rossi")
    assert (rossi.membership_number, rossi.source, rossi.listed) == ("111", "registration", False)
    assert _member_of(tournament, "Bianchi").membership_number is None


def test_by_name_with_accents_apostrophes_and_case_when_exactly_one_matches(tournament, arbiter):
    import_list()
    services.add_pair(tournament=tournament, by=arbiter,
                      players=pair(("dangelo", "NICOLO"), ("SERRA", "anna")))
    assert _member_of(tournament, "dangelo").membership_number == "402617"
    assert _member_of(tournament, "SERRA").membership_number == "402616"


def test_two_members_of_one_name_give_a_new_member(tournament, arbiter):
    Member.objects.create(last_name="Rossi", first_name="Mario", membership_number="1")
    Member.objects.create(last_name="Rossi", first_name="Mario", membership_number="2")
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Rossi", "Mario"), ("Neri", "Ada")))
    assert _member_of(tournament, "Rossi").membership_number is None
    assert Member.objects.filter(name_key="rossi mario").count() == 3


def test_never_two_players_of_one_tournament_on_one_member(tournament, arbiter):
    Member.objects.create(last_name="Rossi", first_name="Mario")
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Rossi", "Mario"), ("Neri", "Ada")))
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Rossi", "Mario"), ("Neri", "Bice")))
    first, second = Player.objects.filter(tournament=tournament, last_name="Rossi").order_by("pk")
    assert first.member_id != second.member_id and second.member is not None


def test_the_same_member_across_evenings_with_other_partners(tournament, arbiter):
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Rossi", "Mario"), ("Neri", "Ada")))
    other = _new_tournament(arbiter, "gio-2", datetime.date(2026, 12, 7))
    services.add_pair(tournament=other, by=arbiter, players=pair(("Bruno", "Elia"), ("ROSSI", "Mario")))
    assert _member_of(other, "ROSSI") == _member_of(tournament, "Rossi")
    assert _member_of(tournament, "Rossi").players.count() == 2


def test_a_changed_number_before_play_relinks(tournament, arbiter):
    p = services.add_pair(tournament=tournament, by=arbiter, players=pair(("Rossi", "Mario", "111"), ("Neri", "Ada")))
    import_list()
    services.update_pair(pair=p, by=arbiter, players=pair(("Serra", "Anna", "402616"), ("Neri", "Ada")))
    assert _member_of(tournament, "Serra").membership_number == "402616"


def test_registration_file_and_individual_and_team_players_are_linked(tournament, arbiter):
    from tournaments.registrations import reading

    import_list()
    parsed = reading.parse("r.csv", "cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2\n"
                                 "Serra,Anna,402616,Santoro,Marta,\n".encode())
    services.import_pairs(tournament=tournament, rows=parsed.rows, by=arbiter)
    assert _member_of(tournament, "Santoro").membership_number == "402618"  # by name
    ind = _new_tournament(arbiter, "ind", kind="individual")
    services.add_player(tournament=ind, by=arbiter, player=pair(("Serra", "Anna", "402616"), ("x", "y"))[0])
    assert _member_of(ind, "Serra").membership_number == "402616"


# ------------------------------------------------------------------ unknown / expired


def test_nothing_is_unknown_before_a_list_is_imported(tournament):
    assert member_links.flags_for(tournament, ["999"]) == {}


def test_unknown_and_expired_against_the_tournaments_date(tournament):
    import_list()  # 402616 expires 31/12, 402617 on 30/11 (the tournament's day), 402618 on 29/11
    assert member_links.flags_for(tournament, ["402616", "402617", "402618", "999"]) == {
        "402618": "expired", "999": "unknown"}


def test_a_number_created_by_a_registration_stays_unknown_until_a_list_has_it(tournament, arbiter):
    import_list()
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Rossi", "Mario", "999"), ("Neri", "Ada")))
    assert member_links.player_flag_lines(tournament) == ["Neri Ada: senza tessera",
                                                          "Rossi Mario: tessera 999 sconosciuta"]
    import_list("tessera,cognome,nome\n999,Rossi,Mario\n")
    assert member_links.player_flag_lines(tournament) == ["Neri Ada: senza tessera"]


def test_ignore_shows_nothing_and_refuse_refuses_the_registration(tournament, arbiter):
    import_list()
    tournament.membership_check = Tournament.MembershipCheck.IGNORE
    tournament.save()
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Rossi", "Mario", "999"), ("Neri", "Ada")))
    # the player without a number has his own setting (flag, the default)
    assert member_links.player_flag_lines(tournament) == ["Neri Ada: senza tessera"]
    tournament.membership_check = Tournament.MembershipCheck.REFUSE
    tournament.save()
    with pytest.raises(ArbiterError) as refused:
        services.add_pair(tournament=tournament, by=arbiter,
                          players=pair(("Santoro", "Marta", "402618"), ("Verdi", "Ugo")))
    assert "tessera 402618 scaduta" in refused.value.message
    assert not Player.objects.filter(tournament=tournament, last_name="Santoro").exists()
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Serra", "Anna", "402616"), ("Verdi", "Ugo")))


REG = ("cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2\n"
       "Serra,Anna,402616,Santoro,Marta,402618\n"
       "Rossi,Mario,999,Neri,Ada,\n")


def test_import_registrations_prints_the_flags_before_its_count(tournament, tmp_path, capsys):
    import_list()
    path = tmp_path / "reg.csv"
    path.write_text(REG)
    call_command("import_registrations", "prova", str(path))
    out = capsys.readouterr().out.splitlines()
    assert out == ["Riga 2: tessera 402618 scaduta", "Riga 3: tessera 999 sconosciuta", "Riga 3: Neri Ada senza tessera",
                   "2 coppie importate."]


def test_import_registrations_in_refuse_mode_prints_on_stderr_exits_1_and_imports_nothing(tournament, tmp_path, capsys):
    import_list()
    Tournament.objects.filter(pk=tournament.pk).update(membership_check="refuse")
    path = tmp_path / "reg.csv"
    path.write_text(REG)
    with pytest.raises(CommandError):
        call_command("import_registrations", "prova", str(path))
    captured = capsys.readouterr()
    assert captured.err.splitlines()[:2] == ["Riga 2: tessera 402618 scaduta", "Riga 3: tessera 999 sconosciuta"]
    assert captured.out == ""
    assert not tournament.pairs.exists()




def test_team_players_and_a_late_pair_are_linked(arbiter, five):
    from tournaments.services import late_entries

    import_list()
    teams = _new_tournament(arbiter, "sq", kind="teams", plan="RRR")
    services.add_team(tournament=teams, by=arbiter, name="Aurora", players=[
        services.PlayerData(last_name="Serra", first_name="Anna", membership_number="402616"),
        services.PlayerData(last_name="Santoro", first_name="Marta"),
        services.PlayerData(last_name="Neri", first_name="Ada"),
        services.PlayerData(last_name="Vitale", first_name="Elena")])
    assert _member_of(teams, "Serra").membership_number == "402616"
    assert _member_of(teams, "Santoro").membership_number == "402618"  # by name
    services.generate_round(tournament=five, by=arbiter)  # 5 pairs: pair 5 rests in round 1
    late_entries.add_late_pair(tournament=five, by=arbiter,
                            players=pair(("D'Angelo", "Nicolò", "402617"), ("Bruno", "Elia")))
    assert _member_of(five, "D'Angelo").membership_number == "402617"


# ------------------------------------------------------------------ the registry's cap


@pytest.fixture
def small_registry(monkeypatch):
    """The registry's cap brought down to the 3 members of the imported list plus one."""
    import_list()
    monkeypatch.setattr("members.models.MAX_MEMBERS", 4)


def test_a_registration_beyond_the_registrys_cap_is_refused_and_writes_nothing(tournament, arbiter, small_registry):
    """rules.md §16's cap counts the members a registration creates: two new players on a
    registry of 3 with room for 4 are refused, with the figures, and nothing is saved (no
    pair, player, member nor audit entry); one new player still fits."""
    audits = tournament.audit.count()
    with pytest.raises(ArbiterError) as refused:
        services.add_pair(tournament=tournament, by=arbiter, players=pair(("Rossi", "Mario", "999"), ("Neri", "Ada")))
    assert refused.value.message == (
        "Iscrizione rifiutata: l'anagrafica ha 3 soci e questa iscrizione ne aggiungerebbe 2 nuovi, oltre il "
        "massimo di 4. Nulla è stato salvato: unisci i soci doppi, oppure iscrivi i giocatori con la tessera di "
        "un socio già presente.")
    assert (tournament.pairs.count(), tournament.players.count(), Member.objects.count(),
            tournament.audit.count()) == (0, 0, 3, audits)
    services.add_pair(tournament=tournament, by=arbiter, players=pair(("Serra", "Anna", "402616"), ("Neri", "Ada")))
    assert Member.objects.count() == 4
    # full: players who are members already still register
    services.add_pair(tournament=tournament, by=arbiter,
                      players=pair(("Santoro", "Marta", "402618"), ("D'Angelo", "Nicolò")))
    assert Member.objects.count() == 4 and tournament.pairs.count() == 2


def test_a_registration_file_beyond_the_cap_is_refused_whole(tournament, arbiter, small_registry):
    from tournaments.registrations import reading

    parsed = reading.parse("r.csv", "cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2\n"
                                 "Serra,Anna,402616,Santoro,Marta,402618\n"
                                 "Rossi,Mario,999,Neri,Ada,\n".encode())
    with pytest.raises(ArbiterError) as refused:
        services.import_pairs(tournament=tournament, rows=parsed.rows, by=arbiter)
    assert "ne aggiungerebbe 2 nuovi, oltre il massimo di 4" in refused.value.message
    assert (tournament.pairs.count(), tournament.players.count(), Member.objects.count()) == (0, 0, 3)


def test_a_team_registered_beyond_the_cap_is_refused(arbiter, small_registry):
    teams = _new_tournament(arbiter, "squadre-cap", kind="teams", plan="DDD")
    with pytest.raises(ArbiterError, match="ne aggiungerebbe 4 nuovi, oltre il massimo di 4"):
        services.add_team(tournament=teams, by=arbiter, name="Aurora",
                          players=pair(("Uno", "A"), ("Due", "B")) + pair(("Tre", "C"), ("Quattro", "D")))
    assert (teams.teams.count(), teams.players.count(), Member.objects.count()) == (0, 0, 3)
