"""A late team (rules.md §15 with §5, art. 33 applied to teams): it enters during round 1
and plays the resting team's match."""
from __future__ import annotations

from django.db.models import Max
from django.utils.translation import gettext as _

import pairing

from ..errors import ArbiterError
from ..kinds.teams import build_team_request, write_match
from ..models import Match, Pair, Round, ScoreSheet, Team, Tournament
from .audit import audit
from .drafts import record_adjusted_inputs, draft_staleness
from .guard import write
from .pairs import PlayerData
from .locks import lock_tournament
from .teams import check_team_players, clean_team_entry, create_team, require_teams


def late_team_refusal(tournament: Tournament) -> str | None:
    """Why a late team cannot enter now, or None (rules.md §15 with §5, art. 33 applied to
    teams): only while round 1 is drawn or played (not closed, round 2 not paired) and only to
    complete the match of the resting team."""
    rnd = tournament.rounds.filter(number=1).first()
    if rnd is None:
        return _("Il torneo non è iniziato: iscrivi la squadra normalmente.")
    if rnd.state == Round.State.CLOSED or tournament.rounds.filter(number__gt=1).exists():
        return _("Una squadra tardiva entra solo durante il turno 1 (regole §15, art. 33).")
    if not rnd.matches.filter(bye=Match.Bye.REST).exists():
        return _("Nel turno 1 non riposa nessuna squadra: una squadra tardiva non può entrare (art. 33).")
    return None


@write(retry=False)
def add_late_team(*, tournament: Tournament, name: str, players: list[PlayerData], by) -> Team:
    """A late team (rules.md §15, art. 33): registered with the next team number during round
    1, it plays the resting team (the match's two tables are created, with score sheets when the
    round is published; its line-up is its first four players). In a round robin it takes the
    phantom's slot (the highest number, last in the schedule; the resting team's group), so the
    other teams' schedule does not change; the engine decides who sits N/S.

    Raises ``ArbiterError``: :func:`late_team_refusal`, and the checks of :func:`teams.add_team`.
    """
    tournament = lock_tournament(tournament)  # who plays: the first lock (services.locks)
    require_teams(tournament)
    refusal = late_team_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    name, players = clean_team_entry(name, players)
    if not name.strip():
        raise ArbiterError(_("Il nome della squadra è obbligatorio."))
    check_team_players(tournament, players)
    rnd = tournament.rounds.get(number=1)
    draft_was_current = rnd.state == Round.State.DRAFT and not draft_staleness(rnd)
    match = rnd.matches.select_related("team_a").get(bye=Match.Bye.REST)
    resting = match.team_a
    number = (tournament.teams.aggregate(m=Max("number"))["m"] or 0) + 1
    team = create_team(tournament, number=number, name=name, players=players, late=True)
    if resting.group is not None:
        team.group = resting.group
        team.save(update_fields=["group"])
    request = build_team_request(tournament, 1, seed=rnd.seed)
    try:
        answer = pairing.run(request)
    except pairing.PairingError:
        answer = {"tables": []}
    late_first = any(t.get("ns") == number and t.get("ew") == resting.number for t in answer.get("tables", []))
    match.team_a, match.team_b = (team, resting) if late_first else (resting, team)
    match.bye = Match.Bye.NONE
    match.save(update_fields=["team_a", "team_b", "bye"])
    next_pair = (Pair.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1
    write_match(rnd, match, next_pair)
    if rnd.state == Round.State.PUBLISHED:
        for table in (match.table_1, match.table_2):
            ScoreSheet.objects.get_or_create(table=table)
    rnd.pairing_request = request
    rnd.save(update_fields=["pairing_request"])
    if draft_was_current:
        record_adjusted_inputs(rnd)  # completed on purpose: not an outdated draft (rules.md §12)
    audit(tournament=tournament, by=by, action="late_team_added", round_number=1,
          new={"team": number, "name": team.name, "opponent": resting.number,
               "tables": [match.table_1.number, match.table_2.number]})
    return team
