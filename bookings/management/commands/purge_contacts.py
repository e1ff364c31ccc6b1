"""``python manage.py purge_contacts [--days N]``: erase bookers' phone numbers and e-mail
addresses ``N`` days (default ``settings.BOOKINGS_CONTACT_DAYS``, 30) after their tournament,
from the database and the backups (bookings/purge.py). Also run when ``serve`` starts;
schedule it daily on a server. Prints ``{"bookings": N, "backups": M}``."""
import json

from django.core.management.base import BaseCommand

from bookings.purge import purge_contacts


class Command(BaseCommand):
    help = "Cancella i contatti delle prenotazioni dopo i giorni di conservazione (rules.md §21)."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=None, help="Giorni dopo il torneo (predefinito: 30).")

    def handle(self, *args, days=None, **options):
        if days is not None and days < 0:
            from django.core.management.base import CommandError

            raise CommandError("--days: almeno 0")
        self.stdout.write(json.dumps(purge_contacts(days=days)))
