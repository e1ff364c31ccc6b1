"""Lateness (*ritardo*, rules.md §22) as one action from the round page, and its undo.

An entrant must be seated within 5 minutes of the round's start. Beyond 5 minutes: a penalty
of ``ARBITRO_LATE_PENALTY_MP`` MP (100), recorded with the existing penalty (``add_penalty``,
``add_player_penalty``: off the MP difference, never off the table's result) to the late
entrant: the pair, the player (individual, rules.md §9) or the team (§15). Beyond 10 minutes
the late line's match is forfeited as an arbitral score of its table: the present line scores
``ARBITRO_LATE_FORFEIT_PERCENT`` % of the scale's maximum VP (70 %; ``…_4_HANDS``, 60 %, in
rounds of four hands) with the MP of the lower edge of that VP's band, as the rest does
(``scoring.vp.rest_mp`` ``band_lower_edge``); the late line ``ARBITRO_LATE_VP`` VP (6) and
0 MP, and for MP difference minus the lower edge of its own VP's band
(``scoring.vp.loser_band_edge``). One table's MP cannot give both (in four-hand rounds 12 VP
start at 305 and the band of 6 VP at 705): the two differences are recorded with the
lateness and the standings read them (``selectors.lateness.forfeit_differences``), as they
read a rest's credit. The source's «6 o 8 VP … a meno che per lei non risulti vantaggioso»
is the arbiter's call: he changes the forfeit like any arbitral score (his score then counts
as entered).

The late line is asked of the kind (``Kind.seats_of_entrant``): a pair's own line, the
partnership an individual player plays in this round, a team's two pairs at its match's two
tables (the team match is lost at both). Team tournaments scored by the summed margin
(``team_result`` margin) convert the match margin with the team scale, not the tables' VP:
there the same rule is read from the team scale (the present team 70 % / 60 % of its maximum
with the lower edge of that VP's band as margin, the late team ``ARBITRO_LATE_VP`` with minus
its band's lower edge), recorded with the lateness as the match's result
(``selectors.lateness.forfeit_matches``); the two tables still hold the pairs' forfeit.

Both are written with the reason «ritardo …» (standings, players' pages and the Registro show
it) and audited as ``lateness``; :func:`undo_lateness` takes them back until the round
closes.
"""
from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.utils.translation import gettext as _

from scoring import vp as vp_rules

from .. import selectors
from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import AuditAction, AuditEntry, Penalty, Round, ScoreSheet, Seat, Table
from ..selectors.lateness import LATE_WORD, entrant_of
from ..selectors.teams import team_scale
from ..wording import by_kind
from ._common import as_actor
from .audit import audit
from .guard import write
from .penalties import add_penalty, add_player_penalty, remove_penalty
from .sheets import set_arbitral_score

#: Minutes an entrant may be late without consequence, and beyond which the match is forfeited.
GRACE_MINUTES, FORFEIT_MINUTES = 5, 10

#: The penalty service of each entrant (``KindData.audit_key``, the ``Penalty`` field it fills).
_PENALISE = {
    "pair": lambda entrant, **kw: add_penalty(pair=entrant, **kw),
    "team": lambda entrant, **kw: add_penalty(team=entrant, **kw),
    "player": lambda entrant, **kw: add_player_penalty(player=entrant, **kw),
}


def late_values(tournament) -> dict:
    """The settings of §22 for ``tournament``: ``{"penalty_mp", "percent", "present_vp",
    "present_mp", "late_vp", "late_edge"}`` (VP as Decimal, MP int; ``late_edge`` the lower
    edge of the band whose loser scores ``late_vp``, taken as a loss)."""
    scale = selectors.scales.scale_of(tournament)
    percent = Decimal(getattr(settings, "ARBITRO_LATE_FORFEIT_PERCENT_4_HANDS", 60)
                      if tournament.hands_per_round == 4 else getattr(settings, "ARBITRO_LATE_FORFEIT_PERCENT", 70))
    late_vp = Decimal(getattr(settings, "ARBITRO_LATE_VP", 6))
    return {"penalty_mp": int(getattr(settings, "ARBITRO_LATE_PENALTY_MP", 100)), "percent": percent,
            **_forfeit_values(scale, percent, late_vp)}


def match_values(tournament) -> dict | None:
    """The forfeit of §22 of a whole match in a team tournament scored by the summed margin,
    read from its team scale (:func:`_forfeit_values`: ``present_vp``, ``present_mp``,
    ``late_vp``, ``late_edge``, the same percent and late VP settings as :func:`late_values`);
    None in every other tournament."""
    scale = team_scale(tournament)
    if scale is None:
        return None
    values = late_values(tournament)
    return _forfeit_values(scale, values["percent"], values["late_vp"])


def _forfeit_values(scale, percent: Decimal, late_vp: Decimal) -> dict:
    """The forfeit of §22 read from ``scale`` (a pair scale, or the team scale of a match):
    ``{"present_vp", "present_mp" (the lower edge of that VP's band), "late_vp", "late_edge"
    (the lower edge of the band whose loser scores ``late_vp``, >= 0)}``."""
    return {"present_vp": vp_rules.rest_vp(scale, percent),
            "present_mp": vp_rules.rest_mp(scale, "band_lower_edge", percent=percent),
            "late_vp": late_vp, "late_edge": vp_rules.loser_band_edge(scale, late_vp)}


def _number(value) -> int | None:
    """A typed whole number (an entrant's, minutes) within what a tournament can hold, or None
    (a text, "②", thirty nines: a sentence, never a database overflow)."""
    text = str(value).strip()
    if not text.isdecimal() or len(text) > 6:
        return None
    return int(text)


def _late_seats(rnd: Round, kind, number, shown: str) -> list[Seat]:
    """The seats of the late line(s) of entrant ``number`` at the played tables of ``rnd``
    (one, or a team's two), by table number. Raises ``ArbiterError`` when it has none
    (resting, not in the round, no such number)."""
    seats = Seat.objects.filter(round=rnd, table__bye="").select_related("table", "pair")
    seats = list(kind.seats_of_entrant(seats, number).order_by("table__number")) if number is not None else []
    if not seats:
        raise ArbiterError(by_kind(rnd.tournament,
                                   pairs=_("La coppia %(n)s non gioca a un tavolo del turno %(round)s."),
                                   individual=_("Il giocatore %(n)s non gioca a un tavolo del turno %(round)s."),
                                   teams=_("La squadra %(n)s non gioca a un tavolo del turno %(round)s."))
                           % {"n": shown, "round": rnd.number})
    return seats


@write(retry=False)
def record_lateness(*, round: Round, pair_number, minutes, by) -> dict:
    """Entrant ``pair_number`` (the pair's, player's or team's number, as typed) of ``round``
    (published, not closed) sat down ``minutes`` (an integer 1–240) after the start. Returns
    the audit entry's data: ``{"kind": "penalty"|"forfeit", "entrant", <kind.data.audit_key>,
    "minutes", …}`` (a penalty: ``mp``, ``penalty`` (pk); a forfeit: ``table`` (the first),
    ``tables``, ``forfeits``: per table ``{"table", "late" (line), "vp", "mp",
    "difference"}``, N/S first; with the summed margin also ``match``: ``{"vp", "mp",
    "margin"}`` each [present team, late team], VP as strings). Raises ``ArbiterError``:
    round not in play, an entrant not at a table, minutes not a number or within the 5
    minutes of grace, a lateness already recorded for the entrant in the round, a forfeit on
    a table whose sheet was entered (the match was played)."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if rnd.state != Round.State.PUBLISHED:
        raise ArbiterError(_("Il ritardo si registra solo durante un turno in corso."))
    minutes = _number(minutes)
    if minutes is None or not 1 <= minutes <= 240:
        raise ArbiterError(_("Indica i minuti di ritardo (un numero intero da 1 a 240)."))
    if minutes <= GRACE_MINUTES:
        raise ArbiterError(_("Entro %(n)s minuti il ritardo non comporta sanzioni (§22).") % {"n": GRACE_MINUTES})
    tournament = rnd.tournament
    kind = kind_of(tournament)
    number = _number(pair_number)
    seats = _late_seats(rnd, kind, number, str(pair_number).strip()[:12])
    if _open_entry(rnd, number) is not None:
        raise ArbiterError(by_kind(
            tournament,
            pairs=_("Il ritardo della coppia %(n)s in questo turno è già registrato: annullalo prima di cambiarlo."),
            individual=_("Il ritardo del giocatore %(n)s in questo turno è già registrato: annullalo prima di "
                         "cambiarlo."),
            teams=_("Il ritardo della squadra %(n)s in questo turno è già registrato: annullalo prima di "
                    "cambiarlo.")) % {"n": number})
    values = late_values(tournament)
    reason = f"{LATE_WORD} {minutes} min"
    who = {"entrant": number, kind.data.audit_key: number}
    if minutes <= FORFEIT_MINUTES:
        entrant = kind.entrants_by_number(tournament, [number]).get(number)
        penalty = _PENALISE[kind.data.audit_key](entrant, reason=reason, by=by, mp=values["penalty_mp"],
                                            round_number=rnd.number)
        new = {"kind": "penalty", **who, "minutes": minutes, "mp": values["penalty_mp"], "penalty": penalty.pk}
    else:
        for seat in seats:
            sheet = ScoreSheet.objects.filter(table=seat.table).first()
            if sheet is not None and (sheet.state != ScoreSheet.State.EMPTY or sheet.hands.exists()):
                raise ArbiterError(_("Il foglio del tavolo %(t)s è già compilato: la partita è stata giocata. "
                                     "Per cambiarne il risultato usa il punteggio arbitrale.")
                                   % {"t": seat.table.number})
        present = (values["present_vp"], values["present_mp"], values["present_mp"])
        late = (values["late_vp"], 0, -values["late_edge"])
        forfeits = []
        for seat in seats:
            # (VP, MP, MP difference) of each line: the present one as a rest (§5), the late one §22
            ns, ew = (late, present) if seat.line == "ns" else (present, late)
            set_arbitral_score(table=seat.table, by=by, vp_ns=ns[0], vp_ew=ew[0], mp_ns=ns[1], mp_ew=ew[1],
                               reason=f"{reason}: {kind.data.url_word} {number}")
            forfeits.append({"table": seat.table.number, "late": seat.line, "vp": [str(ns[0]), str(ew[0])],
                             "mp": [ns[1], ew[1]], "difference": [ns[2], ew[2]]})
        tables = [f["table"] for f in forfeits]
        new = {"kind": "forfeit", **who, "minutes": minutes, "table": tables[0], "tables": tables,
               "forfeits": forfeits}
        team = match_values(tournament)
        if team is not None:
            # summed margin (§15): the match's result is the team scale's forfeit, (present, late)
            new["match"] = {"vp": [str(team["present_vp"]), str(team["late_vp"])],
                            "mp": [team["present_mp"], 0], "margin": [team["present_mp"], -team["late_edge"]]}
    audit(tournament=tournament, by=by, action=AuditAction.LATENESS, round_number=rnd.number,
          table_number=seats[0].table.number, new=new, reason=reason)
    return new


def _open_entry(rnd: Round, number: int | None) -> AuditEntry | None:
    """The entrant's lateness of ``rnd`` not undone yet (its ``lateness`` entry), or None."""
    entries = AuditEntry.objects.filter(tournament=rnd.tournament, round_number=rnd.number,
                                        action__in=(AuditAction.LATENESS, AuditAction.LATENESS_UNDONE)).order_by("-id")
    for entry in entries:
        if entrant_of(entry.new or entry.old or {}) == number:
            return entry if entry.action == AuditAction.LATENESS else None
    return None


@write(retry=False)
def undo_lateness(*, round: Round, pair_number, by) -> None:
    """Take back the lateness of entrant ``pair_number`` (pair, player or team number) in
    ``round`` until the round closes: the penalty is removed, or the forfeit's sheets emptied
    (the tables are to be entered again; a sheet the arbiter changed by hand afterwards keeps
    his score). Audited as ``lateness_undone``. Raises ``ArbiterError`` when the round is
    closed or the entrant has no lateness recorded."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if rnd.state != Round.State.PUBLISHED:
        raise ArbiterError(_("Il turno è chiuso: il ritardo non si annulla più (resta una correzione "
                             "con il punteggio arbitrale o le penalità)."))
    number = _number(pair_number)
    entry = _open_entry(rnd, number)
    if entry is None:
        raise ArbiterError(by_kind(rnd.tournament,
                                   pairs=_("Nessun ritardo registrato per la coppia %(n)s in questo turno."),
                                   individual=_("Nessun ritardo registrato per il giocatore %(n)s in questo turno."),
                                   teams=_("Nessun ritardo registrato per la squadra %(n)s in questo turno."))
                           % {"n": str(pair_number).strip()[:12]})
    done = entry.new
    if done["kind"] == "penalty":
        penalty = Penalty.objects.filter(pk=done["penalty"]).first()
        if penalty is not None:
            remove_penalty(penalty=penalty, by=by, reason=f"{LATE_WORD} annullato")
    else:
        for number in done.get("tables") or [done["table"]]:
            sheet = ScoreSheet.objects.select_for_update().get(table=Table.objects.get(round=rnd, number=number))
            if not (sheet.arbitral and sheet.arbitral_note.startswith(LATE_WORD)):
                continue  # the arbiter changed the forfeit by hand afterwards: his score stays
            sheet.hands.all().delete()
            sheet.mp_ns = sheet.mp_ew = 0
            sheet.vp_ns = sheet.vp_ew = Decimal("0")
            sheet.arbitral, sheet.arbitral_note = False, ""
            sheet.state = ScoreSheet.State.EMPTY
            sheet.version += 1
            sheet.save()
    audit(tournament=rnd.tournament, by=as_actor(by), action=AuditAction.LATENESS_UNDONE, round_number=rnd.number,
          table_number=entry.table_number, old=done, reason=LATE_WORD)
