from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MoneyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "money"
    verbose_name = _("Cassa")

    def ready(self):
        # the demo of `make run` (seed_demo) shows this app too
        from tournaments.demo import add_step

        from . import demo

        add_step(demo.seed_fees)
        # the money travels with the tournament's file (exports, backups): rules.md §21
        from tournaments.transfer import sections

        from .transfer import check_money, export_money, write_money

        sections.register("money", sections.Section(export=export_money, check=check_money, write=write_money))
        # a paid fee is not deleted with its pair or player (the sheet would lose the money)
        from tournaments.services import removal

        from .services import paid_fee_refusal

        removal.register(paid_fee_refusal)
