"""The tournament and its settings, and the custom VP scales (rules.md §1, §4, §8)."""
from __future__ import annotations

import secrets
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, default_club_id
from pairing.plan import PlanError, parse_plan

DEFAULT_TIEBREAKS = "vp,mp_difference,head_to_head,mp_scored"


def new_token() -> str:
    """An unguessable URL-safe token (about 190 bits) for a captain's link."""
    return secrets.token_urlsafe(24)


def new_pin() -> str:
    """A 4-digit PIN the captain may type instead of scanning the QR code."""
    return f"{secrets.randbelow(10_000):04d}"


class RoundSystem(models.TextChoices):
    """How a round is paired (``Round.system``; the plan's letters, rules.md §6, §7, §9, §14)."""

    MITCHELL = "mitchell", _("Mitchell")
    DANISH = "danish", _("Danese")
    DANISH_INDIVIDUAL = "danish-individual", _("Danese individuale")
    INDIVIDUAL_MOVEMENT = "individual-movement", _("Movimento individuale")
    ROUND_ROBIN = "round-robin", _("Girone all'italiana")


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
        """How the arbiter split the pairs into groups (rules.md §14)."""
        LOT = "lot", _("Per sorteggio")
        SNAKE = "snake", _("Per numero a serpentina")
        HAND = "hand", _("A mano")

    class TeamResult(models.TextChoices):
        """How a team match is scored (rules.md §15)."""
        SUM = "sum", _("Somma dei VP dei due tavoli (0–40)")
        MARGIN = "margin", _("Scarto MP sommato, tabella a squadre")

    class MembershipCheck(models.TextChoices):
        """What registration does with an unknown or expired membership number, and (its own
        setting, :attr:`Tournament.missing_membership`) with a player without one (rules.md §16)."""
        FLAG = "flag", _("Segnala (l'arbitro decide)")
        REFUSE = "refuse", _("Rifiuta l'iscrizione")
        IGNORE = "ignore", _("Ignora")

    class ByeMP(models.TextChoices):
        ZERO = "zero", _("Nessun MP")
        BAND_LOWER_EDGE = "band_lower_edge", _("Limite inferiore della fascia")

    name = models.CharField(_("nome"), max_length=200)
    slug = models.SlugField(_("indirizzo breve"), max_length=80, unique=True)
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
    # Modified Danish (rules.md §7): "non con l'avversario del turno precedente, tranne che
    # nell'ultimo turno" – lifts the rematch rule in the plan's last round (pairs and teams).
    last_round_rematches = models.BooleanField(
        _("ultimo turno: rivincite ammesse"), default=False,
        help_text=_("Solo per il danese a coppie e a squadre: nell'ultimo turno del piano due avversari "
                    "già incontrati possono rigiocare (danese modificato, regole §7)."))
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
    # rules.md §11: minutes of a round's clock; blank = 10 × hands + 2 (tournaments.clock).
    minutes_per_round = models.PositiveSmallIntegerField(
        _("minuti per turno"), null=True, blank=True,
        help_text=_("Vuoto = 10 minuti a smazzata + 2 (22/32/42 per 2/3/4 smazzate); "
                    "es. 35 per «3 smazzate in 35 minuti»."),
    )
    # rules.md §14: groups (gironi) of the round-robin rounds; 1 = the whole field.
    groups = models.PositiveSmallIntegerField(_("gironi"), default=1)
    group_split = models.CharField(_("divisione in gironi"), max_length=10,
                                   choices=GroupSplit.choices, blank=True, default="")
    group_seed = models.BigIntegerField(_("seme del sorteggio dei gironi"), null=True, blank=True)
    # Team tournaments (rules.md §15), every number a setting.
    team_result = models.CharField(_("risultato dell'incontro a squadre"), max_length=10,
                                   choices=TeamResult.choices, default=TeamResult.SUM)
    team_scale = models.CharField(_("tabella VP a squadre"), max_length=60, blank=True, default="")
    team_min_players = models.PositiveSmallIntegerField(_("giocatori per squadra: minimo"), default=4)
    team_max_players = models.PositiveSmallIntegerField(_("giocatori per squadra: massimo"), default=6)
    # rules.md §18: the prize list, ordered, [{"prize": "1° assoluto", "scope": "overall" |
    # "group:2" | "category:Dame"}, …] (validated by services.set_prize_list), and whether an
    # entrant may win several prizes (default not: "i premi non sono cumulabili").
    prize_list = models.JSONField(_("premi"), default=list, blank=True)
    prizes_cumulative = models.BooleanField(_("premi cumulabili"), default=False)
    # The federation's results file: who organised the evening and who directed it.
    organising_club = models.CharField(_("circolo organizzatore"), max_length=120, blank=True, default="")
    arbiter_name = models.CharField(_("nome dell'arbitro"), max_length=120, blank=True, default="")
    # rules.md §16: unknown or expired membership numbers at registration.
    membership_check = models.CharField(_("controllo delle tessere"), max_length=8,
                                        choices=MembershipCheck.choices, default=MembershipCheck.FLAG)
    # A player registered without a membership number (a guest), once a member list was
    # imported (the club checks memberships, §16): a setting of its own, so a club can refuse
    # unknown numbers and still welcome guests.
    missing_membership = models.CharField(_("giocatori senza tessera"), max_length=8,
                                          choices=MembershipCheck.choices, default=MembershipCheck.FLAG)
    public_enabled = models.BooleanField(_("pagina pubblica attiva"), default=False)
    projector_enabled = models.BooleanField(_("vista proiettore attiva"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # The club that owns the tournament (rules.md §20): its print jobs and backups are files
    # of the tournament and belong to the club through it.
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments", default=default_club_id,
                             verbose_name=_("circolo"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Who directs this tournament: the creator and the co-directors he
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
        session), ``|`` splitting sessions (rules.md §11); [] for a malformed plan."""
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
            return RoundSystem.INDIVIDUAL_MOVEMENT if letter == "M" else RoundSystem.DANISH_INDIVIDUAL
        return {"M": RoundSystem.MITCHELL, "R": RoundSystem.ROUND_ROBIN}.get(
            letter, RoundSystem.DANISH)

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
    # the club that made the scale (rules.md §20); its code stays unique on the server
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="vp_scales", default=default_club_id,
                             verbose_name=_("circolo"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("tabella VP personalizzata")
        verbose_name_plural = _("tabelle VP personalizzate")

    def __str__(self) -> str:
        return self.name

