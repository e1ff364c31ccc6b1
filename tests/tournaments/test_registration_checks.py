"""The row checks shared by the pairs', players' and teams' registration files (one helper
each instead of the same lines three times): entry numbers and membership numbers. Expected
messages are the files' Italian texts, written out by hand (rules.md §1: a number unique
within the tournament, a player once per tournament)."""
from django.utils import translation

from tournaments.registrations import reading
from tournaments.registrations.reading import PAIR_NUMBER, PLAYER_NUMBER, check_entry_number, check_membership
from tournaments.registrations.teams import TEAM_NUMBER, parse_teams


def test_a_blank_optional_number_is_none_without_refusal():
    errors = []
    assert check_entry_number(2, "", errors, PAIR_NUMBER, seen={}) is None
    assert errors == []


def test_a_blank_required_number_is_refused_as_not_valid():
    errors = []
    assert check_entry_number(4, "", errors, TEAM_NUMBER, required=True) is None
    assert errors == ["Riga 4: numero di squadra «» non valido."]


def test_zero_negative_and_words_are_not_numbers():
    for text in ("0", "-3", "tre", "2.5"):
        errors = []
        assert check_entry_number(7, text, errors, PLAYER_NUMBER, seen={}) is None
        assert errors == [f"Riga 7: numero di giocatore «{text}» non valido."]


def test_a_number_twice_in_the_file_names_its_first_row_and_is_kept():
    seen, errors = {}, []
    assert check_entry_number(2, "5", errors, PAIR_NUMBER, seen=seen) == 5
    assert check_entry_number(6, "5", errors, PAIR_NUMBER, seen=seen) == 5
    assert errors == ["Riga 6: il numero di coppia 5 è già usato alla riga 2."]
    assert seen == {5: 2}


def test_a_number_already_in_the_tournament():
    errors = []
    assert check_entry_number(3, "9", errors, PLAYER_NUMBER, existing={9}, seen={}) == 9
    assert errors == ["Riga 3: il numero di giocatore 9 è già usato nel torneo."]


def test_a_team_number_may_repeat_in_the_file_but_not_be_taken():
    errors = []
    assert check_entry_number(2, "3", errors, TEAM_NUMBER, required=True) == 3
    assert check_entry_number(3, "3", errors, TEAM_NUMBER, required=True) == 3
    assert errors == []
    assert check_entry_number(4, "8", errors, TEAM_NUMBER, existing={8}, required=True) == 8
    assert errors == ["Riga 4: la squadra 8 è già iscritta al torneo."]


def test_membership_twice_and_already_registered():
    seen, errors = {}, []
    check_membership(2, "111", errors, seen=seen)
    check_membership(5, "111", errors, seen=seen)
    check_membership(6, "222", errors, seen=seen, existing={"222"})
    assert errors == ["Riga 5: il giocatore con tessera 111 compare già alla riga 2.",
                      "Riga 6: il giocatore con tessera 222 è già iscritto al torneo."]


def test_the_three_files_keep_their_translated_messages():
    """Same msgids as before the helpers: the English catalogue still translates them."""
    with translation.override("en"):
        pairs = reading.parse("f.csv", b"coppia,cognome_1,nome_1,cognome_2,nome_2\n"
                                             b"x,A,B,C,D\n4,E,F,G,H\n4,I,J,K,L\n", existing_numbers={9})
        players = reading.parse_players("f.csv", b"giocatore,cognome,nome\n9,A,B\n",
                                              existing_numbers={9})
        teams = parse_teams("f.csv", b"squadra,nome_squadra,cognome,nome\n0,T,A,B\n")
    assert all("Riga" not in e for e in pairs.errors + players.errors + teams.errors), \
        pairs.errors + players.errors + teams.errors
    assert len(pairs.errors) == 2 and len(players.errors) == 1 and len(teams.errors) == 1


def test_unnumbered_rows_take_the_lowest_free_numbers_in_file_order():
    # Tournament has 1; the file writes 3 and leaves two rows blank: they get 2 and 4.
    parsed = reading.parse_players("f.csv", b"giocatore,cognome,nome\n,A,B\n3,C,D\n,E,F\n",
                                         existing_numbers={1})
    assert parsed.errors == []
    assert [(r.row, r.number) for r in parsed.rows] == [(2, 2), (3, 3), (4, 4)]
