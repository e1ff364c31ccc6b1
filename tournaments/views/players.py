"""The players of an individual tournament (rules.md §9): list, registration by
hand, removal before play, withdrawal, a late player in round 1, a penalty per player."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from .. import selectors, services
from ..errors import ArbiterError
from ..forms import PlayerForm
from ..kinds import kind_of
from ..services import member_links
from .common import arbiter_view, query_int


def _players(tournament):
    return tournament.players.filter(number__isnull=False).order_by("number")


@arbiter_view
def player_list(request, tournament):
    """Players by number with the add form (before round 1) and, once play started, the
    withdrawal and penalty forms; the late player form while rules.md §9 allows it."""
    if kind_of(tournament).data.entrants_page != "players":
        return redirect("pairs", slug=tournament.slug)
    form = PlayerForm(request.POST or None)
    started = tournament.rounds.exists()
    if request.method == "POST" and form.is_valid():
        if started and "confirm" not in request.POST:
            # a late player (rules.md §9): say where he sits and ask before changing round 1
            preview = services.late_player_preview(tournament)
            if preview is not None:
                return render(request, "arbiter/late_player_confirm.html", {
                    "tournament": tournament, "form": form, "preview": preview,
                    "name": f"{form.cleaned_data['last_name']} {form.cleaned_data['first_name']}".strip(),
                })
        try:
            if started:
                player = services.add_late_player(tournament=tournament, player=form.player(), by=request.user)
            else:
                player = services.add_player(tournament=tournament, player=form.player(), by=request.user,
                                             number=form.cleaned_data["number"])
        except ArbiterError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Giocatore %(n)s aggiunto.") % {"n": player.number})
            return redirect("players", slug=tournament.slug)
    late_refusal = services.late_player_refusal(tournament) if started else None
    players = list(_players(tournament))
    last = selectors.rounds.last_published_round(tournament)
    for player in players:
        player.undo_allowed = (player.withdrawn_from_round or 0) > last
    return render(request, "arbiter/players.html", {
        "tournament": tournament, "players": players, "form": form, "started": started,
        "late_refusal": late_refusal, "membership_flags": member_links.player_flag_lines(tournament),
    })


@arbiter_view
def player_remove(request, tournament, number):
    player = get_object_or_404(_players(tournament), number=number)
    if request.method == "POST":
        try:
            services.remove_player(player=player, by=request.user)
        except ArbiterError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Giocatore %(n)s cancellato.") % {"n": number})
        return redirect("players", slug=tournament.slug)
    return render(request, "arbiter/confirm.html", {
        "tournament": tournament, "title": _("Cancellare il giocatore %(n)s?") % {"n": number},
        "text": player.display_name, "button": _("Cancella"),
    })


def _first_open_round(tournament) -> int:
    """The first round not closed yet (the next one to draw when every round is closed)."""
    open_round = tournament.rounds.exclude(state="closed").order_by("number").first()
    if open_round is not None:
        return open_round.number
    return tournament.rounds.count() + 1


@arbiter_view
def player_withdraw(request, tournament, number):
    """Withdraw a player from a round on: GET the confirmation page (the round proposed is
    the first not closed, with what happens to his table), POST ``from_round``, ``reason``:
    his partner and opponents get a forced rest in a published round, a draft becomes
    outdated, later rounds leave him out (rules.md §5, §9, art. 32)."""
    player = get_object_or_404(_players(tournament), number=number)
    if request.method != "POST":
        from_round = _first_open_round(tournament)
        rnd = tournament.rounds.filter(number=from_round).first()
        return render(request, "arbiter/player_withdraw.html", {
            "tournament": tournament, "player": player, "from_round": from_round,
            "round_state": rnd.state if rnd else "", "withdrawn": player.status == "withdrawn",
        })
    from_round = query_int(request.POST.get("from_round"), low=1, high=1000)
    try:
        if from_round is None:
            raise ArbiterError(_("Indica il turno dal quale il giocatore si ritira."))
        services.withdraw_player(player=player, from_round=from_round, by=request.user,
                                 reason=request.POST.get("reason", "")[:300])
    except ArbiterError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Giocatore %(n)s ritirato dal turno %(r)s.") % {"n": number, "r": from_round})
    return redirect("players", slug=tournament.slug)


@arbiter_view
def player_penalty(request, tournament, number):
    """A penalty to one player (POST ``amount``, ``unit`` vp/mp, ``reason``; rules.md §3, §9)."""
    player = get_object_or_404(_players(tournament), number=number)
    if request.method == "POST":
        try:
            amount = Decimal(request.POST.get("amount", "").replace(",", ".").strip() or "0")
        except InvalidOperation:
            amount = Decimal(-1)
        unit = request.POST.get("unit", "vp")
        try:
            services.add_player_penalty(player=player, reason=request.POST.get("reason", "")[:200], by=request.user,
                                        vp=amount if unit == "vp" else 0, mp=amount if unit == "mp" else 0)
        except ArbiterError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Penalità al giocatore %(n)s registrata.") % {"n": number})
    return redirect("players", slug=tournament.slug)



