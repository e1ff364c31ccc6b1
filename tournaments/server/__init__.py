"""The server's plumbing: the caches shared by server processes (:mod:`.cache`), the lanes
in which ``manage.py serve`` hands requests to its threads (:mod:`.request_lanes`) and the
time source of the round clock (:mod:`.timesource`). Nothing here is a rule of the game."""
