from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChampionshipsConfig(AppConfig):
    name = "championships"
    verbose_name = _("Campionati")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # the players' pages show the season and their ETag follows it (tournaments.public.pages
        # asks its providers)
        from tournaments.public.pages import register_championship_provider

        from .player_standing import standing_sentence, standing_tag

        register_championship_provider(standing_sentence, tag_part=standing_tag)
