"""Issue 14 item 9: the seat finder sorts surnames as a directory does."""
from tournaments import documents


def _doc(surnames):
    people = [(s, "X") for s in surnames]
    tables = tuple(
        documents.TableInfo(
            i + 1,
            documents.PairInfo(2 * i + 1, (people[4 * i], people[4 * i + 1])),
            documents.PairInfo(2 * i + 2, (people[4 * i + 2], people[4 * i + 3])),
        )
        for i in range(len(people) // 4)
    )
    return documents.RoundDocument(
        tournament="T", date=None, venue="", round_number=1, system="Mitchell", hands_per_round=4,
        scale_name="s", scale_bands=(), state="", tables=tables,
    )


def test_directory_order_ignores_apostrophes_spaces_and_accents():
    # The expected order, fed in scrambled; three fillers after them ("Zz…").
    given = ["D'Amico", "Danesi", "Dalla Costa", "Zz1", "Dabbene", "Damiani", "Zz2", "Zz3"]
    doc = _doc(given)
    names = [s.last_name for s in doc.seat_finder]
    assert names[:5] == ["Dabbene", "Dalla Costa", "Damiani", "D'Amico", "Danesi"]


def test_typographic_apostrophe_and_accent_file_like_plain_letters():
    doc = _doc(["D’Àmico", "Damiano", "Dàmico", "Dal Bo"])
    # "dalbo" < "damiano" < "damico" (twice: both spellings are the same key, then by pair)
    assert [s.last_name for s in doc.seat_finder] == ["Dal Bo", "Damiano", "D’Àmico", "Dàmico"]
