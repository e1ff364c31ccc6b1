from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChampionshipsConfig(AppConfig):
    name = "championships"
    verbose_name = _("Campionati")
    default_auto_field = "django.db.models.BigAutoField"
