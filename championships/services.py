"""Writes of a championship (rules.md §17): create it, add or remove evenings, change its
settings. Each refusal is an :class:`tournaments.errors.ArbiterError` with a sentence; each
write runs in a transaction and is recorded in the audit trail of every tournament it
touches (a championship has no trail of its own)."""
from __future__ import annotations

import re
from typing import Iterable

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import access as club_access
from clubs.access import ClubChoiceError, club_for_new_data
from clubs.models import Club
from scoring import championship as rules
from tournaments.errors import ArbiterError
from tournaments.models import AuditAction, Tournament
from tournaments.services.audit import audit
from tournaments.text import clean_line

from .models import Championship, CircuitClub
from .selectors import is_circuit, may_include, may_join, may_manage_circuit

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


def _tournaments(user, slugs: Iterable[str], championship: Championship | None = None, *,
                 club=None) -> list[Tournament]:
    """The tournaments named by ``slugs``, each one ``user`` may put in ``championship``
    (:func:`championships.selectors.may_include`: one he directs, superusers any; in a
    circuit, an evening of a club that is in it, rules.md §20; ``user`` None: the server's
    operator, for a circuit only). A championship that is no circuit (or a new one of
    ``club``) takes only its own club's evenings (:func:`~.selectors.may_join`).

    Raises ``ArbiterError`` with one sentence for a slug that names no tournament and for one
    that names another arbiter's: the answer must not tell which addresses exist on the
    server (docs/security.md). The operator is told which club is not in the circuit; a
    tournament he directs in another club is refused by name (rules.md §20)."""
    out = []
    for slug in slugs:
        t = Tournament.objects.filter(slug=slug).select_related("club").first()
        if user is None and championship is not None and t is not None and not may_include(None, t, championship):
            raise ArbiterError(_("Il torneo «%(slug)s» è del circolo «%(club)s», che non è invitato nel "
                                 "circuito «%(championship)s».")
                               % {"slug": slug, "club": t.club.slug, "championship": championship.slug})
        if t is None or not may_include(user, t, championship):
            if championship is not None and is_circuit(championship):
                raise ArbiterError(_("Nessun torneo che puoi aggiungere ha indirizzo «%(slug)s»: in un circuito "
                                     "ogni responsabile aggiunge le serate del suo circolo.") % {"slug": slug})
            raise ArbiterError(_("Nessun torneo che dirigi ha indirizzo «%(slug)s»: solo i tornei che dirigi "
                                 "entrano nel tuo campionato.") % {"slug": slug})
        if (championship is None or not is_circuit(championship)) and not may_join(
                club if championship is None else championship.club, t):
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
    chosen = _tournaments(by, tournaments, club=club)
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
        audit(tournament=t, by=by, action=AuditAction.CHAMPIONSHIP_ADDED,
              new={"championship": championship.slug, "name": championship.name})
    return added


@transaction.atomic
def add_tournaments(*, championship: Championship, by, tournaments: Iterable[str]) -> list[Tournament]:
    """Add evenings (tournament slugs) to ``championship``; returns those newly added (one
    already in stays). In a circuit (rules.md §20) each evening must be of a club in it
    (the owning club or one that accepted), added by that club's manager (the owner's own
    evenings: by the owner too); ``by`` None is the server's operator (any such evening).
    Raises ``ArbiterError`` as :func:`create_championship` does, and for an evening of a
    club not in the circuit."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    return _add(championship, _tournaments(by, tournaments, championship), by)


@transaction.atomic
def remove_tournament(*, championship: Championship, by, tournament: Tournament) -> None:
    """Take an evening out of ``championship`` (its results stay in the tournament)."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    if championship.tournaments.filter(pk=tournament.pk).exists():
        championship.tournaments.remove(tournament)
        audit(tournament=tournament, by=by, action=AuditAction.CHAMPIONSHIP_REMOVED,
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


def _circuit_club(club) -> Club:
    found = Club.objects.filter(slug=club).first() if isinstance(club, str) else club
    if found is None:
        raise ArbiterError(_("Nessun circolo «%(slug)s».") % {"slug": club})
    return found


@transaction.atomic
def create_circuit(*, slug: str, name: str, clubs: list[str], points: str = "field", best: int | None = None,
                   min_evenings: int = 1, owner=None, tournaments: Iterable[str] = ()) -> Championship:
    """Create a circuit from the shell (rules.md §20): the server's operator names its clubs
    (``clubs``: slugs, the first one owns it) and they are in at once, without acceptance;
    ``owner`` (a user or None: superusers and the owning club's managers manage it); the
    evenings of ``tournaments`` (slugs) of any of those clubs, whoever directs them. Other
    arguments as :func:`create_championship`. Raises ``ArbiterError`` for an unknown club,
    fewer than two clubs, a club named twice, and as :func:`create_championship` does."""
    slugs = [c.strip() for c in clubs if c and c.strip()]
    if len(slugs) < 2:
        raise ArbiterError(_("Un circuito ha almeno due circoli (--clubs A,B)."))
    if len(set(slugs)) != len(slugs):
        raise ArbiterError(_("Un circolo è nominato due volte in --clubs."))
    members = [_circuit_club(c) for c in slugs]
    slug = (slug or "").strip()
    if not SLUG.match(slug):
        raise ArbiterError(_("Indirizzo breve «%(slug)s» non valido: lettere minuscole, cifre e trattini.")
                           % {"slug": slug})
    if Championship.objects.filter(slug=slug).exists():
        raise ArbiterError(_("Esiste già un campionato «%(slug)s».") % {"slug": slug})
    name = _clean_name(name)
    text = _check_settings(name=name, points=points, best=best, min_evenings=min_evenings)
    try:
        with transaction.atomic():
            championship = Championship.objects.create(slug=slug, name=name.strip(), owner=owner, club=members[0],
                                                       points_rule=text, best=best, min_evenings=min_evenings)
    except IntegrityError:
        raise ArbiterError(_("Esiste già un campionato «%(slug)s».") % {"slug": slug}) from None
    now = timezone.now()
    CircuitClub.objects.bulk_create([CircuitClub(championship=championship, club=c, accepted_at=now)
                                     for c in members[1:]])
    _add(championship, _tournaments(None, tournaments, championship), owner)
    return championship


@transaction.atomic
def invite_club(*, championship: Championship, by, club) -> CircuitClub:
    """The owner (or a manager of the owning club) invites ``club`` (a Club or its slug) into
    ``championship``, which becomes a circuit (rules.md §20); the club's manager then accepts
    (:func:`accept_invitation`). Raises ``ArbiterError`` when ``by`` does not manage the
    championship, for an unknown club, the owning club, or a club already invited."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    if not may_manage_circuit(by, championship):
        raise ArbiterError(_("Solo il proprietario del campionato invita altri circoli."))
    club = _circuit_club(club)
    if club.pk == championship.club_id:
        raise ArbiterError(_("Il circolo «%(club)s» è già il proprietario del circuito.") % {"club": club.name})
    row, created = CircuitClub.objects.get_or_create(championship=championship, club=club)
    if not created:
        raise ArbiterError(_("Il circolo «%(club)s» è già invitato.") % {"club": club.name})
    return row


@transaction.atomic
def accept_invitation(*, championship: Championship, by, club) -> CircuitClub:
    """A manager of ``club`` (a Club or its slug) accepts its invitation into
    ``championship`` (rules.md §20); then he chooses which of its evenings count
    (:func:`add_tournaments`). Accepting twice changes nothing. Raises ``ArbiterError``
    when ``by`` does not manage the club or the club was not invited."""
    club = _circuit_club(club)
    if not club_access.may_manage(by, club):
        raise ArbiterError(_("Solo il responsabile del circolo accetta l'invito."))
    row = CircuitClub.objects.select_for_update().filter(championship=championship, club=club).first()
    if row is None:
        raise ArbiterError(_("Il circolo «%(club)s» non è invitato in questo circuito.") % {"club": club.name})
    if row.accepted_at is None:
        # a conditional update: two managers accepting at once accept once
        CircuitClub.objects.filter(pk=row.pk, accepted_at__isnull=True).update(accepted_at=timezone.now())
        row.refresh_from_db()
    return row


@transaction.atomic
def leave_circuit(*, championship: Championship, by, club) -> list[Tournament]:
    """``club`` (a Club or its slug) leaves ``championship``, or its invitation is declined
    or withdrawn (rules.md §20): its evenings leave with it (their results stay in the
    tournaments), each audited. Allowed to a manager of the club and to whoever manages the
    circuit. Returns the evenings taken out. Raises ``ArbiterError`` for the owning club
    (it cannot leave its own circuit), a club not in it, or a user allowed neither."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    club = _circuit_club(club)
    if club.pk == championship.club_id:
        raise ArbiterError(_("Il circolo proprietario non può lasciare il suo circuito."))
    if not (club_access.may_manage(by, club) or may_manage_circuit(by, championship)):
        raise ArbiterError(_("Solo il responsabile del circolo o il proprietario del circuito lo tolgono dal circuito."))
    deleted, _rows = CircuitClub.objects.filter(championship=championship, club=club).delete()
    if not deleted:
        raise ArbiterError(_("Il circolo «%(club)s» non è nel circuito.") % {"club": club.name})
    gone = list(championship.tournaments.filter(club=club).order_by("date", "id"))
    championship.tournaments.remove(*gone)
    for t in gone:
        audit(tournament=t, by=by, action=AuditAction.CHAMPIONSHIP_REMOVED,
              old={"championship": championship.slug, "name": championship.name})
    return gone
