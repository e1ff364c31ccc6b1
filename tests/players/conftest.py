"""Fixtures of the players' page tests: the page's tag is never kept between requests here
(``ARBITRO_PLAYER_TAG_SECONDS`` 0), and the process memos start empty."""
import pytest


@pytest.fixture(autouse=True)
def _fresh_player_tags(settings):
    from tournaments.public import pages, tag

    settings.ARBITRO_PLAYER_TAG_SECONDS = 0
    tag._TAGS.clear()
    tag._STANDINGS.clear()
    tag._PUBLIC.clear()
    pages._SHARED_PAIRS.clear()
    yield
    tag._TAGS.clear()
    tag._STANDINGS.clear()
    tag._PUBLIC.clear()
    pages._SHARED_PAIRS.clear()
