"""Pages of a team tournament (rules.md §15): the teams (registration by
hand, withdrawal, captain links, per-player information), the line-up page of the arbiter and
the team captain's line-up page by private link."""
from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.vp import format_vp

from .. import selectors, services
from ..captains import links
from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import Match, Round, Team
from ..selectors.sheets import STATUS_LABELS
from ..selectors.teams import lineup_origin_text, lineup_round, resolve_lineup
from ..services import member_links
from ..services.entrants import PlayerData
from ..wording import vp_display
from .common import arbiter_view, query_int


def parse_player_lines(text: str) -> list[PlayerData]:
    """The players typed in the team form, one a line: ``Cognome, Nome[, tessera[, circolo]]``.
    Raises ``ArbiterError`` naming the first line without a surname and a name."""
    out = []
    for index, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        cells = [c.strip() for c in line.split(",")] + ["", "", ""]
        if not cells[0] or not cells[1]:
            raise ArbiterError(_("Riga %(row)s: scrivi cognome, nome (tessera e circolo facoltativi).")
                               % {"row": index})
        out.append(PlayerData(last_name=cells[0], first_name=cells[1], membership_number=cells[2], club=cells[3]))
    return out


def _teams(tournament):
    return tournament.teams.prefetch_related("members").select_related("captain").order_by("number")


@arbiter_view
def team_list(request, tournament):
    """``/squadre/``: the teams with their players and captain, the add form before round 1,
    the withdrawal form once play started, each captain's line-up link, and the per-player
    information (VP of the tables he played)."""
    if kind_of(tournament).data.entrants_page != "teams":
        return redirect("pairs", slug=tournament.slug)
    started = tournament.rounds.exists()
    late_refusal = services.late_team_refusal(tournament) if started else None
    error, values = None, {}
    if request.method == "GET":
        # a prefilled form (the check-in desk's link for a booked team: its name and captain)
        values = {"name": request.GET.get("name", "")[:120], "players": request.GET.get("players", "")[:3000],
                  "number": ""}
    if request.method == "POST" and (not started or not late_refusal):
        values = {"name": request.POST.get("name", "")[:120], "players": request.POST.get("players", "")[:3000],
                  "number": request.POST.get("number", "")}
        try:
            number = query_int(values["number"], low=1, high=100_000) if values["number"].strip() else None
            if values["number"].strip() and number is None:
                raise ArbiterError(_("Il numero della squadra deve essere almeno 1."))
            if started:  # a late team in round 1 plays the resting team (art. 33)
                team = services.add_late_team(tournament=tournament, name=values["name"],
                                              players=parse_player_lines(values["players"]), by=request.user)
            else:
                team = services.add_team(tournament=tournament, name=values["name"], number=number,
                                         players=parse_player_lines(values["players"]), by=request.user)
        except ArbiterError as exc:
            error = exc.message
        else:
            messages.success(request, _("Squadra %(n)s aggiunta.") % {"n": team.number})
            return redirect("teams", slug=tournament.slug)
    teams = list(_teams(tournament))
    last = selectors.rounds.last_published_round(tournament)
    for team in teams:
        team.undo_allowed = (team.withdrawn_from_round or 0) > last
        team.captain_url = links.team_captain_url(team, request)
        team.captain_qr = links.qr_svg(team.captain_url, scale=3, sizable=True)
        team.players = sorted(team.members.all(), key=lambda p: p.pk)
    return render(request, "arbiter/teams.html", {
        "tournament": tournament, "teams": teams, "started": started, "error": error, "values": values,
        "late_refusal": late_refusal, "membership_flags": member_links.player_flag_lines(tournament),
        "lineup_round": lineup_round(tournament),
        "players_info": [dict(r, vp_text=vp_display(r["vp"]))
                         for r in (selectors.teams.player_information(tournament) if started else [])],
    })


@arbiter_view
@require_http_methods(["POST"])
def team_withdraw(request, tournament, number):
    team = get_object_or_404(Team, tournament=tournament, number=number)
    from_round = query_int(request.POST.get("from_round"), low=1, high=1000)
    try:
        if from_round is None:
            raise ArbiterError(_("Indica il turno dal quale la squadra si ritira."))
        services.withdraw_team(team=team, from_round=from_round, by=request.user,
                               reason=request.POST.get("reason", "")[:300])
    except ArbiterError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Squadra %(n)s ritirata dal turno %(r)s.") % {"n": number, "r": from_round})
    return redirect("teams", slug=tournament.slug)


@arbiter_view
@require_http_methods(["GET", "POST"])
def match_forfeit(request, tournament, number, match):
    """A team cannot field two pairs in match ``match`` of round ``number`` (``team``): GET
    shows what the forfeit does (the two teams, the rest VP to the opponent, the tables
    removed, undo until the round closes); POST with ``confirm`` and a ``reason`` (kept in
    the audit) records it (rules.md §15)."""
    found = get_object_or_404(Match.objects.select_related("round", "team_a", "team_b", "table_1", "table_2"),
                              round__tournament=tournament, round__number=number, number=match)
    source = request.POST if request.method == "POST" else request.GET
    team_number = query_int(source.get("team"), low=1, high=100_000)
    team = Team.objects.filter(tournament=tournament, number=team_number).first() if team_number else None
    if team is None or team.pk not in (found.team_a_id, found.team_b_id) or found.bye or found.team_b_id is None:
        messages.error(request, _("Indica la squadra che dà forfait."))
        return redirect("round", slug=tournament.slug, number=number)
    error = None
    reason = source.get("reason", "").strip()[:300]
    if request.method == "POST":
        try:
            if not reason:
                raise ArbiterError(_("Scrivi il motivo del forfait: resta nel Registro."))
            services.forfeit_match(match=found, team=team, by=request.user, reason=reason)
        except ArbiterError as exc:
            error = exc.message
        else:
            effect_vp = format_vp(selectors.teams.team_rest_vp(tournament))
            opponent = found.team_b if team.pk == found.team_a_id else found.team_a
            messages.success(request, _("Forfait della squadra %(t)s registrato: la squadra %(o)s riceve %(vp)s VP. "
                                        "Si può annullare fino alla chiusura del turno.")
                             % {"t": team.number, "o": opponent.number, "vp": effect_vp})
            return redirect("round", slug=tournament.slug, number=number)
    effect = services.forfeit_effect(found, team)
    return render(request, "arbiter/match_forfeit.html", {
        "tournament": tournament, "match": found, "round_number": number, "effect": effect,
        "rest_vp": format_vp(effect["rest_vp"]), "error": error, "reason": reason})


@arbiter_view
@require_http_methods(["POST"])
def match_forfeit_undo(request, tournament, number, match):
    """Undo the forfeit of match ``match`` while round ``number`` is not closed: its two tables
    come back with their numbers, links and PINs (rules.md §15; audited)."""
    found = get_object_or_404(Match, round__tournament=tournament, round__number=number, number=match)
    try:
        services.undo_forfeit(match=found, by=request.user, reason=request.POST.get("reason", "")[:300])
    except ArbiterError as exc:
        messages.error(request, exc.message)
    else:
        found.refresh_from_db()
        messages.success(request, _("Forfait annullato: l'incontro %(m)s si gioca ai tavoli %(a)s e %(b)s "
                                    "(stessi link e PIN).")
                         % {"m": found.number, "a": found.table_1.number, "b": found.table_2.number})
    return redirect("round", slug=tournament.slug, number=number)


def _lineup_context(team: Team) -> dict:
    tournament = team.tournament
    number = lineup_round(tournament)
    rnd = tournament.rounds.filter(number=number).first()
    fixed = rnd is not None and rnd.state != Round.State.DRAFT
    choice = resolve_lineup(team, number)
    current = choice.pairs if choice else None
    players = [p for p in team.members.order_by("pk") if p.is_active_in(number)]
    chosen = [p.pk for pair in current for p in pair] if current else [None] * 4
    slots = [{"name": f"p{k}", "label": label, "chosen": chosen[k]} for k, label in enumerate(
        (_("Prima coppia, giocatore 1"), _("Prima coppia, giocatore 2"),
         _("Seconda coppia, giocatore 1"), _("Seconda coppia, giocatore 2")))]
    return {"team": team, "tournament": tournament, "round_number": number, "fixed": fixed,
            "current": current, "players": players, "slots": slots,
            "origin": lineup_origin_text(choice, number),
            "too_few": current is None, "beyond_plan": number > tournament.rounds_planned}


def _save_lineup(request, team: Team, by) -> str | None:
    """Save the posted line-up for the round the form showed (hidden ``round``): a form shown
    while round k was a draft and posted after k was published is refused, never saved for
    round k + 1 by surprise."""
    ids = [query_int(request.POST.get(f"p{k}"), low=1) for k in range(4)]
    if None in ids:
        return _("Scegli i quattro giocatori della formazione.")
    raw_round = (request.POST.get("round") or "").strip()
    number = query_int(raw_round, low=1, high=1000)
    if raw_round and number is None:  # a number no form sends: refused, never "the next round"
        return _("Turno della formazione non valido: ricarica la pagina.")
    try:
        services.set_lineup(team=team, pairs=[ids[:2], ids[2:]], by=by, round_number=number)
    except ArbiterError as exc:
        return exc.message
    return None


@arbiter_view
def team_lineup(request, tournament, number):
    """``/squadre/<n>/formazione/``: the arbiter enters team ``n``'s line-up for the draft or
    next round (rules.md §15); fixed once that round is published."""
    team = get_object_or_404(Team, tournament=tournament, number=number)
    error = None
    if request.method == "POST":
        error = _save_lineup(request, team, request.user)
        if error is None:
            messages.success(request, _("Formazione della squadra %(n)s salvata.") % {"n": number})
            return redirect("team_lineup", slug=tournament.slug, number=number)
    return render(request, "arbiter/team_lineup.html", {**_lineup_context(team), "error": error, "captain": False})


@require_http_methods(["GET", "POST"])
def team_captain(request, token):
    """``/c/squadra/<token>/``: the team captain's line-up page, by private link, no login
    (rules.md §15). Same rules as the arbiter's page."""
    team = Team.objects.select_related("tournament").filter(token=token).first()
    if team is None or len(token) < 20:
        raise Http404
    error = saved = None
    if request.method == "POST":
        by = services.Actor(label=f"capitano squadra {team.number}")
        error = _save_lineup(request, team, by)
        saved = error is None
    return render(request, "captain/team_lineup.html",
                  {**_lineup_context(team), "error": error, "saved": saved, "captain": True})


def team_matches(rnd: Round, states: dict) -> list[dict]:
    """The matches of a team round for the round page and the live board (rules.md §15):
    :func:`selectors.teams.round_matches` plus each table's sheet badge (``states``: table
    number → a key of ``sheet_status.STATUS_LABELS``) and the rest VP text. Empty for a
    tournament of another kind."""
    if not kind_of(rnd.tournament).data.has_matches:
        return []
    rest = format_vp(selectors.teams.team_rest_vp(rnd.tournament))
    out = []
    for m in selectors.teams.round_matches(rnd):
        m["states"] = [(states.get(t) or "empty", STATUS_LABELS.get(states.get(t) or "empty", ""))
                       for t in m["tables"]] if rnd.state != Round.State.DRAFT else []
        if m["vp"]:
            m["vp"] = [format_vp(v) for v in m["vp"]]
        # a forfeit while no sheet of the match is entered (services.forfeit_match), undone
        # until the round closes when the arbiter declared it (services.undo_forfeit)
        m["can_undo_forfeit"] = (m["bye"] == "forfeit" and rnd.state != Round.State.CLOSED
                                 and m.get("has_snapshot", False))
        m["can_forfeit"] = (rnd.state != Round.State.CLOSED and m["team_b"] is not None and not m["bye"]
                            and all((states.get(t) or "empty") == "empty" for t in m["tables"]))
        if rnd.state == Round.State.DRAFT and m["tables"]:
            m["origins"] = _draft_origins(rnd, m)
        if m["bye"] == "forfeit":
            m["rest_text"] = f"{rest} – 0" if m["forfeit_by"] != m["team_a"]["number"] else f"0 – {rest}"
        else:
            m["rest_text"] = rest
        out.append(m)
    return out


def _draft_origins(rnd: Round, match: dict) -> list[tuple[int, str]]:
    """Where each team's line-up in a draft match comes from (rules.md §15): (team number,
    sentence of :func:`selectors.teams.lineup_origin_text`)."""
    out = []
    for side in ("team_a", "team_b"):
        team = Team.objects.get(tournament=rnd.tournament, number=match[side]["number"])
        out.append((team.number, lineup_origin_text(resolve_lineup(team, rnd.number),
                                                            rnd.number)))
    return out
