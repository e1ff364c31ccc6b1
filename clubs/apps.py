from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _ensure_a_club(sender, using="default", **kwargs):
    """After every ``migrate`` (and a test's flush) the server has at least one club
    (issue: a laptop is one club made at setup, even on an empty database)."""
    from .models import default_club

    default_club(using=using)


class ClubsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clubs"
    verbose_name = _("Circoli")

    def ready(self):
        post_migrate.connect(_ensure_a_club, sender=self, dispatch_uid="clubs.ensure_a_club")
