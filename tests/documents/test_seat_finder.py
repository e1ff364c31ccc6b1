"""The seat finder (rules.md §10): surnames sorted as a directory does (apostrophes, spaces and
accents ignored), and its A4 pages of two columns cut in Python (``documents.finder_pages``)
instead of CSS columns: every player printed, in order, no column running off its page."""
from __future__ import annotations

import io

from pypdf import PdfReader

from tournaments.printing import documents


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
    # A directory's order, fed in scrambled; three fillers after them ("Zz…").
    given = ["D'Amico", "Danesi", "Dalla Costa", "Zz1", "Dabbene", "Damiani", "Zz2", "Zz3"]
    doc = _doc(given)
    names = [s.last_name for s in doc.seat_finder]
    assert names[:5] == ["Dabbene", "Dalla Costa", "Damiani", "D'Amico", "Danesi"]


def test_typographic_apostrophe_and_accent_file_like_plain_letters():
    doc = _doc(["D’Àmico", "Damiano", "Dàmico", "Dal Bo"])
    # "dalbo" < "damiano" < "damico" (twice: both spellings are the same key, then by pair)
    assert [s.last_name for s in doc.seat_finder] == ["Dal Bo", "Damiano", "D’Àmico", "Dàmico"]


def _row(name: str, k: int = 1) -> documents.SeatFinder:
    return documents.SeatFinder(name, "", k, k, "N/S")


def test_finder_pages_fill_left_then_right_then_the_next_page():
    """Budget 3 lines a column on page 1, 4 after it; row 5's name is longer than
    FINDER_WRAP (25) characters, so it counts as two lines. By hand:
    page 1: left 1, 2, 3 (3 lines) | right 4, 5 (1 + 2 = 3 lines);
    page 2: left 6, 7, 8, 9 (4 lines) | right 10, 11."""
    rows = [_row(f"R{k}", k) for k in range(1, 12)]
    rows[4] = _row("Mastrogiacomo-Bartolomucci", 5)  # 26 characters and an empty first name
    pages = documents.finder_pages(rows, first=3, lines=4)
    assert [[[r.pair for r in column] for column in page] for page in pages] == [
        [[1, 2, 3], [4, 5]],
        [[6, 7, 8, 9], [10, 11]],
    ]


def test_finder_pages_last_page_may_have_one_column_and_nobody_gives_one_empty_page():
    rows = [_row(f"R{k}", k) for k in range(1, 5)]
    assert [[len(c) for c in page] for page in documents.finder_pages(rows, first=3, lines=4)] == [[3, 1]]
    assert [[len(c) for c in page] for page in documents.finder_pages(rows[:2], first=3, lines=4)] == [[2]]
    assert documents.finder_pages([]) == [[[]]]


def _crowded_round(tables: int) -> documents.RoundDocument:
    """``tables`` tables, four players each, every "Surname Name" exactly FINDER_WRAP (25)
    characters long with a bold surname: the widest names that still count as one line."""
    people = [(f"Bartolomuc{chr(97 + k // 26 % 26)}{chr(97 + k % 26)}", "Massimiliano")  # 12 + 1 + 12
              for k in range(4 * tables)]
    assert {len(f"{last} {first}") for last, first in people} == {documents.FINDER_WRAP}
    return documents.RoundDocument(
        tournament="Prova lunga", date=None, venue="", round_number=1, system="Mitchell",
        hands_per_round=4, scale_name="s", scale_bands=(), state="",
        tables=tuple(
            documents.TableInfo(
                t + 1,
                documents.PairInfo(2 * t + 1, (people[4 * t], people[4 * t + 1])),
                documents.PairInfo(2 * t + 2, (people[4 * t + 2], people[4 * t + 3])),
            )
            for t in range(tables)
        ),
    )


def test_a_crowded_seat_finder_prints_every_player_on_the_pages_planned():
    """130 tables, 520 players: columns of 52 (page 1) then 56 lines →
    page 1: 104; pages 2-5: 112, 112, 112, 80 (= 520 - 104 - 336) → 5 finder pages, each
    with its column headers, every player's pair number printed once."""
    doc = _crowded_round(130)
    pages = doc.seat_finder_pages
    assert [sum(len(c) for c in page) for page in pages] == [104, 112, 112, 112, 80]
    reader = PdfReader(io.BytesIO(documents.tablelist_pdf(doc, qr=False)))
    texts = [page.extract_text() for page in reader.pages]
    finder = [t for t in texts if "Giocatore" in t]
    assert len(finder) == 5  # no column ran over onto a page of its own
    assert "dove siedo" in finder[0]
    printed = "\n".join(finder)
    for last, _first in {p for t in doc.tables for pair in (t.ns, t.ew) for p in pair.people}:
        assert last in printed
