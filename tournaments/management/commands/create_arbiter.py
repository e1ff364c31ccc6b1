"""``python manage.py create_arbiter USERNAME [--password P] [--staff] [--superuser]
[--club SLUG] [--manager]``.

Makes an arbiter account (a tournament belongs to the arbiters who direct it). Without
``--password`` a random password is
generated and printed once (it is stored only hashed: write it down). ``--staff`` lets the
arbiter create and delete custom VP scales (shared by every tournament); ``--superuser``
sees every tournament and the admin. ``--club SLUG`` makes him an arbiter of that club
(``--manager``: its manager; rules.md §20): optional while the server has one club (an
account without a club belongs to it), required with several (its absence is refused, naming
the clubs), except for a superuser, who sees every club. An existing username is refused (change a password
with ``manage.py changepassword``). Accounts can also be made in the admin (/admin/).
"""
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from clubs.commands import add_club_argument, club_option
from clubs.models import ClubRole
from tournaments.management.lang import LangCommand

RANDOM_PASSWORD_BYTES = 12
"""``secrets.token_urlsafe(12)``: 16 characters, 96 bits."""


def random_password() -> str:
    """A random password to print once (96 bits, URL-safe characters)."""
    return secrets.token_urlsafe(RANDOM_PASSWORD_BYTES)


class Command(LangCommand):  # --lang it|en: messages in the operator's language
    help = "Crea un account di arbitro (password casuale stampata una volta, se non indicata)."

    def add_arguments(self, parser):
        parser.add_argument("username", help="Nome utente dell'arbitro.")
        parser.add_argument("--password", default=None,
                            help="Password; se manca ne viene generata una casuale e stampata una volta.")
        parser.add_argument("--email", default="", help="Indirizzo email (facoltativo).")
        parser.add_argument("--staff", action="store_true",
                            help="Può creare e cancellare le tabelle VP personalizzate.")
        parser.add_argument("--superuser", action="store_true",
                            help="Vede tutti i tornei e l'amministrazione.")
        add_club_argument(parser)
        parser.add_argument("--manager", action="store_true", help="Responsabile del circolo indicato.")

    def handle(self, *args, username, password, email, staff, superuser, club=None, manager=False, **options):
        User = get_user_model()
        username = username.strip()
        if not username:
            raise CommandError(_("Il nome utente non può essere vuoto."))
        if User.objects.filter(username=username).exists():
            raise CommandError(_("L'utente «%(username)s» esiste già (per cambiare password: "
                                 "manage.py changepassword %(username)s).") % {"username": username})
        # the club first: a refusal creates nothing
        role_club = None
        if club or manager or not superuser:
            role_club = club_option(club)
        generated = password is None
        if generated:
            password = random_password()
        user = User(username=username, email=email, is_staff=staff or superuser, is_superuser=superuser)
        try:
            validate_password(password, user)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        user.set_password(password)
        user.save()
        if role_club is not None and (club or manager):  # with one club and no option: no row needed
            ClubRole.objects.update_or_create(user=user, club=role_club, defaults={
                "role": ClubRole.Role.MANAGER if manager else ClubRole.Role.ARBITER})
        if generated:
            self.stdout.write(self.style.SUCCESS(
                _("Arbitro creato  →  utente: %(username)s   password: %(password)s")
                % {"username": username, "password": password} + "\n"
                + _("Annotala ora: non verrà più mostrata.")
            ))
        else:
            self.stdout.write(self.style.SUCCESS(_("Arbitro creato  →  utente: %(username)s") % {"username": username}))
