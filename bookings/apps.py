from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BookingsConfig(AppConfig):
    """Bookings before the first round: places up to a cap, a waiting list, the door (rules.md §21)."""

    name = "bookings"
    verbose_name = _("Prenotazioni")

    def ready(self) -> None:
        # the demo of `make run` (seed_demo) shows this app too
        from tournaments.demo import add_step

        from . import demo

        add_step(demo.seed_next_evening)
        # the bookings travel in the tournament's file (export, import, backups)
        from tournaments.transfer import sections

        from . import transfer

        # rows are checked as they are written (load_rows), still inside the import's transaction
        sections.register("bookings", sections.Section(export=lambda t: transfer.export_rows(t) or None,
                                                       check=lambda rows: rows, write=transfer.load_rows))
        # after the last round, the players' page links by e-mail (optional, notices.py)
        from tournaments.signals import round_closed

        from .notices import on_round_closed

        round_closed.connect(on_round_closed, dispatch_uid="bookings-player-pages")
