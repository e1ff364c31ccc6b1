"""``--lang it|en`` for every management command: the command's messages,
and those of the services and rules it calls, in that language (default: the site's,
``settings.LANGUAGE_CODE``)."""
from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import translation

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
