"""Lateness (*ritardo*, rules.md §22) as one action from the round page, and its undo.

A pair must be seated within 5 minutes of the round's start. Beyond 5 minutes: a penalty of
``ARBITRO_LATE_PENALTY_MP`` MP (100), recorded with the existing penalty (``add_penalty``: off
the MP difference, never off the table's result). Beyond 10 minutes: the match is forfeited
as an arbitral score of the table: the present line scores ``ARBITRO_LATE_FORFEIT_PERCENT`` %
of the scale's maximum VP (70 %; ``…_4_HANDS``, 60 %, in rounds of four hands) with the MP of
the lower edge of that VP's band, as the rest does (``scoring.vp.rest_mp`` ``band_lower_edge``);
the late line ``ARBITRO_LATE_VP`` VP (6) and 0 MP, so its MP difference is minus the present
line's. (One table gives both lines opposite differences: in three-hand rounds the band of
14–6 VP starts at 355 for both; in four-hand rounds the band of 6 VP starts at 705 while 12 VP
start at 305, and the late line gets −305: the arbiter changes the forfeit if he wants −705.) The source's «6 o 8 VP … a meno che per lei
non risulti vantaggioso» is the arbiter's call: he changes the forfeit like any arbitral score.

Both are written with the reason «ritardo …» (standings, players' pages and the Registro show
it) and audited as ``lateness``; :func:`undo_lateness` takes them back until the round
closes. Pair tournaments (a pair at a table of the round in play).
"""
from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import vp as vp_rules

from .. import selectors
from ..errors import ArbiterError
from ..models import AuditEntry, Penalty, Round, ScoreSheet, Seat, Table
from .audit import _as_actor, audit
from .incidents import add_penalty, remove_penalty
from .sheets import set_arbitral_score

#: Minutes a pair may be late without consequence, and beyond which the match is forfeited.
GRACE_MINUTES, FORFEIT_MINUTES = 5, 10
#: How lateness is written in penalties, arbitral notes and the Registro (Italian, the source
#: language, as every reason the software writes).
LATE_WORD = "ritardo"


def late_values(tournament) -> dict:
    """The settings of §22 for ``tournament``: ``{"penalty_mp", "percent", "present_vp",
    "present_mp", "late_vp"}`` (VP as Decimal, MP int)."""
    scale = selectors.scale_of(tournament)
    percent = Decimal(getattr(settings, "ARBITRO_LATE_FORFEIT_PERCENT_4_HANDS", 60)
                      if tournament.hands_per_round == 4 else getattr(settings, "ARBITRO_LATE_FORFEIT_PERCENT", 70))
    return {"penalty_mp": int(getattr(settings, "ARBITRO_LATE_PENALTY_MP", 100)), "percent": percent,
            "present_vp": vp_rules.rest_vp(scale, percent),
            "present_mp": vp_rules.rest_mp(scale, "band_lower_edge", percent=percent),
            "late_vp": Decimal(getattr(settings, "ARBITRO_LATE_VP", 6))}


def _seat(rnd: Round, pair_number) -> Seat:
    try:
        number = int(str(pair_number).strip())
    except ValueError:
        number = None
    seat = (Seat.objects.select_related("table", "pair").filter(round=rnd, pair__number=number, table__bye="")
            .first())
    if seat is None:
        raise ArbiterError(_("La coppia %(n)s non gioca a un tavolo del turno %(round)s.")
                           % {"n": str(pair_number)[:12], "round": rnd.number})
    return seat


@transaction.atomic
def record_lateness(*, round: Round, pair_number, minutes, by) -> dict:
    """Pair ``pair_number`` of ``round`` (published, not closed) sat down ``minutes`` (an
    integer 1–240) after the start. Returns ``{"kind": "penalty"|"forfeit", …}``. Raises
    ``ArbiterError``: round not in play, a pair not at a table, minutes not a number or within
    the 5 minutes of grace, a lateness already recorded for the pair in the round, a forfeit on
    a table whose sheet was entered (the match was played)."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if rnd.state != Round.State.PUBLISHED:
        raise ArbiterError(_("Il ritardo si registra solo durante un turno in corso."))
    if rnd.tournament.kind != rnd.tournament.Kind.PAIRS:
        raise ArbiterError(_("Il ritardo come azione unica è per i tornei a coppie: negli altri usa la penalità "
                             "o il punteggio arbitrale."))
    try:
        minutes = int(str(minutes).strip())
    except ValueError:
        minutes = None
    if minutes is None or not 1 <= minutes <= 240:
        raise ArbiterError(_("Indica i minuti di ritardo (un numero intero da 1 a 240)."))
    if minutes <= GRACE_MINUTES:
        raise ArbiterError(_("Entro %(n)s minuti il ritardo non comporta sanzioni (§22).") % {"n": GRACE_MINUTES})
    seat = _seat(rnd, pair_number)
    tournament, pair, table = rnd.tournament, seat.pair, seat.table
    if _open_entry(rnd, pair.number) is not None:
        raise ArbiterError(_("Il ritardo della coppia %(n)s in questo turno è già registrato: annullalo prima "
                             "di cambiarlo.") % {"n": pair.number})
    values = late_values(tournament)
    reason = f"{LATE_WORD} {minutes} min"
    if minutes <= FORFEIT_MINUTES:
        penalty = add_penalty(reason=reason, by=by, pair=pair, mp=values["penalty_mp"], round_number=rnd.number)
        new = {"kind": "penalty", "pair": pair.number, "minutes": minutes, "mp": values["penalty_mp"],
               "penalty": penalty.pk}
    else:
        sheet = ScoreSheet.objects.filter(table=table).first()
        if sheet is not None and (sheet.state != ScoreSheet.State.EMPTY or sheet.hands.exists()):
            raise ArbiterError(_("Il foglio del tavolo %(t)s è già compilato: la partita è stata giocata. "
                                 "Per cambiarne il risultato usa il punteggio arbitrale.") % {"t": table.number})
        late_ns = seat.line == "ns"
        present, late = (values["present_vp"], values["present_mp"]), (values["late_vp"], 0)
        (vp_ns, mp_ns), (vp_ew, mp_ew) = (late, present) if late_ns else (present, late)
        set_arbitral_score(table=table, by=by, vp_ns=vp_ns, vp_ew=vp_ew, mp_ns=mp_ns, mp_ew=mp_ew,
                           reason=f"{reason}: {LATE_WORD} della coppia {pair.number}")
        new = {"kind": "forfeit", "pair": pair.number, "minutes": minutes, "table": table.number,
               "vp": [str(vp_ns), str(vp_ew)], "mp": [mp_ns, mp_ew]}
    audit(tournament=tournament, by=by, action="lateness", round_number=rnd.number, table_number=table.number,
          new=new, reason=reason)
    return new


def _open_entry(rnd: Round, pair_number: int) -> AuditEntry | None:
    """The pair's lateness of ``rnd`` not undone yet (its ``lateness`` entry), or None."""
    entries = AuditEntry.objects.filter(tournament=rnd.tournament, round_number=rnd.number,
                                        action__in=("lateness", "lateness_undone")).order_by("-id")
    for entry in entries:
        if (entry.new or entry.old or {}).get("pair") == pair_number:
            return entry if entry.action == "lateness" else None
    return None


@transaction.atomic
def undo_lateness(*, round: Round, pair_number, by) -> None:
    """Take back the lateness of ``pair_number`` in ``round`` until the round closes: the
    penalty is removed, or the forfeit's sheet emptied (the table is to be entered again).
    Audited as ``lateness_undone``. Raises ``ArbiterError`` when the round is closed or the
    pair has no lateness recorded."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if rnd.state != Round.State.PUBLISHED:
        raise ArbiterError(_("Il turno è chiuso: il ritardo non si annulla più (resta una correzione "
                             "con il punteggio arbitrale o le penalità)."))
    try:
        number = int(str(pair_number).strip())
    except ValueError:
        number = None
    entry = _open_entry(rnd, number)
    if entry is None:
        raise ArbiterError(_("Nessun ritardo registrato per la coppia %(n)s in questo turno.")
                           % {"n": str(pair_number)[:12]})
    done = entry.new
    if done["kind"] == "penalty":
        penalty = Penalty.objects.filter(pk=done["penalty"]).first()
        if penalty is not None:
            remove_penalty(penalty=penalty, by=by, reason=f"{LATE_WORD} annullato")
    else:
        table = Table.objects.get(round=rnd, number=done["table"])
        sheet = ScoreSheet.objects.select_for_update().get(table=table)
        if sheet.arbitral and sheet.arbitral_note.startswith(LATE_WORD):
            sheet.hands.all().delete()
            sheet.mp_ns = sheet.mp_ew = 0
            sheet.vp_ns = sheet.vp_ew = Decimal("0")
            sheet.arbitral, sheet.arbitral_note = False, ""
            sheet.state = ScoreSheet.State.EMPTY
            sheet.version += 1
            sheet.save()
        # else the arbiter changed the forfeit by hand afterwards: his score stays
    audit(tournament=rnd.tournament, by=_as_actor(by), action="lateness_undone", round_number=rnd.number,
          table_number=entry.table_number, old=done, reason=LATE_WORD)
