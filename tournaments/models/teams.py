"""Team tournaments (*squadre*, rules.md §15): teams, matches, line-ups.

The round cycle is the one of pairs (rules.md §1, "three kinds, one round cycle"): a line at a
table is a ``Pair``. In a team tournament each team fields two pairs per match; they are
``Pair`` rows formed for that round (``Pair.round``, ``Pair.team``, ``Pair.team_line`` 1 or 2)
whose players are ``LineMember`` rows, so seats, score sheets, captains' links,
corrections and validation work unchanged. A ``Match`` groups the two tables of two teams
(or records a team's rest or forfeit); a ``LineUp`` is what the arbiter or the team captain
entered for a round before it was published.
"""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .entrants import Player
from .rounds import Round, Table
from .tournament import Tournament, new_token


class Team(models.Model):
    """A team (*squadra*): number, name, 4–6 players (``Player.team``), a captain."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("In gara")
        WITHDRAWN = "withdrawn", _("Ritirata")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveIntegerField(_("squadra"))
    name = models.CharField(_("nome della squadra"), max_length=120)
    captain = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="captain_of", verbose_name=_("capitano"))
    status = models.CharField(_("stato"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    withdrawn_from_round = models.PositiveSmallIntegerField(_("ritirata dal turno"), null=True, blank=True)
    late_entry = models.BooleanField(_("iscrizione tardiva"), default=False)
    group = models.PositiveSmallIntegerField(_("girone"), null=True, blank=True)
    # The team captain's private link to the line-up page (rules.md §15: the
    # line-up is entered by the arbiter or the team captain).
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("squadra")
        verbose_name_plural = _("squadre")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="team_number_unique_in_tournament"),
            models.CheckConstraint(condition=Q(number__gte=1), name="team_number_positive"),
            models.CheckConstraint(condition=Q(group__isnull=True) | Q(group__gte=1), name="team_group_positive"),
            models.CheckConstraint(
                condition=Q(status="active", withdrawn_from_round__isnull=True)
                | Q(status="withdrawn", withdrawn_from_round__isnull=False),
                name="team_withdrawn_has_round",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="team_name_required"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"

    @property
    def label(self) -> str:
        return f"{self.number} {self.name}"

    @property
    def full_name(self) -> str:
        """The team's name (pages that show a pair's ``full_name`` show a team's)."""
        return self.name

    def is_active_in(self, round_number: int) -> bool:
        return self.withdrawn_from_round is None or round_number < self.withdrawn_from_round


class Match(models.Model):
    """One match of a round between two teams (rules.md §15): team A's first pair sits N/S at
    ``table_1``, its second pair E/W at ``table_2``; team B's first pair E/W at ``table_1``,
    its second pair N/S at ``table_2``. Without ``team_b`` the match is team A's rest
    (``bye`` rest) or forced rest (opponent withdrawn); ``bye`` forfeit: ``forfeit_by`` could
    not field two pairs and its opponent scores the rest (no tables). The teams are RESTRICT:
    a team with a match cannot be deleted, except together with its tournament or round."""

    class Bye(models.TextChoices):
        NONE = "", _("—")
        REST = "rest", _("Riposo")
        FORCED = "forced", _("Riposo forzato")
        FORFEIT = "forfeit", _("Forfait")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveSmallIntegerField(_("incontro"))
    team_a = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="matches_as_a")
    team_b = models.ForeignKey(Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="matches_as_b")
    table_1 = models.OneToOneField(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="match_first")
    table_2 = models.OneToOneField(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="match_second")
    bye = models.CharField(_("riposo"), max_length=8, choices=Bye.choices, default=Bye.NONE, blank=True)
    forfeit_by = models.ForeignKey(Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    # A forfeit declared by the arbiter keeps what its two tables were (numbers, links, PINs,
    # pairs and players) so it can be undone until the round closes; None otherwise.
    forfeit_snapshot = models.JSONField(null=True, blank=True, default=None)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("incontro")
        verbose_name_plural = _("incontri")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="match_number_unique_in_round"),
            models.UniqueConstraint(fields=["round", "team_a"], name="match_team_a_once_per_round"),
            models.UniqueConstraint(fields=["round", "team_b"], condition=Q(team_b__isnull=False),
                                    name="match_team_b_once_per_round"),
            models.CheckConstraint(condition=Q(number__gte=1), name="match_number_positive"),
            models.CheckConstraint(
                condition=Q(bye="", team_b__isnull=False) | Q(bye__in=["rest", "forced"], team_b__isnull=True)
                | Q(bye="forfeit", forfeit_by__isnull=False),
                name="match_bye_consistent",
            ),
        ]

    def __str__(self) -> str:
        return f"R{self.round_id} M{self.number}"

    @property
    def teams(self) -> list[Team]:
        return [t for t in (self.team_a, self.team_b) if t is not None]


class LineUp(models.Model):
    """The line-up (*formazione*) a team fields in round ``round_number``: its first pair
    (``first_1``, ``first_2``) and its second pair (``second_1``, ``second_2``), entered by the
    arbiter or the team captain before the round is published (rules.md §15, art. 2)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="lineups")
    round_number = models.PositiveSmallIntegerField(_("turno"))
    first_1 = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    first_2 = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second_1 = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second_2 = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    entered_by = models.CharField(max_length=80, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["team", "round_number"]
        verbose_name = _("formazione")
        verbose_name_plural = _("formazioni")
        constraints = [
            models.UniqueConstraint(fields=["team", "round_number"], name="lineup_once_per_team_round"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="lineup_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.team} R{self.round_number}"

    @property
    def pairs(self) -> list[list[int]]:
        """``[[first_1, first_2], [second_1, second_2]]`` as player ids."""
        return [[self.first_1_id, self.first_2_id], [self.second_1_id, self.second_2_id]]
