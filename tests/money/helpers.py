"""Helpers shared by the money tests: the evening's shares and a played cash desk."""
from money import services

SHARES = [{"prize": "1° assoluto", "scope": "overall", "share": 50},
          {"prize": "2° assoluto", "scope": "overall", "share": 30},
          {"prize": "3° assoluto", "scope": "overall", "share": 20}]


def play_the_desk(evening, arbiter, **pool):
    services.set_fees(tournament=evening, by=arbiter, member_rate="10.00", guest_rate="15.00", **pool)
    services.waive(tournament=evening, by=arbiter, entrant=5, reason="coppia dello staff")
    services.pay(tournament=evening, by=arbiter, entrant="all", method="cash")
    services.refund(tournament=evening, by=arbiter, entrant=7, amount="10.00", reason="un giocatore è andato via")
