"""The pairs' pages of one results tag share one read of every pair's rounds
(pages.shared_pair_rounds): each page must be exactly the page read for its pair alone
(pages.pair_rounds), at every stage of an evening, and a change of the tag reads again."""
import pytest

from tournaments import services
from tournaments.public import pages

from .helpers import LOSS, WIN, enter


@pytest.fixture(autouse=True)
def _fresh_shared():
    pages._SHARED_PAIRS.clear()
    yield
    pages._SHARED_PAIRS.clear()


def assert_shared_pages_are_the_pages(tournament):
    tag = pages.results_tag(tournament)
    for number in range(1, 7):  # five pairs and an unknown number
        alone = pages.find_entrant(tournament, "coppia", number)
        shared = pages.find_entrant(tournament, "coppia", number, shared_tag=tag)
        assert shared == alone, number          # the same pair, or None for an unknown number
        if alone is None:
            continue
        assert pages.entrant_page(tournament, shared, tag, shared=True) == pages.entrant_page(tournament, alone, tag)


def test_shared_pages_equal_the_pages_read_alone_through_an_evening(five, published, arbiter):
    assert_shared_pages_are_the_pages(five)                      # round 1 in play: the next table, its clock
    enter(published, arbiter, {1: WIN, 2: LOSS})
    services.close_round(round=published, by=arbiter)
    assert_shared_pages_are_the_pages(five)                      # round 1 played, pair 5 rested
    r2 = services.generate_round(tournament=five, by=arbiter)
    assert_shared_pages_are_the_pages(five)                      # a draft stays private
    services.publish_round(round=r2, by=arbiter, acknowledge_warnings=True)
    assert_shared_pages_are_the_pages(five)                      # round 2's tables
    t2 = published.tables.get(number=2)
    services.save_score_sheet(table=t2, hands=WIN, by=arbiter, kind="transcription", reason="trascritto male")
    assert_shared_pages_are_the_pages(five)                      # a correction after closing
    assert pages.entrant_page(five, pages.find_entrant(five, "coppia", 2), pages.results_tag(five),
                              shared=True).rounds[0].corrected is True


def test_pages_of_one_tag_read_the_rounds_once(five, published, django_assert_max_num_queries):
    tag = pages.results_tag(five)
    first = pages.entrant_page(five, pages.find_entrant(five, "coppia", 1, shared_tag=tag), tag, shared=True)
    assert first.next is not None and first.next.clock is not None
    with django_assert_max_num_queries(1):    # the championship line's read at most; no rounds, seats, sheets
        pages.entrant_page(five, pages.find_entrant(five, "coppia", 3, shared_tag=tag), tag, shared=True)
