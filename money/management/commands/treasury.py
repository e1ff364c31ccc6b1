"""``python manage.py treasury SLUG …``: the money of an evening from the shell (rules.md §21).

- ``--fees member=10.00,guest=15.00[,CATEGORY=5.00…]`` with ``--pool-percent 40`` or
  ``--pool 200.00`` and an optional ``--pool-cap 500.00``: the rates and the prize pool;
- ``--pay ENTRANT|all [--method cash|card|other]``: fees paid (waived players skipped);
- ``--waive ENTRANT --reason TEXT``: fees waived;
- ``--refund ENTRANT AMOUNT [--reason TEXT]``: money given back;
- ``--json`` (also the default with no action): the treasurer's sheet as ``{"income":
  {"member", "guest", "waived", "refunds", "total"}, "pool", "prizes": [{"prize", "amount",
  "names"}], "club_share", "balance"}``, amounts as strings with two decimals.

ENTRANT is the pair's, player's or team's number. Prize amounts come with the prize list
(``manage.py prizes SLUG --set FILE``, ``"amount"`` or ``"share"``). A refusal is one sentence
on stderr and exit status 1.
"""
import json

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from money import selectors, services
from tournaments.demo.simulation import simulator_user
from tournaments.errors import ArbiterError
from tournaments.management.lang import LangCommand
from tournaments.models import Tournament


def parse_fees(text: str) -> tuple[str, str, dict]:
    """``"member=10.00,guest=15.00,Juniores=5"`` → (member, guest, {category: rate}); raises
    ``CommandError`` when the member or guest rate is missing or an item is not KEY=AMOUNT."""
    rates = {}
    for item in (text or "").split(","):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise CommandError(_("--fees: «%(item)s» va scritto CHIAVE=IMPORTO, es. member=10.00,guest=15.00.")
                               % {"item": item.strip()[:40]})
        rates[key.strip()] = value.strip()
    if "member" not in rates or "guest" not in rates:
        raise CommandError(_("--fees: servono la quota dei soci e quella degli ospiti, es. member=10.00,guest=15.00."))
    member, guest = rates.pop("member"), rates.pop("guest")
    return member, guest, rates


class Command(LangCommand):
    help = "Quote, pagamenti, rimborsi e rendiconto della serata (rules.md §21)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--fees", default=None, help="Quote: member=10.00,guest=15.00[,CATEGORIA=5.00].")
        pool = parser.add_mutually_exclusive_group()
        pool.add_argument("--pool-percent", default=None, help="Montepremi: percentuale dell'incassato.")
        pool.add_argument("--pool", default=None, help="Montepremi: somma fissa.")
        parser.add_argument("--pool-cap", default=None, help="Tetto del montepremi.")
        parser.add_argument("--pay", default=None, help="Numero del concorrente, o all.")
        parser.add_argument("--method", default="cash", help="cash, card oppure other.")
        parser.add_argument("--waive", default=None, help="Numero del concorrente esonerato.")
        parser.add_argument("--reason", default="", help="Motivo dell'esonero o del rimborso.")
        parser.add_argument("--refund", nargs=2, metavar=("ENTRANT", "AMOUNT"), default=None)
        parser.add_argument("--json", action="store_true", help="Stampa il rendiconto in JSON.")

    def handle(self, *args, **o):
        tournament = Tournament.objects.filter(slug=o["slug"]).first()
        if tournament is None:
            raise CommandError(_("Torneo «%(slug)s» inesistente.") % {"slug": o["slug"]})
        by = tournament.created_by or simulator_user()
        acted = False
        try:
            if o["fees"] is not None or o["pool"] or o["pool_percent"] or o["pool_cap"]:
                if o["fees"] is None:
                    raise CommandError(_("Indica le quote con --fees member=…,guest=… insieme al montepremi."))
                member, guest, categories = parse_fees(o["fees"])
                services.set_fees(tournament=tournament, by=by, member_rate=member, guest_rate=guest,
                                  category_rates=categories, pool_amount=o["pool"], pool_percent=o["pool_percent"],
                                  pool_cap=o["pool_cap"])
                acted = True
            if o["waive"] is not None:
                services.waive(tournament=tournament, by=by, entrant=o["waive"], reason=o["reason"])
                acted = True
            if o["pay"] is not None:
                services.pay(tournament=tournament, by=by, entrant=o["pay"].strip().lower() if
                             o["pay"].strip().lower() == "all" else o["pay"], method=o["method"])
                acted = True
            if o["refund"] is not None:
                services.refund(tournament=tournament, by=by, entrant=o["refund"][0], amount=o["refund"][1],
                                reason=o["reason"])
                acted = True
        except ArbiterError as exc:
            raise CommandError(exc.message) from exc
        if o["json"] or not acted:
            sheet = selectors.treasurer_sheet(tournament)
            self.stdout.write(json.dumps(selectors.sheet_json(sheet), ensure_ascii=False))
