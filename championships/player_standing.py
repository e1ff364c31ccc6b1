"""A member's place in the season, for the players' own pages (rules.md §17): the
tournaments app asks through ``tournaments.public.pages.register_championship_provider``."""
from __future__ import annotations

from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import AuditEntry, Tournament
from tournaments.public.tag import IN_PLAY_ACTIONS

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
            if not members.intersection(row.member_ids or (row.member_id,)):
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


def standing_tag(tournament: Tournament) -> str:
    """What :func:`standing_sentence` says for ``tournament``'s entrants depends on, as a
    short text for the players' page ETag ("" when no public championship holds it): the
    public championships holding it (switched on or off, renamed, their rule, best N and
    minimum) and each of their evenings with its latest audit entry that is not in-play work
    (``tournaments.public.tag.IN_PLAY_ACTIONS``: a sheet saved in the round in play moves no
    championship), so an evening added, taken out or corrected changes it too. Two queries
    (one when no public championship holds the tournament); not covered: a member renamed in
    the registry (the next change of the evening shows it)."""
    championships = list(Championship.objects.filter(tournaments=tournament, public_enabled=True)
                         .order_by("pk").values_list("pk", "name", "points_rule", "best", "min_evenings"))
    if not championships:
        return ""
    latest = (AuditEntry.objects.filter(tournament=OuterRef("tournament_id")).exclude(action__in=IN_PLAY_ACTIONS)
              .order_by("-id").values("id")[:1])
    evenings = list(Championship.tournaments.through.objects
                    .filter(championship_id__in=[c[0] for c in championships])
                    .annotate(last=Subquery(latest)).order_by("championship_id", "tournament_id")
                    .values_list("championship_id", "tournament_id", "last"))
    return repr((championships, evenings))
