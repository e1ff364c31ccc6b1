"""``--lang it|en`` for every management command: the command's messages,
and those of the services and rules it calls, in that language (default: the site's,
``settings.LANGUAGE_CODE``)."""
from __future__ import annotations

import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _

LANGS = tuple(code for code, _name in settings.LANGUAGES)


class LangCommand(BaseCommand):
    """A ``BaseCommand`` with ``--lang``; subclasses define ``add_arguments``/``handle`` as usual."""

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.add_argument("--lang", choices=LANGS, default=None,
                            help="lingua dei messaggi (it, en); predefinita: quella del sito")
        return parser

    def execute(self, *args, **options):
        with translation.override(options.get("lang") or settings.LANGUAGE_CODE):
            return super().execute(*args, **options)


class SentenceParser(CommandParser):
    """A bad command line is a sentence and exit status 1, like every other error of a
    command (argparse's own answer is a usage dump and status 2)."""

    def error(self, message):
        sys.stderr.write(_("Argomenti non validi: %(message)s.") % {"message": message} + "\n")
        sys.exit(1)


class SentenceCommand(LangCommand):
    """A ``LangCommand`` whose parser (and its subcommands' parsers: pass
    ``parser_class=self.parser_class`` to ``add_subparsers``) answers a bad command line with
    a sentence (:class:`SentenceParser`)."""

    parser_class = SentenceParser

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.__class__ = self.parser_class
        return parser


def whole_number(text: str) -> int:
    """``text`` as an int; ``CommandError`` with a sentence when it is not one."""
    try:
        return int(text)
    except ValueError:
        raise CommandError(_("«%(v)s» non è un numero intero.") % {"v": text}) from None
