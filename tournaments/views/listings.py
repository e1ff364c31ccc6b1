"""The arbiter's listings drawn with django-tables2 (a "table" of that library, not a card
table of the room: rules.md uses the word for those)."""
import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ..models import Pair


class PairTable(tables.Table):
    number = tables.Column(verbose_name=_("N."), attrs={"td": {"class": "num"}})
    players = tables.TemplateColumn(
        template_name="arbiter/_pair_players.html", verbose_name=_("Giocatori"), orderable=False
    )
    status = tables.TemplateColumn(template_name="arbiter/_withdrawn_status.html", verbose_name=_("Stato"))
    actions = tables.TemplateColumn(
        template_name="arbiter/_pair_actions.html", verbose_name="", orderable=False
    )

    class Meta:
        model = Pair
        fields = ("number", "players", "status")
        sequence = ("number", "players", "status", "actions")
        attrs = {"class": "grid"}
        # a withdrawn pair's row set apart (CSS class + the label of its status cell)
        row_attrs = {"class": lambda record: "withdrawn" if record.status == Pair.Status.WITHDRAWN else ""}
        per_page = 100
