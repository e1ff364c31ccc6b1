"""``python manage.py vp``: convert a table's MP into VP from the command line (rules.md §4).

Examples::

    python manage.py vp --hands 4 1620 1115      # → 13 7
    python manage.py vp --hands 3 5 -45          # → 10 10 (MP may be negative)
    python manage.py vp --scale vp20-3h 825 0    # → 17 3

The last line printed is the two VP, N/S first, separated by a space; the line before
explains the band (hidden with ``-v 0``).
"""
from __future__ import annotations

from django.core.management.base import CommandError
from django.db import DatabaseError
from django.utils.translation import gettext as _

from scoring import vp as vp_rules
from tournaments.management.lang import LangCommand
from tournaments.selectors.scales import scale_by_id


class Command(LangCommand):  # --lang it|en: messages in the operator's language
    help = "Converte gli MP di un tavolo in VP: stampa «VP_NS VP_EO» come ultima riga (rules.md §4)."

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--hands", type=int, help="smazzate per turno: la tabella pubblicata (3 o 4)")
        which.add_argument("--scale", help="codice della tabella (vp20-3h, vp20-4h o una personalizzata)")
        parser.add_argument("mp_ns", type=int, help="MP della linea N/S (anche negativi)")
        parser.add_argument("mp_ew", type=int, help="MP della linea E/O (anche negativi)")

    def handle(self, *args, hands=None, scale=None, mp_ns, mp_ew, **options):
        chosen = self._scale(hands, scale)
        try:
            vp_ns, vp_ew = vp_rules.convert(mp_ns, mp_ew, chosen)
        except vp_rules.ScaleError as exc:
            raise CommandError(str(exc)) from exc
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        band = chosen.band_for(abs(mp_ns - mp_ew))
        upper = "∞" if band.max is None else str(band.max)
        if options["verbosity"] >= 1:
            self.stdout.write(
                _("%(name)s (%(id)s): differenza %(diff)s MP, fascia %(low)s–%(high)s")
                % {"name": chosen.name, "id": chosen.id, "diff": abs(mp_ns - mp_ew), "low": band.min, "high": upper}
            )
        self.stdout.write(f"{vp_rules.format_vp(vp_ns)} {vp_rules.format_vp(vp_ew)}")

    def _scale(self, hands: int | None, scale_id: str | None) -> vp_rules.VPScale:
        if hands is not None:
            try:
                return vp_rules.scale_for_hands(hands)
            except vp_rules.UnknownScaleError as exc:
                raise CommandError(_("%(error)s (usa --scale con il codice della tabella)") % {"error": exc}) from exc
        builtin = vp_rules.builtin_scales()
        if scale_id in builtin:
            return builtin[scale_id]
        try:
            return scale_by_id(scale_id)
        except KeyError:
            pass
        except DatabaseError:  # no database yet: only the built-in scales exist
            pass
        except vp_rules.ScaleError as exc:
            raise CommandError(_("La tabella «%(id)s» salvata non è valida: %(error)s")
                               % {"id": scale_id, "error": exc}) from exc
        known = ", ".join(sorted(builtin))
        raise CommandError(_("Tabella VP «%(id)s» sconosciuta (pubblicate: %(known)s; le personalizzate sono in "
                             "/tabelle-vp/).") % {"id": scale_id, "known": known})
