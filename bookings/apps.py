from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BookingsConfig(AppConfig):
    """Bookings before the first round: places up to a cap, a waiting list, the door (rules.md §21)."""

    name = "bookings"
    verbose_name = _("Prenotazioni")

    def ready(self) -> None:
        # the demo, the tournament's file and the round's closing know the bookings (hooks.py);
        # imported here because it loads models
        from . import hooks

        hooks.connect()
