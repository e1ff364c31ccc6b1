"""Writes of a championship (rules.md §17): create it, add or remove evenings, change its
settings. Each refusal is an :class:`tournaments.errors.ArbiterError` with a sentence; each
write runs in a transaction and is recorded in the audit trail of every tournament it
touches (a championship has no trail of its own)."""
from __future__ import annotations

import re
from typing import Iterable

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.access import ClubChoiceError, club_for_new_data
from scoring import championship as rules
from tournaments.errors import ArbiterError
from tournaments.models import Tournament
from tournaments.services.audit import audit
from tournaments.text import clean_line

from .models import Championship
from .selectors import may_include, may_join

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")


def _clean_name(name) -> str:
    """The championship's name made storable and printable (``tournaments.text.clean_line``:
    control characters and bidirectional overrides removed, spaces trimmed): every XLSX and
    page of the season prints it. Raises ``ArbiterError`` for a NUL; an empty or over-long
    name is refused by :func:`_check_settings`."""
    return clean_line(name, label=_("Nome del campionato"), max_length=len(str(name or "")))


def _check_settings(*, name: str, points: str, best, min_evenings) -> str:
    if not (name or "").strip() or len(name.strip()) > 200:
        raise ArbiterError(_("Il nome del campionato è obbligatorio (al più 200 caratteri)."))
    try:
        rule = rules.parse_points_rule(points)
    except rules.RuleError as exc:
        raise ArbiterError(str(exc)) from None
    if best is not None and not (1 <= best <= 1000):
        raise ArbiterError(_("«Migliori N serate» va da 1 a 1000 (vuoto: tutte)."))
    if not (1 <= min_evenings <= 1000):
        raise ArbiterError(_("Il minimo di serate va da 1 a 1000."))
    return rule.text


def _tournaments(user, slugs: Iterable[str], club) -> list[Tournament]:
    """The tournaments named by ``slugs``, each one ``user`` directs (superusers: any) and
    each one that may join a championship of ``club`` (:func:`~.selectors.may_join`).

    Raises ``ArbiterError`` with one sentence for a slug that names no tournament and for one
    that names another arbiter's: the answer must not tell which addresses exist on the
    server (docs/security.md). A tournament he directs in another club is refused by name
    (rules.md §20)."""
    out = []
    for slug in slugs:
        t = Tournament.objects.filter(slug=slug).first()
        if t is None or user is None or not may_include(user, t):
            raise ArbiterError(_("Nessun torneo che dirigi ha indirizzo «%(slug)s»: solo i tornei che dirigi "
                                 "entrano nel tuo campionato.") % {"slug": slug})
        if not may_join(club, t):
            raise ArbiterError(_("«%(name)s» è un torneo di un altro circolo: un campionato raccoglie le serate "
                                 "del suo circolo.") % {"name": t.name})
        out.append(t)
    return out


@transaction.atomic
def create_championship(*, by, slug: str, name: str, points: str = "field", best: int | None = None,
                        min_evenings: int = 1, public_enabled: bool = False, projector_enabled: bool = False,
                        tournaments: Iterable[str] = (), club=None) -> Championship:
    """Create a championship owned by ``by`` (a user) with the tournaments of ``tournaments``
    (slugs, each directed by ``by``; superusers any). ``points``: ``field``, ``table:a,b,c``
    or ``vp``; ``best``: None for every evening; ``public_enabled`` / ``projector_enabled``
    switch on the public page and the projector (rules.md §17) from the start. ``club``: the
    club that owns it (§20; None: ``by``'s only club or the server's only one, by
    ``clubs.access.club_for_new_data``, whose refusal is raised as ``ArbiterError``). Raises ``ArbiterError`` for a taken or bad
    slug, an empty name, a bad rule, ``best``/``min_evenings`` out of 1..1000, or a tournament
    missing, not his, or of another club."""
    slug = (slug or "").strip()
    if not SLUG.match(slug):
        raise ArbiterError(_("Indirizzo breve «%(slug)s» non valido: lettere minuscole, cifre e trattini.")
                           % {"slug": slug})
    if Championship.objects.filter(slug=slug).exists():
        raise ArbiterError(_("Esiste già un campionato «%(slug)s».") % {"slug": slug})
    name = _clean_name(name)
    text = _check_settings(name=name, points=points, best=best, min_evenings=min_evenings)
    try:
        club = club_for_new_data(by, club)
    except ClubChoiceError as exc:
        raise ArbiterError(exc.message) from None
    chosen = _tournaments(by, tournaments, club)
    try:
        with transaction.atomic():
            championship = Championship.objects.create(slug=slug, name=name.strip(), owner=by, club=club,
                                                       points_rule=text,
                                                       best=best, min_evenings=min_evenings,
                                                       public_enabled=bool(public_enabled),
                                                       projector_enabled=bool(projector_enabled))
    except IntegrityError:
        raise ArbiterError(_("Esiste già un campionato «%(slug)s».") % {"slug": slug}) from None
    _add(championship, chosen, by)
    return championship


def _add(championship: Championship, chosen: list[Tournament], by) -> list[Tournament]:
    present = set(championship.tournaments.values_list("id", flat=True))
    added = [t for t in chosen if t.pk not in present]
    championship.tournaments.add(*added)
    for t in added:
        audit(tournament=t, by=by, action="championship_added",
              new={"championship": championship.slug, "name": championship.name})
    return added


@transaction.atomic
def add_tournaments(*, championship: Championship, by, tournaments: Iterable[str]) -> list[Tournament]:
    """Add evenings (tournament slugs) to ``championship``; returns those newly added (one
    already in stays). Raises ``ArbiterError`` as :func:`create_championship` does."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    return _add(championship, _tournaments(by, tournaments, championship.club), by)


@transaction.atomic
def remove_tournament(*, championship: Championship, by, tournament: Tournament) -> None:
    """Take an evening out of ``championship`` (its results stay in the tournament)."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    if championship.tournaments.filter(pk=tournament.pk).exists():
        championship.tournaments.remove(tournament)
        audit(tournament=tournament, by=by, action="championship_removed",
              old={"championship": championship.slug, "name": championship.name})


@transaction.atomic
def update_championship(*, championship: Championship, by, name: str, points: str, best: int | None,
                        min_evenings: int, public_enabled: bool, projector_enabled: bool) -> Championship:
    """Change the settings; the standings follow at the next read. Raises ``ArbiterError``
    as :func:`create_championship` does."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    name = _clean_name(name)
    text = _check_settings(name=name, points=points, best=best, min_evenings=min_evenings)
    championship.name, championship.points_rule = name.strip(), text
    championship.best, championship.min_evenings = best, min_evenings
    championship.public_enabled, championship.projector_enabled = public_enabled, projector_enabled
    championship.save()
    return championship
