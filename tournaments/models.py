"""Tournament data: people, pairs, rounds, tables, score sheets, penalties, audit.

Models hold data and database constraints only (rules.md §1). Every write that
changes a result goes through ``tournaments.services``, which also writes the
``AuditEntry`` in the same transaction.

Two constraints that span two columns are made structural instead:

- a player belongs to at most one pair: ``Player.pair`` is a single foreign key
  with a unique ``(pair, seat)``;
- a pair sits at most once per round: ``Seat`` rows carry ``(round, pair)``
  unique, and a table has at most one seat per line.
"""
from __future__ import annotations

import secrets
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from pairing.plan import PlanError, parse_plan

DEFAULT_TIEBREAKS = "vp,mp_difference,head_to_head,mp_scored"


def new_token() -> str:
    """An unguessable URL-safe token (about 190 bits) for a captain's link."""
    return secrets.token_urlsafe(24)


def new_pin() -> str:
    """A 4-digit PIN the captain may type instead of scanning the QR code."""
    return f"{secrets.randbelow(10_000):04d}"


class Tournament(models.Model):
    class Kind(models.TextChoices):
        PAIRS = "pairs", _("A coppie")
        INDIVIDUAL = "individual", _("Individuale")
        TEAMS = "teams", _("A squadre")

    class RuleSet(models.TextChoices):
        FIBUR = "fibur", _("FIBUR (pulito, sporco)")
        FGB = "fgb", _("FGB (anche semipulito, reale, super)")

    class RematchWindow(models.TextChoices):
        ALL = "all", _("Nessuna rivincita con avversari già incontrati")
        PREVIOUS = "previous", _("Solo non con l'avversario del turno precedente")
        NONE = "none", _("Rivincite ammesse")

    class FirstRound(models.TextChoices):
        NUMBER = "number", _("Per numero di coppia")
        LOT = "lot", _("Per sorteggio")
        HAND = "hand", _("A mano")

    class GroupSplit(models.TextChoices):
        """How the arbiter split the pairs into groups (rules.md §14; issue 15)."""
        LOT = "lot", _("Per sorteggio")
        SNAKE = "snake", _("Per numero a serpentina")
        HAND = "hand", _("A mano")

    class TeamResult(models.TextChoices):
        """How a team match is scored (rules.md §15; issue 15)."""
        SUM = "sum", _("Somma dei VP dei due tavoli (0–40)")
        MARGIN = "margin", _("Scarto MP sommato, tabella a squadre")

    class ByeMP(models.TextChoices):
        ZERO = "zero", _("Nessun MP")
        BAND_LOWER_EDGE = "band_lower_edge", _("Limite inferiore della fascia")

    name = models.CharField(_("nome"), max_length=200)
    slug = models.SlugField(_("sigla"), max_length=80, unique=True)
    date = models.DateField(_("data"))
    venue = models.CharField(_("sede"), max_length=200, blank=True)
    kind = models.CharField(_("tipo"), max_length=12, choices=Kind.choices, default=Kind.PAIRS)
    hands_per_round = models.PositiveSmallIntegerField(_("smazzate per turno"), default=4)
    vp_scale = models.CharField(_("tabella VP"), max_length=60, default="vp20-4h")
    plan = models.CharField(
        _("piano dei turni"),
        max_length=40,
        default="MMMD",
        help_text=_("Una lettera per turno: M = Mitchell, D = danese, R = girone all'italiana "
                    "(es. MMMD, RRRRR)."),
    )
    mitchell_step = models.PositiveSmallIntegerField(_("salto Mitchell"), default=1)
    rematch_window = models.CharField(
        _("rivincite"), max_length=10, choices=RematchWindow.choices, default=RematchWindow.ALL
    )
    bye_percent = models.DecimalField(
        _("riposo: % dei VP massimi"), max_digits=5, decimal_places=2, default=Decimal("70")
    )
    bye_mp = models.CharField(
        _("riposo: MP accreditati"), max_length=20, choices=ByeMP.choices, default=ByeMP.ZERO
    )
    tiebreaks = models.CharField(_("spareggi"), max_length=120, default=DEFAULT_TIEBREAKS)
    rule_set = models.CharField(
        _("regolamento"), max_length=10, choices=RuleSet.choices, default=RuleSet.FIBUR
    )
    first_round = models.CharField(
        _("primo turno"), max_length=10, choices=FirstRound.choices, default=FirstRound.NUMBER
    )
    mitchell_order = models.JSONField(
        default=list,
        blank=True,
        help_text="Pair numbers in Mitchell movement order, fixed when the first Mitchell round is drawn.",
    )
    # Issue 12 item 2: minutes of a round's clock; blank = 10 × hands + 2 (tournaments.clock).
    minutes_per_round = models.PositiveSmallIntegerField(
        _("minuti per turno"), null=True, blank=True,
        help_text=_("Vuoto = 10 minuti a smazzata + 2 (22/32/42 per 2/3/4 smazzate); "
                    "es. 35 per «3 smazzate in 35 minuti»."),
    )
    # Issue 15 item 1: groups (gironi) of the round-robin rounds; 1 = the whole field.
    groups = models.PositiveSmallIntegerField(_("gironi"), default=1)
    group_split = models.CharField(_("divisione in gironi"), max_length=10,
                                   choices=GroupSplit.choices, blank=True, default="")
    group_seed = models.BigIntegerField(_("seme del sorteggio dei gironi"), null=True, blank=True)
    # Issue 15 items 2-6: team tournaments (rules.md §15), every number a setting.
    team_result = models.CharField(_("risultato dell'incontro a squadre"), max_length=10,
                                   choices=TeamResult.choices, default=TeamResult.SUM)
    team_scale = models.CharField(_("tabella VP a squadre"), max_length=60, blank=True, default="")
    team_min_players = models.PositiveSmallIntegerField(_("giocatori per squadra: minimo"), default=4)
    team_max_players = models.PositiveSmallIntegerField(_("giocatori per squadra: massimo"), default=6)
    public_enabled = models.BooleanField(_("pagina pubblica attiva"), default=False)
    projector_enabled = models.BooleanField(_("vista proiettore attiva"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Who directs this tournament (issue 10 item 4): the creator and the co-directors he
    # adds. Other arbiters get 404 on every page of it; superusers see every tournament.
    arbiters = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="directed_tournaments", verbose_name=_("arbitri")
    )

    class Meta:
        ordering = ["-date", "-created_at"]
        verbose_name = _("torneo")
        verbose_name_plural = _("tornei")
        constraints = [
            models.CheckConstraint(condition=Q(hands_per_round__gte=1), name="tournament_hands_positive"),
            models.CheckConstraint(
                condition=Q(bye_percent__gte=0) & Q(bye_percent__lte=100), name="tournament_bye_percent_range"
            ),
            models.CheckConstraint(condition=Q(mitchell_step__gte=1), name="tournament_step_positive"),
            models.CheckConstraint(condition=Q(groups__gte=1), name="tournament_groups_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def tiebreak_order(self) -> tuple[str, ...]:
        return tuple(k.strip() for k in self.tiebreaks.split(",") if k.strip())

    def planned_rounds(self) -> list:
        """The plan's rounds (:class:`pairing.plan.PlannedRound`: number, system M/D,
        session), ``|`` splitting sessions (issue 12 item 1); [] for a malformed plan."""
        try:
            return parse_plan(self.plan)
        except PlanError:
            return []

    def system_of_round(self, number: int) -> str:
        """'mitchell', 'danish' or 'round-robin' (R, rules.md §14) for round ``number`` (1-based;
        ``|`` is not a round: in ``MMD|DD`` round 4 is Danish); Danish beyond the plan. Individual
        (rules.md §9): ``D`` 'danish-individual', ``M`` 'individual-movement'."""
        planned = self.planned_rounds()
        letter = planned[number - 1].system if 0 < number <= len(planned) else "D"
        if self.is_individual:
            return Round.System.INDIVIDUAL_MOVEMENT if letter == "M" else Round.System.DANISH_INDIVIDUAL
        return {"M": Round.System.MITCHELL, "R": Round.System.ROUND_ROBIN}.get(
            letter, Round.System.DANISH)

    @property
    def is_individual(self) -> bool:
        return self.kind == self.Kind.INDIVIDUAL

    @property
    def is_teams(self) -> bool:
        return self.kind == self.Kind.TEAMS

    def session_of_round(self, number: int) -> int:
        """The session (1-based) of round ``number``: ``MMD|DD`` → rounds 1–3 session 1,
        rounds 4–5 session 2; a round beyond the plan belongs to the last session."""
        planned = self.planned_rounds()
        if not planned:
            return 1
        return planned[min(max(number, 1), len(planned)) - 1].session

    def session_start(self, number: int) -> int:
        """The first round number of the session of round ``number`` (rules.md §5: the
        rest rule counts rests from that round on)."""
        session = self.session_of_round(number)
        return next((r.number for r in self.planned_rounds() if r.session == session), 1)

    @property
    def sessions_planned(self) -> int:
        planned = self.planned_rounds()
        return planned[-1].session if planned else 1

    @property
    def rounds_planned(self) -> int:
        """Rounds in the plan (``|`` is not a round: ``MMD|DD`` → 5)."""
        return len(self.planned_rounds())


class CustomScale(models.Model):
    """A VP scale defined by the arbiter (rules.md §4), stored in vp_scales.json shape."""

    scale_id = models.SlugField(_("codice"), max_length=60, unique=True)
    name = models.CharField(_("nome"), max_length=120)
    data = models.JSONField(_("fasce"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("tabella VP personalizzata")
        verbose_name_plural = _("tabelle VP personalizzate")

    def __str__(self) -> str:
        return self.name


class Pair(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("In gara")
        WITHDRAWN = "withdrawn", _("Ritirata")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairs")
    number = models.PositiveIntegerField(_("numero"))
    # Issue 11: a line at a table is a Pair. A registered pair has no round; in an
    # individual tournament each round's partnerships are Pairs formed for that round,
    # their players linked by LineMember (one player only for a rest).
    round = models.ForeignKey("Round", null=True, blank=True, on_delete=models.CASCADE,
                              related_name="formed_pairs")
    status = models.CharField(_("stato"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    withdrawn_from_round = models.PositiveSmallIntegerField(_("ritirata dal turno"), null=True, blank=True)
    late_entry = models.BooleanField(_("iscrizione tardiva"), default=False)
    # Issue 15 item 1: the pair's group (girone) for round-robin rounds, 1..groups; null when
    # the field is not split.
    group = models.PositiveSmallIntegerField(_("girone"), null=True, blank=True)
    # Issue 15: in a team tournament a line is a pair the team fields for one match (``round``
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
        """A partnership formed for one round of an individual tournament (issue 11)."""
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
        'Rossi + Bianchi' (issue 11)."""
        joiner = " + " if self.round_id is not None else " – "
        names = joiner.join(p.last_name for p in self.players)
        return f"{self.team.name}: {names}" if self.team_id is not None else names  # issue 15

    @property
    def full_name(self) -> str:
        joiner = " + " if self.round_id is not None else " – "
        return joiner.join(p.display_name for p in self.players)

    @property
    def display_number(self) -> str:
        """The number shown for a line: the pair number, or for a formed partnership its
        players' numbers, '3+7' (its own pair number is internal, issue 11); a team's pair
        '3A' / '3B' (team 3, first or second pair; issue 15)."""
        if self.team_id is not None:
            return f"{self.team.number}{'AB'[(self.team_line or 1) - 1]}"
        if self.round_id is not None:
            return "+".join(str(p.number) for p in self.players)
        return str(self.number)

    @property
    def label(self) -> str:
        """'4 Rossi – Bianchi' for a registered pair, '3 Rossi + 7 Bianchi' for a formed
        partnership (players by number and surname, issue 11)."""
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
    # Individual tournaments (issue 11, rules.md §9): the player's number, his status and
    # the round from which he no longer plays (withdrawals per player); late entry in round 1.
    number = models.PositiveIntegerField(_("numero"), null=True, blank=True)
    status = models.CharField(_("stato"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    withdrawn_from_round = models.PositiveSmallIntegerField(_("ritirato dal turno"), null=True, blank=True)
    late_entry = models.BooleanField(_("iscrizione tardiva"), default=False)
    # Issue 15: the player's team in a team tournament (rules.md §15: 4 to 6 players).
    team = models.ForeignKey("Team", null=True, blank=True, on_delete=models.CASCADE, related_name="members")

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
        """The surname (pages that show a pair's ``name`` show a player's, issue 11)."""
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


class Round(models.Model):
    class System(models.TextChoices):
        MITCHELL = "mitchell", _("Mitchell")
        DANISH = "danish", _("Danese")
        DANISH_INDIVIDUAL = "danish-individual", _("Danese individuale")
        INDIVIDUAL_MOVEMENT = "individual-movement", _("Movimento individuale")
        ROUND_ROBIN = "round-robin", _("Girone all'italiana")

    class State(models.TextChoices):
        DRAFT = "draft", _("Bozza")
        PUBLISHED = "published", _("Pubblicato")
        CLOSED = "closed", _("Chiuso")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("turno"))
    system = models.CharField(_("sistema"), max_length=20, choices=System.choices)
    state = models.CharField(_("stato"), max_length=10, choices=State.choices, default=State.DRAFT)
    step = models.PositiveSmallIntegerField(_("salto"), default=1)
    seed = models.BigIntegerField(_("seme del sorteggio"), null=True, blank=True)
    pairing_request = models.JSONField(default=dict, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    explanations = models.JSONField(default=list, blank=True)
    check_report = models.JSONField(default=list, blank=True)  # items: {"code", "params", "text"} or text
    drawn_from = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the draft was computed from (rules.md §12): the settings that affect "
        "pairing, the standings it ranked, the pairing request, and the state digest of the "
        "generate form that asked for it. Compared with the same values now to tell an "
        "outdated draft.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # The round clock (issue 12 item 2), stored as instants (tournaments.clock.ClockState):
    # seconds of the round, start, running pause, seconds of ended pauses, seconds added.
    clock_duration = models.PositiveIntegerField(default=0)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_paused_at = models.DateTimeField(null=True, blank=True)
    clock_paused_seconds = models.PositiveIntegerField(default=0)
    clock_added_seconds = models.IntegerField(default=0)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("turno")
        verbose_name_plural = _("turni")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique_in_tournament"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    @property
    def check_messages(self) -> list[str]:
        """The checker's report in the reader's language (issue 14 item 8)."""
        from .i18n_messages import stored_text

        return [stored_text(item) for item in self.check_report or []]

    def __str__(self) -> str:
        return f"{self.tournament} – turno {self.number}"


class Table(models.Model):
    """A table of a round. A rest (*riposo*) is a table with one seat only (``bye``)."""

    class Bye(models.TextChoices):
        NONE = "", _("—")
        REST = "rest", _("Riposo")
        FORCED = "forced", _("Riposo forzato")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("tavolo"))
    bye = models.CharField(_("riposo"), max_length=6, choices=Bye.choices, default=Bye.NONE, blank=True)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    pin = models.CharField(max_length=4, default=new_pin)
    # Extra seconds of the round clock for this table only (a late start, issue 12 item 2).
    clock_extra_seconds = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("tavolo")
        verbose_name_plural = _("tavoli")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique_in_round"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"T{self.number}"

    def _seat(self, line: str) -> "Pair | None":
        for seat in self.seats.all():
            if seat.line == line:
                return seat.pair
        return None

    @property
    def ns(self) -> "Pair | None":
        return self._seat(Seat.Line.NS)

    @property
    def ew(self) -> "Pair | None":
        return self._seat(Seat.Line.EW)

    @property
    def is_bye(self) -> bool:
        return bool(self.bye)

    @property
    def resting_pair(self) -> "Pair | None":
        return self.ns or self.ew if self.bye else None


class Seat(models.Model):
    class Line(models.TextChoices):
        NS = "ns", _("N/S")
        EW = "ew", _("E/O")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # RESTRICT, not PROTECT: a pair with a seat cannot be deleted, except together with the
    # round that formed it (issue 11: deleting a draft deletes its formed partnerships).
    pair = models.ForeignKey(Pair, on_delete=models.RESTRICT, related_name="seats")
    line = models.CharField(max_length=2, choices=Line.choices)

    class Meta:
        ordering = ["table", "line"]
        constraints = [
            models.UniqueConstraint(fields=["round", "pair"], name="seat_pair_once_per_round"),
            models.UniqueConstraint(fields=["table", "line"], name="seat_one_pair_per_line"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.line} {self.pair_id}"


class LineMember(models.Model):
    """A player of an individual tournament on a line formed for one round (issue 11,
    rules.md §9): ``pair`` is the partnership (a ``Pair`` with ``round`` set), ``seat`` 1 or 2.
    ``(round, player)`` is unique: a player sits at most once per round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="line_members")
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="line_members")
    # RESTRICT: a player who sat cannot be deleted, except with his tournament (issue 15).
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


class CorrectionKind(models.TextChoices):
    """The kind of a correction to a score sheet (rules.md §3, seed code art. 31).

    Chosen by the arbiter and kept in the audit entry (``AuditEntry.new["kind"]``);
    the kind decides until when the correction is allowed
    (:func:`tournaments.services.sheets.correction_refusal`). Not a database field.
    """

    TRANSCRIPTION = "transcription", _("trascrizione")
    SUM_ERROR = "sum_error", _("errore di somma")
    SWAPPED_LINES = "swapped_lines", _("linee invertite")
    ARBITRAL = "arbitral", _("punteggio arbitrale")


class ScoreSheet(models.Model):
    """The score sheet (*score*) of one table in one round (rules.md §3).

    Totals, difference and VP are derived by ``scoring.sheets.sheet_totals`` and
    stored here only so standings read one row per table.
    """

    class State(models.TextChoices):
        EMPTY = "empty", _("Da inserire")
        ENTERED = "entered", _("Inserito")
        CONFIRMED = "confirmed", _("Confermato")
        DISPUTED = "disputed", _("Contestato")
        VALIDATED = "validated", _("Validato")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="sheet")
    state = models.CharField(max_length=10, choices=State.choices, default=State.EMPTY)
    declared_ns = models.IntegerField(null=True, blank=True)
    declared_ew = models.IntegerField(null=True, blank=True)
    mp_ns = models.IntegerField(default=0)
    mp_ew = models.IntegerField(default=0)
    vp_ns = models.DecimalField(max_digits=6, decimal_places=2, default=Decimal("0"))
    vp_ew = models.DecimalField(max_digits=6, decimal_places=2, default=Decimal("0"))
    sum_error = models.BooleanField(default=False)
    arbitral = models.BooleanField(_("punteggio arbitrale"), default=False)
    arbitral_note = models.CharField(max_length=200, blank=True)
    version = models.PositiveIntegerField(default=0)
    content_hash = models.CharField(max_length=64, blank=True)
    entered_by = models.CharField(max_length=60, blank=True)
    entered_by_captain = models.BooleanField(default=False)
    confirmed_by = models.CharField(max_length=60, blank=True)
    dispute_note = models.CharField(max_length=300, blank=True)
    # Issue 10 item 5: which browser entered and which confirmed (device cookie id, 32 hex, or
    # ""; a 16-hex hash of the User-Agent). Only a hint on the board, never a refusal.
    entry_device = models.CharField(max_length=32, blank=True)
    entry_agent = models.CharField(max_length=16, blank=True)
    confirm_device = models.CharField(max_length=32, blank=True)
    confirm_agent = models.CharField(max_length=16, blank=True)
    # Issue 12 item 4: the table's remaining clock seconds when the sheet was last entered
    # (negative: after time was up); None when the clock was not started.
    entered_clock_seconds = models.IntegerField(null=True, blank=True)
    # Issue 14 item 4: the arbiter's unfinished grid of a sheet still empty, as typed
    # ({"cells": {"h1_ns": "150", ...}, "parts": bool}); None when there is none. Not counted
    # anywhere (the sheet stays empty), blocks closing the round, and captains get a 409.
    draft = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("score")
        verbose_name_plural = _("score")

    def __str__(self) -> str:
        return f"score {self.table}"

    @property
    def is_filled(self) -> bool:
        return self.state != self.State.EMPTY

    @property
    def is_draft(self) -> bool:
        """True while the arbiter's incomplete draft is stored (issue 14 item 4)."""
        return self.draft is not None


class HandRow(models.Model):
    """One hand (*smazzata*) of a score sheet: per line the base, the cards and the total."""

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    ns_base = models.IntegerField(null=True, blank=True)
    ns_cards = models.IntegerField(null=True, blank=True)
    ns_score = models.IntegerField()
    ew_base = models.IntegerField(null=True, blank=True)
    ew_cards = models.IntegerField(null=True, blank=True)
    ew_score = models.IntegerField()

    class Meta:
        ordering = ["sheet", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="hand_number_unique_in_sheet"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.sheet} h{self.number}"


class Penalty(models.Model):
    """VP or MP taken off a pair in the overall standings (rules.md §3, art. 23: "1 V.P. o
    equivalente"). Exactly one kind per penalty: ``vp`` > 0 and ``mp`` = 0, or ``mp`` > 0
    and ``vp`` = 0. An MP penalty lowers the pair's MP difference and MP scored, never the
    table's result. ``round_number``: the round it belongs to, fixed when it is given
    (``services.add_penalty``); NULL only on penalties stored before that rule, counted
    from round 1."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    pair = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.CASCADE, related_name="penalties")
    # Individual tournaments (issue 11): the penalised player instead of a pair.
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="penalties")
    round_number = models.PositiveSmallIntegerField(_("turno"), null=True, blank=True)
    vp = models.DecimalField(_("VP"), max_digits=6, decimal_places=2, default=0)
    mp = models.PositiveIntegerField(_("MP"), default=0)
    reason = models.CharField(_("motivo"), max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "created_at"]
        verbose_name = _("penalità")
        verbose_name_plural = _("penalità")
        constraints = [
            models.CheckConstraint(
                condition=(Q(vp__gt=0) & Q(mp=0)) | (Q(vp=0) & Q(mp__gt=0)),
                name="penalty_vp_or_mp",
            ),
            models.CheckConstraint(
                condition=(Q(pair__isnull=False) & Q(player__isnull=True))
                | (Q(pair__isnull=True) & Q(player__isnull=False)),
                name="penalty_pair_or_player",
            ),
        ]

    def __str__(self) -> str:
        amount = f"{self.mp} MP" if self.mp else f"{self.vp} VP"
        return f"-{amount} {self.pair or self.player}"


class PinGuard(models.Model):
    """Wrong PINs typed on a tournament's PIN page (issue 10 items 2–3), kept in the database so
    that several server processes share the count.

    One row per table that received a wrong PIN (``table`` set; it locks PIN entry at
    ``tournaments.services.pins.TABLE_MAX_WRONG`` wrong tries until the arbiter unlocks it) and
    one row per tournament (``table`` empty; it counts every wrong PIN in a window of
    ``TOURNAMENT_WINDOW`` and locks the PIN page to the window's end at ``TOURNAMENT_MAX_WRONG``).
    Written only by ``tournaments.services.pins``.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pin_guards")
    table = models.OneToOneField(Table, null=True, blank=True, on_delete=models.CASCADE, related_name="pin_guard")
    wrong = models.PositiveIntegerField(default=0)
    window_start = models.DateTimeField(null=True, blank=True)
    locked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament"], condition=Q(table__isnull=True),
                                    name="pin_guard_one_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"PIN {self.tournament_id} {self.table or '*'}: {self.wrong}"


class AuditEntry(models.Model):
    """Who changed what, when, from which value to which, and why."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor = models.CharField(max_length=80)
    # Issue 14 item 8: who, in machine form, so the label follows the reader's language
    # (templatetags/audit.py ``audit_actor``): "captain" {"line": "ns", "table": 5},
    # "arbiter" {"name": "rossi"}, "system" {}; "" = only the stored text ``actor``.
    actor_code = models.CharField(max_length=20, blank=True, default="")
    actor_params = models.JSONField(null=True, blank=True)
    action = models.CharField(max_length=40)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("voce di registro")
        verbose_name_plural = _("registro delle modifiche")

    def __str__(self) -> str:
        return f"{self.at:%H:%M} {self.actor} {self.action}"


from .team_models import LineUp, Match, Team  # noqa: E402,F401  (issue 15: team tournaments)
