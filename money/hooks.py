"""How the cash desk plugs into the tournaments app, connected once from ``MoneyConfig.ready``
(models must be loaded first, so this module is imported there, not by apps.py's top)."""
from tournaments.demo import add_step
from tournaments.services import removal
from tournaments.transfer import sections

from . import demo
from .services import paid_fee_refusal
from .transfer import check_money, export_money, write_money


def connect() -> None:
    """Register the money with the demo, the tournament's file and the removal of entrants.

    Called once at start-up."""
    # the demo of `make run` (seed_demo) shows this app too
    add_step(demo.seed_fees)
    # the money travels with the tournament's file (exports, backups): rules.md §21
    sections.register("money", sections.Section(export=export_money, check=check_money, write=write_money))
    # a paid fee is not deleted with its pair or player (the sheet would lose the money)
    removal.register(paid_fee_refusal)
