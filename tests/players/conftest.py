"""Fixtures of the players' page tests: the page's tag is never kept between requests here
(``ARBITRO_PLAYER_TAG_SECONDS`` 0), and the process memos start empty."""
import pytest


@pytest.fixture(autouse=True)
def _fresh_player_tags(settings):
    from tournaments import player_page

    settings.ARBITRO_PLAYER_TAG_SECONDS = 0
    player_page._TAGS.clear()
    player_page._STANDINGS.clear()
    yield
    player_page._TAGS.clear()
    player_page._STANDINGS.clear()
