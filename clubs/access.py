"""Who may see or manage which club (rules.md §20): the ONE place the rest of the code asks.

- :func:`clubs_of` — the clubs an account works for (its registry, its new tournaments).
- :func:`readable_clubs` — :func:`clubs_of` plus every club for the *federation* role.
- :func:`managed_clubs` — the clubs whose arbiters and registry the account manages.
- :func:`role_in`, :func:`may_see`, :func:`may_manage` — the same answers for one club.
- :func:`is_federation` — superuser or a :class:`~clubs.models.FederationRole` row.
- :func:`one_club` — whether the server has exactly one club (then no page shows a club).
- :func:`current_club` / :func:`set_current_club` — the club an arbiter works in now
  (session), among :func:`clubs_of`.
- :func:`club_for_command` — the club a command's ``--club SLUG`` names (optional with one
  club on the server), raising :class:`ClubChoiceError` with a sentence.
- :func:`works_in_q`, :func:`manages_q`, :func:`reads_q` — the same answers as lazy
  conditions a queryset filters by: every read of club data is scoped through them
  (``tournaments_of``, ``championships_of``, the custom scales, the registry).

Rules: superusers see and manage every club. While the server has exactly one club, every
active account without a club role belongs to it as an *arbiter* (a laptop's accounts keep
working as before); with several clubs such an account belongs to none. The federation role
reads every club and manages none.
"""
from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from .models import Club, ClubRole, FederationRole, default_club

MANAGER = ClubRole.Role.MANAGER
ARBITER = ClubRole.Role.ARBITER

#: The session key holding the current club's id.
SESSION_KEY = "arbitro_club_id"


class ClubChoiceError(ValueError):
    """A club could not be chosen (unknown slug, or several clubs and none named);
    ``message`` is the sentence to show."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _active(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False) and user.is_active


def one_club() -> bool:
    """Whether the server has exactly one club (``migrate`` always leaves at least one)."""
    return Club.objects.count() <= 1


def clubs_of(user) -> QuerySet:
    """The clubs ``user`` works for: every club for a superuser; the clubs of his
    :class:`~clubs.models.ClubRole` rows; with no role and exactly one club on the server,
    that club; none for an anonymous or inactive account."""
    if not _active(user):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    mine = Club.objects.filter(roles__user=user)
    if not mine.exists() and one_club():
        return Club.objects.filter(pk=default_club().pk)
    return mine


def is_federation(user) -> bool:
    """Whether ``user`` has the federation's read-only view of every club (a superuser, or an
    active account with a :class:`~clubs.models.FederationRole`)."""
    if not _active(user):
        return False
    return user.is_superuser or FederationRole.objects.filter(user=user).exists()


def readable_clubs(user) -> QuerySet:
    """The clubs whose data ``user`` may read: every club for the federation role (and
    superusers), else :func:`clubs_of`."""
    if is_federation(user):
        return Club.objects.all()
    return clubs_of(user)


def managed_clubs(user) -> QuerySet:
    """The clubs ``user`` manages (their arbiters and registry): every club for a superuser,
    else those where his role is *manager*. The federation role manages none."""
    if not _active(user):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(roles__user=user, roles__role=MANAGER)


def role_in(user, club: Club) -> str | None:
    """``"manager"``, ``"arbiter"`` or None: ``user``'s role in ``club`` (a superuser is a
    manager everywhere; an account without a role is an arbiter of the only club)."""
    if not _active(user):
        return None
    if user.is_superuser:
        return MANAGER
    role = ClubRole.objects.filter(user=user, club=club).values_list("role", flat=True).first()
    if role is not None:
        return role
    return ARBITER if clubs_of(user).filter(pk=club.pk).exists() else None


def may_see(user, club: Club) -> bool:
    """Whether ``user`` may read ``club``'s data (:func:`readable_clubs`)."""
    return club is not None and readable_clubs(user).filter(pk=club.pk).exists()


def may_work_in(user, club: Club) -> bool:
    """Whether ``user`` works for ``club`` (:func:`clubs_of`): may change its registry and
    create its tournaments."""
    return club is not None and clubs_of(user).filter(pk=club.pk).exists()


def may_manage(user, club: Club) -> bool:
    """Whether ``user`` manages ``club`` (:func:`managed_clubs`)."""
    return club is not None and managed_clubs(user).filter(pk=club.pk).exists()


def current_club(request) -> Club | None:
    """The club ``request.user`` works in now: the one chosen in the session
    (:func:`set_current_club`) while it is still among :func:`clubs_of`, else his first club
    by name; None for an account without a club."""
    mine = clubs_of(request.user)
    chosen = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    if chosen is not None:
        club = mine.filter(pk=chosen).first()
        if club is not None:
            return club
    return mine.order_by("name", "id").first()


def set_current_club(request, club: Club) -> None:
    """Make ``club`` the current club of the session. Raises :class:`ClubChoiceError` when
    ``request.user`` does not work for it."""
    if not may_work_in(request.user, club):
        raise ClubChoiceError(_("Non sei arbitro di questo circolo."))
    request.session[SESSION_KEY] = club.pk


def club_for_command(slug: str | None) -> Club:
    """The club a command's ``--club SLUG`` names. Without ``slug``: the only club of the
    server; with several clubs, :class:`ClubChoiceError` naming their slugs. An unknown slug
    raises it too (naming the clubs)."""
    slugs = list(Club.objects.order_by("slug").values_list("slug", flat=True))
    if slug:
        club = Club.objects.filter(slug=slug.strip()).first()
        if club is None:
            raise ClubChoiceError(_("Nessun circolo «%(slug)s». Circoli: %(slugs)s.")
                                  % {"slug": slug, "slugs": ", ".join(slugs)})
        return club
    if len(slugs) <= 1:
        return default_club()
    raise ClubChoiceError(_("Il server ha più circoli: indica quale con --club (uno tra: %(slugs)s).")
                          % {"slugs": ", ".join(slugs)})


def club_for_new_data(user, club: Club | None = None) -> Club:
    """The club a new tournament, championship or VP scale of ``user`` belongs to: ``club``
    when given (refused unless ``user`` works for it; ``user`` None — the shell, a command —
    may name any club); else ``user``'s only club, or the server's only club. Raises
    :class:`ClubChoiceError` when ``user`` works for several clubs (or none, the server having
    several) and none was named."""
    if club is not None:
        if user is not None and not may_work_in(user, club):
            raise ClubChoiceError(_("Non sei arbitro di questo circolo."))
        return club
    if user is not None:
        mine = list(clubs_of(user)[:2])
        if len(mine) == 1:
            return mine[0]
    if one_club():
        return default_club()
    raise ClubChoiceError(_("Il server ha più circoli: scegli il circolo."))


# --- Scoping reads by club (rules.md §20): conditions a queryset filters by -------------
#
# Every read of club data goes through one of these (tournaments_of, championships_of, the
# custom scales, the member registry), so a page cannot forget the club. They are lazy
# ``Q``/``Exists`` conditions evaluated inside the caller's one query (no query of their
# own: the pages' query budgets stay as they were).

def _nothing() -> Q:
    return Q(pk__in=[])


def _club_ref(field: str) -> OuterRef:
    return OuterRef(f"{field}_id" if "__" not in field else field)


def works_in_q(user, field: str = "club") -> Q:
    """A condition on a queryset whose ``field`` (a foreign key to :class:`Club`, or a path
    such as ``"tournament__club"``) is a club ``user`` works for (:func:`clubs_of`): every
    row for a superuser; a row of his :class:`ClubRole` clubs; with no role, a row of the
    server's only club (the other clubs do not exist); nothing when anonymous or inactive."""
    if not _active(user):
        return _nothing()
    if user.is_superuser:
        return Q()
    ref = _club_ref(field)
    has_role_here = Exists(ClubRole.objects.filter(user=user, club_id=ref))
    no_role = ~Exists(ClubRole.objects.filter(user=user))
    only_club = ~Exists(Club.objects.exclude(pk=ref))
    return Q(has_role_here) | (Q(no_role) & Q(only_club))


def manages_q(user, field: str = "club") -> Q:
    """A condition: ``field``'s club is one ``user`` manages (:func:`managed_clubs`); every
    row for a superuser; nothing for the federation role alone."""
    if not _active(user):
        return _nothing()
    if user.is_superuser:
        return Q()
    return Q(Exists(ClubRole.objects.filter(user=user, club_id=_club_ref(field), role=MANAGER)))


def reads_q(user, field: str = "club") -> Q:
    """A condition: ``field``'s club is one ``user`` may read (:func:`readable_clubs`):
    :func:`works_in_q`, or every club for the federation role."""
    if not _active(user):
        return _nothing()
    return works_in_q(user, field) | Q(Exists(FederationRole.objects.filter(user=user)))

