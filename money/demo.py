"""The cash desk of ``make run``'s demo (``tournaments.demo``): rates, a few payments and a
waiver on the demo tournament, so «Cassa» shows something on a fresh clone (rules.md §21)."""
from __future__ import annotations

from tournaments.demo import DEMO_SLUG
from tournaments.models import Tournament

from . import services
from .models import FeeSchedule
from .selectors import entrant_players


def seed_fees(user) -> None:
    """Rates on the demo tournament, the first three entrants paid (cash, card, cash) and one
    player of the fourth waived. Skipped when the tournament is missing or already has rates
    (idempotent)."""
    tournament = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if tournament is None or FeeSchedule.objects.filter(tournament=tournament).exists():
        return
    services.set_fees(tournament=tournament, by=user, member_rate="10.00", guest_rate="15.00", pool_percent="50")
    for entrant, method in ((1, "cash"), (2, "card"), (3, "cash")):
        services.pay(tournament=tournament, by=user, entrant=entrant, method=method)
    fourth = next(p for p in entrant_players(tournament) if p.entrant_number == 4)
    services.waive(tournament=tournament, by=user, entrant=4, player_id=fourth.id, reason="Socio onorario (demo)")
