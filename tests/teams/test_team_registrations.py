"""Team registration files: columns squadra,nome_squadra,cognome,nome,tessera,circolo."""
import pytest

from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.registrations.teams import parse_teams, parse_teams_for_tournament

HEADER = "squadra,nome_squadra,cognome,nome,tessera,circolo\n"


def rows(*teams):
    lines = []
    for number, name, count in teams:
        lines += [f"{number},{name},C{number}x{k},N{k},{number}0{k},Club\n" for k in range(1, count + 1)]
    return (HEADER + "".join(lines)).encode()


def test_the_sample_file_reads_as_twelve_teams(data_dir):
    parsed = parse_teams("teams-12.csv", (data_dir / "teams-12.csv").read_bytes())
    assert parsed.ok, parsed.errors
    assert [r.number for r in parsed.rows] == list(range(1, 13))
    assert parsed.rows[0].name == "I Pozzetti" and parsed.rows[0].players[0].last_name == "Rizzo"
    assert len(parsed.rows[2].players) == 5  # Le Pinelle: five players


def test_import_is_all_or_nothing_and_the_first_player_is_captain(make_teams_tournament, arbiter, data_dir):
    t = make_teams_tournament(0)
    parsed = parse_teams_for_tournament(t, "teams-12.csv", (data_dir / "teams-12.csv").read_bytes())
    assert services.import_teams(tournament=t, rows=parsed.rows, by=arbiter) == 12
    assert t.teams.get(number=1).captain.last_name == "Rizzo"
    again = parse_teams_for_tournament(t, "teams-12.csv", (data_dir / "teams-12.csv").read_bytes())
    assert not again.ok and "già iscritta" in again.errors[0]


def test_semicolons_and_windows_1252_are_read():
    data = rows((1, "Più Forti", 4)).decode().replace(",", ";").encode("cp1252")
    parsed = parse_teams("t.csv", data)
    assert parsed.ok and parsed.rows[0].name == "Più Forti"


def test_a_team_of_three_or_seven_is_refused_with_its_row():
    parsed = parse_teams("t.csv", rows((1, "A", 3), (2, "B", 7)))
    assert parsed.errors == ["Squadra 1 (riga 2): 3 giocatori; una squadra ne ha da 4 a 6.",
                             "Squadra 2 (riga 5): 7 giocatori; una squadra ne ha da 4 a 6."]
    assert parsed.rows == []


def test_two_names_for_one_team_number():
    data = rows((1, "A", 4)) + b"1,Altro,Z,Z,999,Club\n"
    parsed = parse_teams("t.csv", data)
    assert parsed.errors == ["Riga 6: la squadra 1 si chiama «A» alla riga 2, qui «Altro»."]


def test_missing_columns_and_bad_numbers():
    assert "mancano le colonne nome_squadra" in parse_teams("t.csv", b"squadra,cognome,nome\n1,A,B\n").errors[0]
    parsed = parse_teams("t.csv", HEADER.encode() + b"x,A,B,C,1,K\n")
    assert parsed.errors == ["Riga 2: numero di squadra «x» non valido."]


def test_same_membership_twice_is_refused():
    data = rows((1, "A", 4)) + b"2,B,Z,Z,101,Club\n"
    parsed = parse_teams("t.csv", data)
    assert parsed.errors == ["Riga 6: il giocatore con tessera 101 compare già alla riga 2."]


def test_import_refused_once_started(make_teams_tournament, arbiter):
    t = make_teams_tournament(2)
    services.generate_round(tournament=t, by=arbiter)
    parsed = parse_teams("t.csv", rows((9, "Tardi", 4)))
    with pytest.raises(ArbiterError, match="già iniziato"):
        services.import_teams(tournament=t, rows=parsed.rows, by=arbiter)
