"""Penalties (rules.md §8), wrong-PIN guards (against guessing a table's PIN) and the audit trail."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .entrants import Pair, Player
from .rounds import Table
from .tournament import Tournament


class Penalty(models.Model):
    """VP or MP taken off a pair in the overall standings (rules.md §3, art. 23: "1 V.P. o
    equivalente"); in an individual tournament off a player (rules.md §9), in a team
    tournament off a team (rules.md §15): exactly one of ``pair``, ``player``, ``team``.
    Exactly one kind per penalty: ``vp`` > 0 and ``mp`` = 0, or ``mp`` > 0 and ``vp`` = 0.
    An MP penalty lowers the pair's MP difference and MP scored (a team's match margin),
    never the table's result. ``round_number``: the round it belongs to, fixed when it is
    given (``services.add_penalty``); NULL only on penalties stored before that rule,
    counted from round 1."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    pair = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.CASCADE, related_name="penalties")
    # Individual tournaments (rules.md §9): the penalised player instead of a pair.
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="penalties")
    # Team tournaments (rules.md §15): the penalised team instead of a pair or a player.
    team = models.ForeignKey("Team", null=True, blank=True, on_delete=models.CASCADE, related_name="penalties")
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
            models.CheckConstraint(  # exactly one of pair / player (§9) / team (§15)
                condition=(Q(pair__isnull=False) & Q(player__isnull=True) & Q(team__isnull=True))
                | (Q(pair__isnull=True) & Q(player__isnull=False) & Q(team__isnull=True))
                | (Q(pair__isnull=True) & Q(player__isnull=True) & Q(team__isnull=False)),
                name="penalty_pair_player_or_team",
            ),
        ]

    def __str__(self) -> str:
        amount = f"{self.mp} MP" if self.mp else f"{self.vp} VP"
        return f"-{amount} {self.pair or self.player or self.team}"


class PinGuard(models.Model):
    """Wrong PINs typed on a tournament's PIN page, kept in the database so
    that several server processes share the count.

    One row per table that received a wrong PIN (``table`` set; it locks PIN entry at
    ``tournaments.captains.pins.TABLE_MAX_WRONG`` wrong tries until the arbiter unlocks it) and
    one row per tournament (``table`` empty; it counts every wrong PIN in a window of
    ``TOURNAMENT_WINDOW`` and locks the PIN page to the window's end at ``TOURNAMENT_MAX_WRONG``).
    Written only by ``tournaments.captains.pins``.
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


class AuditAction(models.TextChoices):
    """What an audit entry records (``AuditEntry.action``): the value is the code stored, the
    label what the Registro shows (``templatetags.audit.audit_action``); its filters group
    the codes (``pages.audit.ACTION_KINDS``). The values are the codes entries were always
    stored with: never rename one (stored trails and exported files carry them)."""

    TOURNAMENT_CREATED = "tournament_created", _("Torneo creato")
    TOURNAMENT_UPDATED = "tournament_updated", _("Impostazioni modificate")
    PAIR_ADDED = "pair_added", _("Coppia aggiunta")
    PAIR_UPDATED = "pair_updated", _("Coppia modificata")
    PAIR_REMOVED = "pair_removed", _("Coppia cancellata")
    REGISTRATIONS_IMPORTED = "registrations_imported", _("Iscrizioni importate")
    ROUND_GENERATED = "round_generated", _("Turno generato")
    ROUND_REDRAWN = "round_redrawn", _("Bozza ridisegnata (era superata)")
    DRAFT_SWAP = "draft_swap", _("Bozza modificata a mano")
    IDLE_PAIRS_SEATED = "idle_pairs_seated", _("Coppie a riposo fatte giocare insieme")
    ROUND_PUBLISHED = "round_published", _("Turno pubblicato")
    ROUND_CLOSED = "round_closed", _("Turno chiuso")
    ROUND_REOPENED = "round_reopened", _("Turno riaperto")
    SHEET_SAVED = "sheet_saved", _("Score inserito")
    SHEET_CORRECTED = "sheet_corrected", _("Score corretto")
    SHEET_CONFIRMED = "sheet_confirmed", _("Score confermato")
    SHEET_DISPUTED = "sheet_disputed", _("Score contestato")
    SHEET_VALIDATED = "sheet_validated", _("Score validato")
    SHEET_VALIDATED_UNCONFIRMED = "sheet_validated_unconfirmed", _("Score validato senza la conferma dell'altra linea")
    SHEET_DRAFT_SAVED = "sheet_draft_saved", _("Bozza di score salvata (incompleta)")
    SHEET_DRAFT_DISCARDED = "sheet_draft_discarded", _("Bozza di score scartata")
    SHEET_UNVALIDATED = "sheet_unvalidated", _("Validazione annullata")
    SHEET_LINES_SWAPPED = "sheet_lines_swapped", _("Linee invertite")
    ARBITRAL_SCORE = "arbitral_score", _("Punteggio arbitrale")
    PAIR_WITHDRAWN = "pair_withdrawn", _("Coppia ritirata")
    LATE_PAIR_ADDED = "late_pair_added", _("Coppia tardiva")
    PENALTY_ADDED = "penalty_added", _("Penalità assegnata")
    PENALTY_REMOVED = "penalty_removed", _("Penalità tolta")
    # individual tournaments (rules.md §9)
    PLAYER_ADDED = "player_added", _("Giocatore aggiunto")
    PLAYER_REMOVED = "player_removed", _("Giocatore cancellato")
    PLAYER_WITHDRAWN = "player_withdrawn", _("Giocatore ritirato")
    LATE_PLAYER_ADDED = "late_player_added", _("Giocatore tardivo")
    GROUPS_SPLIT = "groups_split", _("Coppie divise nei gironi")
    # the round clock (rules.md §11; the audit trail records clock actions)
    CLOCK_STARTED = "clock_started", _("Orologio del turno avviato")
    CLOCK_PAUSED = "clock_paused", _("Orologio del turno in pausa")
    CLOCK_RESUMED = "clock_resumed", _("Orologio del turno ripartito")
    CLOCK_MINUTES_ADDED = "clock_minutes_added", _("Minuti dati a tutta la sala")
    CLOCK_TABLE_EXTRA = "clock_table_extra", _("Tempo in più a un tavolo")
    # the rest of the codes the services write (new-user trial: no raw code on the page;
    # tests/tournaments/test_audit_readable.py scans the source for codes without a label)
    TOURNAMENT_IMPORTED = "tournament_imported", _("Torneo importato da file")
    ARBITER_ADDED = "arbiter_added", _("Arbitro aggiunto")
    DRAFT_BY_HAND = "draft_by_hand", _("Tavoli del turno 1 scritti a mano")
    PIN_TOURNAMENT_LOCKED = "pin_tournament_locked", _("Pagina del PIN bloccata (troppi PIN errati)")
    PIN_TABLE_LOCKED = "pin_table_locked", _("PIN del tavolo bloccato (troppi PIN errati)")
    PIN_TABLE_UNLOCKED = "pin_table_unlocked", _("PIN del tavolo sbloccato")
    PIN_TOURNAMENT_UNLOCKED = "pin_tournament_unlocked", _("Pagina del PIN sbloccata")
    TEAM_ADDED = "team_added", _("Squadra aggiunta")
    TEAM_CAPTAIN = "team_captain", _("Capitano della squadra scelto")
    LINEUP_SET = "lineup_set", _("Formazione della squadra")
    TEAM_WITHDRAWN = "team_withdrawn", _("Squadra ritirata")
    MATCH_FORFEIT = "match_forfeit", _("Forfait in un incontro")
    MATCH_FORFEIT_UNDONE = "match_forfeit_undone", _("Forfait annullato")
    TEAM_WITHDRAWAL_UNDONE = "team_withdrawal_undone", _("Ritiro della squadra annullato")
    PAIR_WITHDRAWAL_UNDONE = "pair_withdrawal_undone", _("Ritiro della coppia annullato")
    PLAYER_WITHDRAWAL_UNDONE = "player_withdrawal_undone", _("Ritiro del giocatore annullato")
    LATE_TEAM_ADDED = "late_team_added", _("Squadra tardiva")
    PRIZE_LIST = "prize_list", _("Elenco dei premi modificato")
    LATENESS = "lateness", _("Ritardo")  # rules.md §22
    LATENESS_UNDONE = "lateness_undone", _("Ritardo annullato")
    FEES_SET = "fees_set", _("Quote e montepremi")  # the money of rules.md §21
    FEE_PAID = "fee_paid", _("Quota pagata")
    FEE_WAIVED = "fee_waived", _("Quota esonerata")
    FEE_CANCELLED = "fee_cancelled", _("Quota annullata")
    FEE_REFUND = "fee_refund", _("Rimborso")
    CHAMPIONSHIP_ADDED = "championship_added", _("Torneo messo in un campionato")
    CHAMPIONSHIP_REMOVED = "championship_removed", _("Torneo tolto da un campionato")
    SIMULTANEOUS_JOINED = "simultaneous_joined", _("Torneo messo in una serata simultanea")
    ARBITER_CALLED = "arbiter_called", _("Un tavolo chiama l'arbitro")
    ARBITER_CALL_TAKEN = "arbiter_call_taken", _("Chiamata presa: l'arbitro arriva")
    ARBITER_CALL_RESOLVED = "arbiter_call_resolved", _("Chiamata risolta")


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
    # Who, in machine form, so the label follows the reader's language
    # (templatetags/audit.py ``audit_actor``): "captain" {"line": "ns", "table": 5},
    # "arbiter" {"name": "rossi"}, "system" {}; "" = only the stored text ``actor``.
    actor_code = models.CharField(max_length=20, blank=True, default="")
    actor_params = models.JSONField(null=True, blank=True)
    action = models.CharField(max_length=40)  # an AuditAction value
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("voce di registro")
        verbose_name_plural = _("registro delle modifiche")

    def __str__(self) -> str:
        return f"{self.at:%H:%M} {self.actor} {self.action}"


class ResultsDownload(models.Model):
    """The first download of a tournament's results file for the federation
    (``printing.federation``): who and when. The federation's deadline (rules.md §20: results
    within 10 days of the evening) lists the closed tournaments without one. One row per
    tournament: later downloads leave it as it is."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="results_download")
    downloaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    downloaded_at = models.DateTimeField(_("scaricato il"))
    file_format = models.CharField(_("formato"), max_length=4)

    class Meta:
        verbose_name = _("scaricamento dei risultati")
        verbose_name_plural = _("scaricamenti dei risultati")

    def __str__(self) -> str:
        return f"{self.tournament} · {self.downloaded_at:%Y-%m-%d %H:%M}"
