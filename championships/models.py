"""A championship across evenings (*campionato sociale*, rules.md §17).

This app sits above ``tournaments``: a championship lists tournaments and ranks the members
(``members.Member``) behind their players; ``tournaments`` never imports it. The standings
are never stored: they are computed from the tournaments' current standings
(``championships.selectors``), so a correction of an evening changes them. What is stored
is each evening's placings (:class:`EveningPlacings`), with the audit entry they were
computed after, so that a read computes again only the evenings changed since.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, default_club_id


class Championship(models.Model):
    """A championship: ``points_rule`` (``field``, ``table:a,b,c``, ``vp``; rules.md §17),
    ``best`` (count the best N evenings; null = all), ``min_evenings`` (members who played
    fewer are listed after the others without a position), the tournaments it groups (in
    date order), its owner (the arbiter who created it) and the switches of its public page
    and projector view."""

    slug = models.SlugField(_("indirizzo breve"), max_length=80, unique=True)
    name = models.CharField(_("nome"), max_length=200)
    # the club that owns it (rules.md §20)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="championships",
                             default=default_club_id, verbose_name=_("circolo"))
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="championships", verbose_name=_("proprietario"))
    points_rule = models.CharField(_("punti di una serata"), max_length=2000, default="field")
    best = models.PositiveSmallIntegerField(_("migliori serate contate"), null=True, blank=True)
    min_evenings = models.PositiveSmallIntegerField(_("minimo di serate"), default=1)
    tournaments = models.ManyToManyField("tournaments.Tournament", blank=True, related_name="championships",
                                         verbose_name=_("tornei"))
    public_enabled = models.BooleanField(_("pagina pubblica attiva"), default=False)
    projector_enabled = models.BooleanField(_("vista proiettore attiva"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("campionato")
        verbose_name_plural = _("campionati")
        constraints = [
            models.CheckConstraint(condition=Q(best__isnull=True) | Q(best__gte=1), name="championship_best_positive"),
            models.CheckConstraint(condition=Q(min_evenings__gte=1), name="championship_min_evenings_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class EveningPlacings(models.Model):
    """One tournament's placings as a championship reads them (rules.md §17): every ranked
    entrant's number, position and final VP after the tournament's last closed round, and
    ``final`` (its last planned round closed). A stored copy of what
    ``tournaments.selectors.standings_after`` gives, never a result of its own.

    ``computed_from`` is the id of the tournament's latest audit entry when they were computed
    (0 without any): every write that changes a result is audited in its transaction
    (README.md, "Layout"), so a different id means the evening may have changed and it is computed
    again; ``format`` is ``championships.selectors.PLACINGS_FORMAT`` at that time, so a
    release that computes placings otherwise recomputes the rows an older one stored.
    ``placings`` is ``[[entrant, position, "vp"], …]`` in standings order (VP as a decimal
    string, exact). One row a tournament, whichever championships hold it."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE,
                                      related_name="championship_placings")
    computed_from = models.BigIntegerField()
    format = models.PositiveSmallIntegerField()
    final = models.BooleanField()
    placings = models.JSONField()
    computed_at = models.DateTimeField()

    class Meta:
        verbose_name = _("piazzamenti di una serata")
        verbose_name_plural = _("piazzamenti delle serate")

    def __str__(self) -> str:
        return f"{self.tournament_id}@{self.computed_from}"


class CircuitClub(models.Model):
    """A club invited into a championship that is a **circuit** (rules.md §20): a championship
    with at least one row here draws its evenings from several clubs. The owning club
    (``Championship.club``) is always in and has no row. ``accepted_at`` is None while the
    invitation waits for the invited club's manager; once accepted, the club's manager chooses
    which of its evenings count (``Championship.tournaments``). A club that leaves loses its
    row and its evenings leave with it (``championships.services.leave_circuit``)."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="circuit_clubs")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="circuit_invitations",
                             verbose_name=_("circolo"))
    invited_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(_("accettato il"), null=True, blank=True)

    class Meta:
        ordering = ["club__name", "club_id"]
        verbose_name = _("circolo del circuito")
        verbose_name_plural = _("circoli del circuito")
        constraints = [models.UniqueConstraint(fields=["championship", "club"], name="circuit_club_once")]

    def __str__(self) -> str:
        return f"{self.championship_id}:{self.club_id}"
