"""How the bookings plug into the tournaments app, connected once from ``BookingsConfig.ready``
(models and signals must be loaded first, so this module is imported there, not by apps.py's top)."""
from tournaments.demo import add_step
from tournaments.signals import round_closed
from tournaments.transfer import sections

from . import demo, transfer
from .notices import on_round_closed


def connect() -> None:
    """Register the bookings with the demo, the tournament's file and the round's closing.

    Called once at start-up."""
    # the demo of `make run` (seed_demo) shows this app too
    add_step(demo.seed_next_evening)
    # the bookings travel in the tournament's file (export, import, backups);
    # rows are checked as they are written (load_rows), still inside the import's transaction
    sections.register("bookings", sections.Section(export=lambda t: transfer.export_rows(t) or None,
                                                   check=lambda rows: rows, write=transfer.load_rows))
    # after the last round, the players' page links by e-mail (optional, notices.py)
    round_closed.connect(on_round_closed, dispatch_uid="bookings-player-pages")
