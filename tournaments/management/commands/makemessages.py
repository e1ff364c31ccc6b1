"""``manage.py makemessages`` (``make messages``) that also collects ``N_("…")`` and
``_lazy("…")``.

The pairing engines' and checkers' sentences are marked with ``gettext_noop`` imported as
``N_`` (tournaments/i18n_messages.py), the Registro's filters with ``gettext_lazy`` imported
as ``_lazy`` (tournaments/pages/audit.py); xgettext knows neither name, and Django's own
command moved their English translations to the obsolete entries of the catalogue.
"""
from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_", "--keyword=_lazy"]
