"""The players' public side under ``/p/<slug>/``, read-only, no login, switched on by the
arbiter (a sibling of :mod:`tournaments.captains`): :mod:`.views` the room's page, the
projector and its clock; :mod:`.player_views` a player's own page and the search;
:mod:`.pages` the reads of a player's page (rules.md §8); :mod:`.tag` the results tag its
polls carry and the standings they share; :mod:`.urls` the URLs. The arbiter's switches of
these pages are a board view (``tournaments.views.board.public_switches``).
"""
