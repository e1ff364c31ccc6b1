"""Who plays: registered pairs, players, and the lines formed for one round
(``Pair.round``, ``LineMember``: individual and team tournaments, rules.md §9 and §15)."""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .tournament import Tournament


class Pair(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("In gara")
        WITHDRAWN = "withdrawn", _("Ritirata")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairs")
    number = models.PositiveIntegerField(_("numero"))
    # rules.md §9: a line at a table is a Pair. A registered pair has no round; in an
    # individual tournament each round's partnerships are Pairs formed for that round,
    # their players linked by LineMember (one player only for a rest).
    round = models.ForeignKey("Round", null=True, blank=True, on_delete=models.CASCADE,
                              related_name="formed_pairs")
    status = models.CharField(_("stato"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    withdrawn_from_round = models.PositiveSmallIntegerField(_("ritirata dal turno"), null=True, blank=True)
    late_entry = models.BooleanField(_("iscrizione tardiva"), default=False)
    # rules.md §14: the pair's group (girone) for round-robin rounds, 1..groups; null when
    # the field is not split.
    group = models.PositiveSmallIntegerField(_("girone"), null=True, blank=True)
    # rules.md §15: in a team tournament a line is a pair the team fields for one match (``round``
    # set, players by LineMember): ``team`` and which of its two pairs (1 or 2).
    team = models.ForeignKey("Team", null=True, blank=True, on_delete=models.CASCADE, related_name="lines")
    team_line = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("coppia")
        verbose_name_plural = _("coppie")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="pair_number_unique_in_tournament"),
            models.CheckConstraint(condition=Q(number__gte=1), name="pair_number_positive"),
            models.CheckConstraint(condition=Q(group__isnull=True) | Q(group__gte=1),
                                   name="pair_group_positive"),
            models.CheckConstraint(
                condition=Q(status="active", withdrawn_from_round__isnull=True)
                | Q(status="withdrawn", withdrawn_from_round__isnull=False),
                name="pair_withdrawn_has_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"

    @property
    def is_formed(self) -> bool:
        """A partnership formed for one round of an individual tournament (rules.md §9)."""
        return self.round_id is not None

    @property
    def players(self) -> list["Player"]:
        """The pair's players, seat 1 first: the registered members, or for a formed
        partnership the players of its ``LineMember`` rows (prefetch ``line_members__player``)."""
        if self.round_id is not None:
            return [m.player for m in sorted(self.line_members.all(), key=lambda m: m.seat)]
        return sorted(self.members.all(), key=lambda p: p.seat or 0)

    @property
    def name(self) -> str:
        """'Rossi – Bianchi': the players' surnames, seat 1 first; a formed partnership
        'Rossi + Bianchi' (rules.md §9)."""
        joiner = " + " if self.round_id is not None else " – "
        names = joiner.join(p.last_name for p in self.players)
        return f"{self.team.name}: {names}" if self.team_id is not None else names  # rules.md §15

    @property
    def full_name(self) -> str:
        joiner = " + " if self.round_id is not None else " – "
        return joiner.join(p.display_name for p in self.players)

    @property
    def display_number(self) -> str:
        """The number shown for a line: the pair number, or for a formed partnership its
        players' numbers, '3+7' (its own pair number is internal, rules.md §9); a team's pair
        '3A' / '3B' (team 3, first or second pair; rules.md §15)."""
        if self.team_id is not None:
            return f"{self.team.number}{'AB'[(self.team_line or 1) - 1]}"
        if self.round_id is not None:
            return "+".join(str(p.number) for p in self.players)
        return str(self.number)

    @property
    def label(self) -> str:
        """'4 Rossi – Bianchi' for a registered pair, '3 Rossi + 7 Bianchi' for a formed
        partnership (players by number and surname, rules.md §9)."""
        if self.team_id is not None:
            return f"{self.display_number} {self.name}"
        if self.round_id is not None:
            return " + ".join(f"{p.number} {p.last_name}" for p in self.players)
        return f"{self.number} {self.name}"

    def is_active_in(self, round_number: int) -> bool:
        return self.withdrawn_from_round is None or round_number < self.withdrawn_from_round


class Player(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("In gara")
        WITHDRAWN = "withdrawn", _("Ritirato")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    first_name = models.CharField(_("nome"), max_length=80)
    last_name = models.CharField(_("cognome"), max_length=80)
    membership_number = models.CharField(_("tessera"), max_length=30, blank=True)
    club = models.CharField(_("circolo"), max_length=120, blank=True)
    pair = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.CASCADE, related_name="members")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Individual tournaments (rules.md §9): the player's number, his status and
    # the round from which he no longer plays (withdrawals per player); late entry in round 1.
    number = models.PositiveIntegerField(_("numero"), null=True, blank=True)
    status = models.CharField(_("stato"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    withdrawn_from_round = models.PositiveSmallIntegerField(_("ritirato dal turno"), null=True, blank=True)
    late_entry = models.BooleanField(_("iscrizione tardiva"), default=False)
    # The player's team in a team tournament (rules.md §15: 4 to 6 players).
    team = models.ForeignKey("Team", null=True, blank=True, on_delete=models.CASCADE, related_name="members")
    # The club member this player is (rules.md §16); two players of one tournament never
    # share a member.
    member = models.ForeignKey("members.Member", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="players")

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("giocatore")
        verbose_name_plural = _("giocatori")
        constraints = [
            models.UniqueConstraint(fields=["pair", "seat"], name="player_one_per_seat"),
            models.UniqueConstraint(
                fields=["tournament", "membership_number"],
                condition=~Q(membership_number=""),
                name="player_membership_unique_in_tournament",
            ),
            models.CheckConstraint(
                condition=Q(pair__isnull=True, seat__isnull=True) | Q(pair__isnull=False, seat__in=[1, 2]),
                name="player_seat_1_or_2",
            ),
            models.CheckConstraint(condition=~Q(last_name=""), name="player_last_name_required"),
            models.CheckConstraint(condition=~Q(first_name=""), name="player_first_name_required"),
            models.UniqueConstraint(fields=["tournament", "number"], condition=Q(number__isnull=False),
                                    name="player_number_unique_in_tournament"),
            models.UniqueConstraint(fields=["tournament", "member"], condition=Q(member__isnull=False),
                                    name="player_member_once_per_tournament"),
            models.CheckConstraint(condition=Q(number__isnull=True) | Q(number__gte=1), name="player_number_positive"),
            models.CheckConstraint(
                condition=Q(status="active", withdrawn_from_round__isnull=True)
                | Q(status="withdrawn", withdrawn_from_round__isnull=False),
                name="player_withdrawn_has_round",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        return f"{self.last_name} {self.first_name}"

    @property
    def name(self) -> str:
        """The surname (pages that show a pair's ``name`` show a player's, rules.md §9)."""
        return self.last_name

    @property
    def full_name(self) -> str:
        return self.display_name

    @property
    def numbered_name(self) -> str:
        """'3 Rossi Mario' (individual tournaments)."""
        return f"{self.number} {self.display_name}" if self.number else self.display_name

    def is_active_in(self, round_number: int) -> bool:
        return self.withdrawn_from_round is None or round_number < self.withdrawn_from_round


class LineMember(models.Model):
    """A player of an individual tournament on a line formed for one round
    (rules.md §9): ``pair`` is the partnership (a ``Pair`` with ``round`` set), ``seat`` 1 or 2.
    ``(round, player)`` is unique: a player sits at most once per round."""

    round = models.ForeignKey("Round", on_delete=models.CASCADE, related_name="line_members")
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="line_members")
    # RESTRICT: a player who sat cannot be deleted, except with his tournament
    # (rules.md §13: once a player has played, he is fixed).
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="lines")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["round", "pair", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="line_member_player_once_per_round"),
            models.UniqueConstraint(fields=["pair", "seat"], name="line_member_one_per_seat"),
            models.CheckConstraint(condition=Q(seat__in=[1, 2]), name="line_member_seat_1_or_2"),
        ]

    def __str__(self) -> str:
        return f"R{self.round_id} {self.pair_id}/{self.seat} {self.player_id}"

