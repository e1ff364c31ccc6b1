from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tornei")

    def ready(self) -> None:
        # the backups' receivers of round_closed and tournament_deleting (tournaments/signals.py)
        from .transfer import backups  # noqa: F401
