"""Reads of VP scales: the built-in ones (``scoring.vp``) and the arbiters' custom scales
(rules.md §4), and the values a rest is credited (§5)."""
from __future__ import annotations

import dataclasses
from decimal import Decimal

from django.utils.translation import gettext as _

from clubs import access as club_access
from scoring import vp as vp_rules

from ..models import CustomScale, Tournament


def builtin_scales() -> list[vp_rules.VPScale]:
    """The published scales with their names in the current UI language
    ("20 VP, 4 smazzate" / "20 VP, 4 hands"); the JSON keeps the sources' English names."""
    return [_named(s) for s in vp_rules.builtin_scales().values()]


def _named(scale: vp_rules.VPScale) -> vp_rules.VPScale:
    if scale.hands is None:
        if scale.id in vp_rules.builtin_team_scales():  # the built-in team table (rules.md §15)
            return dataclasses.replace(scale, name=_("%(total)s VP, scarto dell'incontro a squadre") % {"total": scale.total})
        return scale
    name = _("%(total)s VP, %(hands)s smazzate") % {"total": scale.total, "hands": scale.hands}
    return dataclasses.replace(scale, name=name)


def scale_by_id(scale_id: str) -> vp_rules.VPScale:
    """A VP scale by id: a built-in one (``vp20-3h``, ``vp20-4h``) or an arbiter's custom scale.

    Raises ``KeyError`` when there is none with that id.
    """
    builtin = vp_rules.builtin_scales()
    if scale_id in builtin:
        return _named(builtin[scale_id])
    custom = CustomScale.objects.filter(scale_id=scale_id).first()
    if custom is None:
        raise KeyError(scale_id)
    return vp_rules.scale_from_dict(custom.data)


def custom_scales_of(user):
    """The custom scales ``user`` may see and pick: those of the clubs he works for
    (``clubs.access.works_in_q``, rules.md §20); every one for a superuser."""
    return CustomScale.objects.filter(club_access.works_in_q(user))


def _custom(club) -> list[tuple[str, str]]:
    rows = CustomScale.objects.all() if club is None else CustomScale.objects.filter(club=club)
    return [(c.scale_id, c.name) for c in rows]


def scale_choices(club=None) -> list[tuple[str, str]]:
    """(id, name) of every scale the arbiter may pick for a table: the built-in table scales
    (not the team one) and the custom scales of ``club`` (the tournament's club, rules.md §20;
    None: every custom scale, for the shell and commands)."""
    choices = [(s.id, s.name) for s in builtin_scales() if s.id in vp_rules.builtin_pair_scales()]
    return choices + _custom(club)


def team_scale_choices(club=None) -> list[tuple[str, str]]:
    """(id, name) of the scales of a team match margin (rules.md §15, ``"margin"`` mode): the
    built-in team table ``vp20-teams`` first, then the custom scales of ``club`` (as
    :func:`scale_choices`)."""
    choices = [(s.id, s.name) for s in builtin_scales() if s.id in vp_rules.builtin_team_scales()]
    return choices + _custom(club)


def scale_of(tournament: Tournament) -> vp_rules.VPScale:
    """The tournament's VP scale (rules.md §4)."""
    return scale_by_id(tournament.vp_scale)


def rest_values(tournament: Tournament, scale: vp_rules.VPScale | None = None) -> tuple[Decimal, int]:
    """(VP, MP) credited to a resting pair (rules.md §5, seed code art. 33)."""
    scale = scale or scale_of(tournament)
    vp = vp_rules.rest_vp(scale, tournament.bye_percent)
    mp = vp_rules.rest_mp(scale, tournament.bye_mp, percent=tournament.bye_percent)
    return Decimal(vp), int(mp)
