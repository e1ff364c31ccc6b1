"""Two clubs' tournaments of one simultaneous evening with results chosen by hand
(test_combined_standings.py's module docstring gives the table and the hand computation)."""
import datetime
from decimal import Decimal
from io import StringIO

from django.core.management import call_command

from simultaneous import services
from tournaments import services as tournament_services
from tournaments.services.entrants import PlayerData

DAY = datetime.date(2026, 12, 3)
RESULTS = {
    "a": {1: (15, 1500), 3: (5, 900), 2: (12, 1200), 4: (8, 1000)},
    "b": {1: (15, 1300), 3: (5, 1100), 2: (12, 1200), 4: (8, 1000)},
}


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def club_tournament(arbiter, event, club):
    t = services.create_club_tournament(event=event, club=club, by=arbiter, name=f"Simultaneo {club.slug}",
                                        slug=f"t-{club.slug}")
    for k in range(1, 5):
        tournament_services.add_pair(tournament=t, by=arbiter, players=[
            PlayerData(last_name=f"{club.slug.upper()}{k}a", first_name="Anna"),
            PlayerData(last_name=f"{club.slug.upper()}{k}b", first_name="Bruno")])
    return t


def play(arbiter, t, results) -> None:
    """Round 1 drawn, published, each table scored by arbitral score from ``results`` and closed."""
    rnd = tournament_services.generate_round(tournament=t, by=arbiter)
    rnd = tournament_services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    tables = []
    for table in rnd.tables.filter(bye="").order_by("number"):
        seats = {s.line: s.pair.number for s in table.seats.select_related("pair")}
        tables.append(sorted(seats.values()))
        (vp_ns, mp_ns), (vp_ew, mp_ew) = results[seats["ns"]], results[seats["ew"]]
        tournament_services.set_arbitral_score(table=table, by=arbiter, vp_ns=Decimal(vp_ns), vp_ew=Decimal(vp_ew),
                                               mp_ns=mp_ns, mp_ew=mp_ew, reason="risultato di prova")
    assert sorted(tables) == [[1, 3], [2, 4]]  # the pairing the hand computation assumes
    tournament_services.close_round(round=rnd, by=arbiter)


