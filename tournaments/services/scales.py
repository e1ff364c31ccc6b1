"""Custom VP scales."""
from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.access import ClubChoiceError, club_for_new_data, may_work_in
from scoring import vp as vp_rules

from ..errors import ArbiterError
from ..models import CustomScale, Tournament
from ..text import clean_line
from ._common import as_actor
from .guard import write


def _refuse_unless_staff(by) -> None:
    """Custom scales are shared by every tournament, so only staff change them.
    ``by`` None or a system actor (the command line) is allowed."""
    actor = as_actor(by)
    if actor.user is not None and not (actor.user.is_staff or actor.user.is_superuser):
        raise ArbiterError(_("Solo lo staff può creare o cancellare le tabelle VP personalizzate."))


# A custom scale belongs to no tournament, so it has no place in a tournament's audit
# trail (AuditEntry.tournament is required): creation and deletion are logged instead.


@write(retry=False)
def create_custom_scale(*, scale, by, club=None):
    """Store an arbiter's VP scale (rules.md §4), e.g. for 2-hand rounds.

    ``club``: the club that made it (rules.md §20; None: ``by``'s only club or the server's
    only one, ``clubs.access.club_for_new_data``; its refusal is raised as ArbiterError).

    ``scale``: a ``scoring.vp.VPScale`` (from ``scale_from_rows`` or ``scale_from_csv``),
    validated again here and stored as ``scale_to_dict`` in ``CustomScale.data``. Its id
    must differ from every built-in and custom scale. Returns the ``CustomScale``.
    ``by``: a staff user (or None / a system actor for the command line): custom scales
    are shared by every tournament, so other arbiters only read them.
    Raises ArbiterError: ``by`` not staff, id taken, the scale invalid (``details``
    lists every problem), or its name with a NUL or over 120 characters.
    """
    _refuse_unless_staff(by)
    try:
        club = club_for_new_data(as_actor(by).user, club)
    except ClubChoiceError as exc:
        raise ArbiterError(exc.message) from None
    try:
        vp_rules.validate_scale(scale)
    except vp_rules.ScaleError as exc:
        raise ArbiterError(_("Tabella VP non valida."), details=exc.messages) from exc
    # the name is printed on the tournaments' pages and documents: text.clean_line
    name = clean_line(scale.name, label=_("Nome della tabella"),
                      max_length=CustomScale._meta.get_field("name").max_length)
    if scale.id in vp_rules.builtin_scales() or CustomScale.objects.filter(scale_id=scale.id).exists():
        raise ArbiterError(_("Esiste già una tabella VP con codice «%(code)s».") % {"code": scale.id})
    try:
        with transaction.atomic():
            custom = CustomScale.objects.create(
                scale_id=scale.id, name=name, data=vp_rules.scale_to_dict(scale), club=club
            )
    except IntegrityError as exc:  # the same id saved from another window meanwhile
        raise ArbiterError(_("Esiste già una tabella VP con codice «%(code)s».") % {"code": scale.id}) from exc
    logging.getLogger("arbitro.scales").info("%s created VP scale %s", as_actor(by).label, scale.id)
    return custom


@write(retry=False)
def delete_custom_scale(*, scale_id: str, by) -> None:
    """Delete a custom VP scale. Refused while a tournament uses it (its results would
    lose their scale), for a built-in scale and for a ``by`` who is not staff (custom
    scales are shared by every tournament). Raises ArbiterError."""
    _refuse_unless_staff(by)
    custom = CustomScale.objects.select_for_update().filter(scale_id=scale_id).first()
    # rules.md §20: another club's scale is refused as if it did not exist
    user = as_actor(by).user
    if custom is None or (user is not None and not may_work_in(user, custom.club)):
        raise ArbiterError(_("La tabella «%(code)s» non è una tabella personalizzata.") % {"code": scale_id})
    users = list(Tournament.objects.filter(vp_scale=scale_id).values_list("name", flat=True)[:5])
    if users:
        raise ArbiterError(
            _("La tabella «%(name)s» è usata dal torneo %(tournaments)s: non si può cancellare.")
            % {"name": custom.name, "tournaments": ", ".join(users)}
        )
    custom.delete()
    logging.getLogger("arbitro.scales").info("%s deleted VP scale %s", as_actor(by).label, scale_id)
