"""The escaping of the round page's and the board's written rows
(``tournaments.views.round_table.escape``) is Django's, character for character, for the
values the rows carry (names with quotes and markup, numbers, translated texts)."""
from django.utils.html import escape as django_escape
from django.utils.translation import gettext_lazy

from tournaments.views import board_table, round_table


def test_rows_escape_as_django():
    values = ["Rossi & <Bianchi>", "D'Amico \"Nino\"", "«ok» – 14,5", "", 0, -40, 1550,
              gettext_lazy("Errore di somma"), "/tornei/a/?x=1&y=<2>"]
    for value in values:
        assert round_table.escape(value) == str(django_escape(value))
        assert board_table.escape(value) == str(django_escape(value))
