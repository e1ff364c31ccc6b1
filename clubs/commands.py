"""The ``--club SLUG`` option every command that creates club data takes (rules.md §20)."""
from __future__ import annotations

from django.core.management.base import CommandError

from .access import ClubChoiceError, club_for_command
from .models import Club


def add_club_argument(parser) -> None:
    """Add ``--club SLUG`` to a command's ``parser`` (optional with one club on the server)."""
    parser.add_argument("--club", default=None, metavar="SLUG",
                        help="Circolo (indirizzo breve); facoltativo se il server ha un solo circolo.")


def club_option(slug: str | None) -> Club:
    """The club of ``--club`` (:func:`clubs.access.club_for_command`); its refusal becomes a
    ``CommandError`` (a sentence, exit code 1, no traceback)."""
    try:
        return club_for_command(slug)
    except ClubChoiceError as exc:
        raise CommandError(exc.message) from None
