"""Forfeits of a team match (rules.md §15): a team that cannot field two pairs forfeits, its
opponent scores the rest VP; the arbiter confirms it with a reason and may undo it until the
round closes (the match's two tables come back with their numbers, links and PINs)."""
from __future__ import annotations

from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import AuditAction, LineMember, Match, Pair, Round, ScoreSheet, Seat, Table, Team
from ..selectors.teams import team_rest_vp
from .audit import audit
from .guard import write
from .locks import lock_round, lock_tables


def remove_match_tables(match: Match) -> None:
    """Delete the two tables of ``match`` (seats and sheets with them) and the pairs its teams
    fielded in that round (with their line members)."""
    tables = [t for t in (match.table_1, match.table_2) if t is not None]
    for table in tables:
        table.delete()
    Pair.objects.filter(round=match.round, team__in=match.teams).delete()


def _match_snapshot(match: Match) -> dict:
    """What the two tables of ``match`` are (JSON): per table its number, link token, PIN and
    clock extra seconds, and the pair seated N/S and E/W (pair number, team, team line, the
    players in seat order as their place in the team, 1.. in registration order: the export
    file's ``[team, member]`` reference, so the snapshot survives an export and import) –
    enough to put them back (:func:`undo_forfeit`)."""
    places = {}
    for team in match.teams:
        places.update({pk: k for k, pk in enumerate(team.members.order_by("pk").values_list("pk", flat=True),
                                                    start=1)})
    tables = []
    for key, table in (("table_1", match.table_1), ("table_2", match.table_2)):
        if table is None:
            continue
        seats = {}
        for seat in table.seats.select_related("pair__team"):
            pair = seat.pair
            seats[seat.line] = {"pair": pair.number, "team": pair.team.number, "line": pair.team_line,
                                "members": [places[pk] for pk in pair.line_members.order_by("seat")
                                            .values_list("player_id", flat=True)]}
        tables.append({"key": key, "number": table.number, "token": table.token, "pin": table.pin,
                       "clock_extra_seconds": table.clock_extra_seconds, "seats": seats})
    return {"tables": tables}


def forfeit_effect(match: Match, team: Team) -> dict:
    """What a forfeit of ``team`` in ``match`` does (the confirmation page, rules.md §15):
    ``{"team", "opponent"}`` (Team), ``"rest_vp"`` (Decimal VP the opponent scores, the rest
    score), ``"tables"`` (the two table numbers removed)."""
    opponent = match.team_b if team.pk == match.team_a_id else match.team_a
    return {"team": team, "opponent": opponent, "rest_vp": team_rest_vp(match.round.tournament),
            "tables": [t.number for t in (match.table_1, match.table_2) if t is not None]}


@write(retry=False)
def forfeit_match(*, match: Match, team: Team, by, reason: str = "") -> Match:
    """``team`` cannot field two pairs in ``match``: it forfeits (rules.md §15); its opponent
    scores the rest VP (28 of 40 by default) and the forfeiting team nothing. The match's two
    tables are removed; what they were is kept on the match (``forfeit_snapshot``) so
    :func:`undo_forfeit` can put them back until the round closes. ``reason`` goes to the
    audit. Refused once a sheet of the match is entered, for a closed round, or for a team
    not in the match."""
    # who plays: the tournament, the round and its tables first (services.locks)
    lock_tables(lock_round(match.round))
    # of=self: PostgreSQL refuses FOR UPDATE on the nullable side of the tables' outer joins
    match = (Match.objects.select_for_update(of=("self",)).select_related("round", "table_1", "table_2")
             .get(pk=match.pk))
    if match.round.state == Round.State.CLOSED:
        raise ArbiterError(_("Il turno è chiuso: l'incontro non si cambia più."))
    if team.pk not in (match.team_a_id, match.team_b_id) or match.team_b_id is None or match.bye:
        raise ArbiterError(_("La squadra %(team)s non gioca questo incontro.") % {"team": team.number})
    tables = [t for t in (match.table_1_id, match.table_2_id) if t]
    if ScoreSheet.objects.filter(table_id__in=tables).exclude(state=ScoreSheet.State.EMPTY).exists():
        raise ArbiterError(_("Uno score dell'incontro è già inserito: il forfait non è più possibile."))
    snapshot = _match_snapshot(match)
    effect = forfeit_effect(match, team)
    remove_match_tables(match)
    Match.objects.filter(pk=match.pk).update(bye=Match.Bye.FORFEIT, forfeit_by=team, table_1=None, table_2=None,
                                             forfeit_snapshot=snapshot)
    match.refresh_from_db()
    audit(tournament=match.round.tournament, by=by, action=AuditAction.MATCH_FORFEIT, round_number=match.round.number,
          reason=reason, new={"match": match.number, "team": team.number, "opponent": effect["opponent"].number,
                              "opponent_vp": str(effect["rest_vp"]), "tables": effect["tables"]})
    return match


def undo_forfeit_refusal(match: Match) -> str | None:
    """Why the forfeit of ``match`` cannot be undone now, or None: only a forfeit the arbiter
    declared (one decided at the draw has no tables to restore), only until its round closes."""
    if match.bye != Match.Bye.FORFEIT:
        return _("L'incontro %(match)s non è un forfait.") % {"match": match.number}
    if match.round.state == Round.State.CLOSED:
        return _("Il turno è chiuso: il forfait non si annulla più.")
    if not match.forfeit_snapshot:
        return _("Questo forfait è stato deciso al sorteggio (la squadra non ha quattro giocatori in gara): "
                 "non c'è nulla da ripristinare.")
    return None


@write(retry=False)
def undo_forfeit(*, match: Match, by, reason: str = "") -> Match:
    """Undo the forfeit of ``match`` (rules.md §15) while its round is not closed: its two
    tables come back with their numbers, captains' links (tokens) and PINs, the same pairs
    (numbers, players, seats) and, in a published round, empty score sheets. Audited.

    Raises ``ArbiterError``: :func:`undo_forfeit_refusal`, a table number or pair number
    taken since (a sentence names it)."""
    lock_tables(lock_round(match.round))  # who plays: services.locks
    match = Match.objects.select_for_update(of=("self",)).select_related("round", "forfeit_by").get(pk=match.pk)
    refusal = undo_forfeit_refusal(match)
    if refusal:
        raise ArbiterError(refusal)
    rnd = match.round
    tournament = rnd.tournament
    teams = {t.number: t for t in tournament.teams.all()}
    snapshot = match.forfeit_snapshot
    for saved in snapshot["tables"]:
        if rnd.tables.filter(number=saved["number"]).exists():
            raise ArbiterError(_("Il tavolo %(table)s è già usato nel turno: il forfait non si può annullare.")
                               % {"table": saved["number"]})
        for seat in saved["seats"].values():
            if Pair.objects.filter(tournament=tournament, number=seat["pair"]).exists():
                raise ArbiterError(_("Il numero di coppia %(pair)s è già usato: il forfait non si può annullare.")
                                   % {"pair": seat["pair"]})
    restored = {}
    pairs = {}
    for saved in snapshot["tables"]:
        table = Table.objects.create(round=rnd, number=saved["number"], token=saved["token"], pin=saved["pin"],
                                     clock_extra_seconds=saved.get("clock_extra_seconds", 0))
        for line, seat in saved["seats"].items():
            key = (seat["team"], seat["line"])
            if key not in pairs:
                team = teams[seat["team"]]
                members = list(team.members.order_by("pk"))
                pair = Pair.objects.create(tournament=tournament, number=seat["pair"], round=rnd, team=team,
                                           team_line=seat["line"])
                for k, place in enumerate(seat["members"], start=1):
                    LineMember.objects.create(round=rnd, pair=pair, player=members[place - 1], seat=k)
                pairs[key] = pair
            Seat.objects.create(round=rnd, table=table, pair=pairs[key], line=line)
        if rnd.state == Round.State.PUBLISHED:
            ScoreSheet.objects.get_or_create(table=table)
        restored[saved["key"]] = table
    forfeit_by = match.forfeit_by
    match.bye, match.forfeit_by, match.forfeit_snapshot = Match.Bye.NONE, None, None
    match.table_1, match.table_2 = restored.get("table_1"), restored.get("table_2")
    match.save(update_fields=["bye", "forfeit_by", "forfeit_snapshot", "table_1", "table_2"])
    audit(tournament=tournament, by=by, action=AuditAction.MATCH_FORFEIT_UNDONE, round_number=rnd.number, reason=reason,
          old={"match": match.number, "team": forfeit_by.number if forfeit_by else None},
          new={"match": match.number, "tables": [t["number"] for t in snapshot["tables"]]})
    return match
