from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tornei")

    def ready(self) -> None:
        # the backups' receivers of round_closed and tournament_deleting (tournaments/signals.py)
        # The member registry sits below this app: hand it the registration files' reader
        # and let this app rewrite its records when a member is erased (rules.md §16).
        from members import files

        from .printing import pack  # noqa: F401  (drops an erased member's cached print packs)
        from .registrations import reading
        from .services import member_erasure  # noqa: F401  (its receiver connects on import)
        from .transfer import backups  # noqa: F401

        files.register_reader(reading.read_records, too_many=reading.TooManyRows)
