"""Fixtures of the players' page tests: the page's tag is never kept between requests here
(``ARBITRO_PLAYER_TAG_SECONDS`` 0), and the process memos start empty."""
import pytest


@pytest.fixture(autouse=True)
def _fresh_player_tags(settings):
    from tournaments import player_tag

    settings.ARBITRO_PLAYER_TAG_SECONDS = 0
    player_tag._TAGS.clear()
    player_tag._STANDINGS.clear()
    player_tag._PUBLIC.clear()
    yield
    player_tag._TAGS.clear()
    player_tag._STANDINGS.clear()
    player_tag._PUBLIC.clear()
