"""What the individual-tournament tests share (rules.md §9): a tournament of kind
``individual`` (plan DDD), players registered by hand, the seating of a round read back, and
a round played through the services.

The ``indiv`` fixture (the tournament) is in ``tests/conftest.py``.
"""


from tournaments import selectors, services
from tournaments.models import Table
from tournaments.services import HandInput, PlayerData


def register(tournament, arbiter, n):
    """Register players 1..n by hand (``NomeK CognomeK``, no membership number); returns them."""
    return [services.add_player(tournament=tournament, by=arbiter,
                                player=PlayerData(first_name=f"Nome{k}", last_name=f"Cognome{k}"))
            for k in range(1, n + 1)]


def seating(rnd):
    """{table: ([ns players], [ew players])}, resting players, forced-rest players."""
    tables, rest, forced = {}, [], []
    for t in selectors.round_tables(rnd):
        lines = {s.line: [p.number for p in s.pair.players] for s in t.seats.all()}
        if t.bye == Table.Bye.REST:
            rest += lines["ns"]
        elif t.bye == Table.Bye.FORCED:
            forced += lines["ns"]
        else:
            tables[t.number] = (lines["ns"], lines["ew"])
    return tables, rest, forced


def hands(ns, ew, n=4):
    """A sheet of ``n`` hands: hand 1 scores ``ns``-``ew`` MP, the others 0-0."""
    return [HandInput(ns, ew)] + [HandInput(0, 0)] * (n - 1)


def play(rnd, arbiter, scores):
    """Publish ``rnd``, enter and validate every played table (``scores``: {table: (ns, ew)}
    MP of hand 1, default 0-0) and close the round; returns the closed round."""
    rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    for t in rnd.tables.filter(bye=""):
        ns, ew = scores.get(t.number, (0, 0))
        services.save_score_sheet(table=t, hands=hands(ns, ew), by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)
