from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SimultaneousConfig(AppConfig):
    name = "simultaneous"
    verbose_name = _("Simultanei")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # an attached tournament's settings are the event's (rules.md §20): the tournament's
        # settings service asks this app which ones are locked (tournaments never imports it)
        from tournaments.services.tournament import register_settings_lock

        from .selectors import locked_settings

        register_settings_lock(locked_settings)
