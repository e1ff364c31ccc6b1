"""Values of a registration file that the database or the documents could not hold are
refused with their row: entry numbers beyond 9999 (10^23 gave a 500 on confirmation,
2^63 − 1 made every later "add pair" without a number fail), control characters and names
longer than the model's fields."""
import pytest

from tournaments.registrations import reading
from tournaments.registrations.teams import parse_teams

HEADER = "coppia,cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2,circolo\n"


def pairs_file(*rows: str) -> bytes:
    return (HEADER + "".join(r + "\n" for r in rows)).encode()


@pytest.mark.parametrize("number", [str(10**23), str(2**63 - 1), "10000"])
def test_a_pair_number_beyond_9999_is_refused(number):
    parsed = reading.parse("f.csv", pairs_file(f"{number},Rossi,Anna,,Verdi,Bruno,,C"))
    assert parsed.errors == [f"Riga 2: il numero {number[:20]} è troppo grande (al massimo 9999)."]


def test_pair_number_9999_is_accepted():
    parsed = reading.parse("f.csv", pairs_file("9999,Rossi,Anna,,Verdi,Bruno,,C"))
    assert parsed.ok and parsed.rows[0].number == 9999


@pytest.mark.parametrize("text", ["1_000", "+5", "1e3", "١٢"])
def test_a_number_that_is_not_plain_digits_is_refused(text):
    parsed = reading.parse("f.csv", pairs_file(f"{text},Rossi,Anna,,Verdi,Bruno,,C"))
    assert parsed.errors == [f"Riga 2: numero di coppia «{text}» non valido."]


@pytest.mark.parametrize("char", ["\x07", "\x1b", "\x00", "\u202e", "\u2066"])
def test_a_control_character_in_a_name_is_refused_with_row_and_column(char):
    parsed = reading.parse("f.csv", pairs_file(f"1,Ros{char}si,Anna,,Verdi,Bruno,,C"))
    assert parsed.errors == [f"Riga 2, colonna cognome_1: contiene un carattere di controllo (U+{ord(char):04X})."]


def test_a_name_longer_than_the_field_is_refused():
    parsed = reading.parse("f.csv", pairs_file("1,Rossi,Anna,,Verdi," + "B" * 81 + ",,C"))
    assert parsed.errors == ["Riga 2, colonna nome_2: ha 81 caratteri (al massimo 80)."]


def test_an_individual_players_file_checks_the_same():
    data = "giocatore,cognome,nome,tessera,circolo\n1,Rossi,An\x1bna,,C\n99999,Verdi,Bruno,,C\n".encode()
    parsed = reading.parse_players("f.csv", data)
    assert parsed.errors == ["Riga 2, colonna nome: contiene un carattere di controllo (U+001B).",
                             "Riga 3: il numero 99999 è troppo grande (al massimo 9999)."]


def test_a_team_name_with_a_control_character_is_refused():
    rows = "".join(f"1,Squadra\x07,Rossi{k},Anna,,C\n" for k in range(4))
    parsed = parse_teams("f.csv", ("squadra,nome_squadra,cognome,nome,tessera,circolo\n" + rows)
                                            .encode())
    assert "Riga 2, colonna nome_squadra: contiene un carattere di controllo (U+0007)." in parsed.errors


def test_more_than_500_teams_are_refused():
    rows = "".join(f"{t},Squadra {t},Rossi{t}x{k},Anna,,C\n" for t in range(1, 502) for k in range(4))
    parsed = parse_teams("f.csv", ("squadra,nome_squadra,cognome,nome,tessera,circolo\n" + rows)
                                            .encode())
    assert parsed.errors == ["Il file ha 501 squadre: al massimo 500 per un torneo. Nulla è stato importato."]


@pytest.fixture
def var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    return tmp_path


def test_the_page_refuses_a_20_digit_pair_number_and_add_pair_still_numbers_the_next(
        arbiter_client, tournament, var_dir):
    """10^23 gave a 500 on confirmation; 2^63 − 1 made every later "add pair" without a
    number fail. Now the preview refuses the row and nothing is stored to confirm."""
    import io

    from django.urls import reverse

    from tournaments import services
    from tournaments.models import Pair

    url = reverse("import", args=[tournament.slug])
    for number in (10 ** 23, 2 ** 63 - 1):
        upload = io.BytesIO(pairs_file(f"{number},Rossi,Anna,,Verdi,Bruno,,C"))
        upload.name = "iscritti.csv"
        resp = arbiter_client.post(url, {"file": upload})
        assert resp.status_code == 200 and "è troppo grande (al massimo 9999)" in resp.content.decode()
        assert arbiter_client.post(url, {"confirm": "1"}).status_code == 302   # "upload again"
    assert not Pair.objects.filter(tournament=tournament).exists()
    pair = services.add_pair(tournament=tournament, by=None, players=[
        services.PlayerData("Mario", "Bianchi"), services.PlayerData("Luca", "Neri")])
    assert pair.number == 1
