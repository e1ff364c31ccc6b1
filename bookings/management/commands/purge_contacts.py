"""``python manage.py purge_contacts [--days N]``: erase bookers' phone numbers and e-mail
addresses ``N`` days (default ``settings.BOOKINGS_CONTACT_DAYS``, 30) after their tournament,
from the database and the backups (bookings/purge.py). Also run when ``serve`` starts;
schedule it daily on a server. Prints ``{"bookings": N, "backups": M}``; a refusal is a
sentence on stderr, exit status 1."""
import json

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from bookings.purge import purge_contacts
from tournaments.management.lang import LangCommand


class Command(LangCommand):
    help = "Cancella i contatti delle prenotazioni dopo i giorni di conservazione (rules.md §21)."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=None, help="Giorni dopo il torneo (predefinito: 30).")

    def handle(self, *args, days=None, **options):
        if days is not None and not 0 <= days <= 36500:
            raise CommandError(_("--days: un numero di giorni tra 0 e 36500."))
        self.stdout.write(json.dumps(purge_contacts(days=days)))
