from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MoneyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "money"
    verbose_name = _("Cassa")

    def ready(self):
        # the demo, the tournament's file and the removal of entrants know the money (hooks.py);
        # imported here because it loads models
        from . import hooks

        hooks.connect()
