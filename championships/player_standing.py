"""A member's place in the season, for the players' own pages (rules.md §17): the
tournaments app asks through ``tournaments.player_page.register_championship_provider``."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Tournament

from . import selectors
from .models import Championship


def standing_sentence(tournament: Tournament, kind: str, number: int) -> str | None:
    """«Sociale: Serra Anna, 3° posto ex aequo, 57,5 punti (3 serate)»-like sentences, one per
    member of the entrant and public championship holding ``tournament``, joined by " · ";
    None when there is none. Only names, positions and points (personal data, rules.md §16)."""
    championships = list(Championship.objects.filter(tournaments=tournament, public_enabled=True)
                         .order_by("name"))
    if not championships:
        return None
    members = set(selectors.entrant_members([tournament]).get((tournament.pk, number), []))
    if not members:
        return None
    parts = []
    for championship in championships:
        for row in selectors.standings(championship).rows:
            if row.member_id not in members:
                continue
            if row.position is None:
                place = _("sotto il minimo di serate")
            elif row.position_label.endswith("="):  # a shared place (rules.md §17): «3° posto ex aequo»
                place = _("%(position)s° posto ex aequo") % {"position": row.position}
            else:
                place = _("%(position)s° posto") % {"position": row.position}
            points = ngettext("%(points)s punto", "%(points)s punti", 1 if row.total == 1 else 2) % {
                "points": row.total_text}
            played = ngettext("%(n)s serata", "%(n)s serate", row.played) % {"n": row.played}
            parts.append(_("%(championship)s: %(name)s, %(place)s, %(points)s (%(evenings)s)") % {
                "championship": championship.name, "name": row.name, "place": place,
                "points": points, "evenings": played})
    return " · ".join(parts) or None
