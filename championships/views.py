"""The championship's pages (rules.md §17).

Arbiter pages under ``/campionati/`` (login; an arbiter sees his own championships of his
clubs, a club manager every one of his clubs and the circuits his club owns or is invited to,
a superuser every one; another's is a 404, rules.md §20); public ones under ``/campionato/<slug>/`` (page and
projector, switched on by the owner; off: 404). The standings are computed at each request
from the evenings' current results (``championships.selectors.standings``).
"""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import access
from clubs.models import Club
from tournaments.errors import ArbiterError
from tournaments.models import Tournament
from tournaments.selectors import tournaments_of

from . import documents, selectors, services
from .forms import ChampionshipForm
from .models import Championship

PROJECTOR_ROWS = 16
PROJECTOR_SECONDS = 30


def _own(request, slug) -> Championship:
    return get_object_or_404(selectors.championships_of(request.user), slug=slug)


def championship_view(view):
    """Login required; ``slug`` becomes the championship among ``championships_of`` (another
    club's or arbiter's is a 404, rules.md §20) before anything else, the allowed methods
    included: a refused method never tells an address exists."""

    @login_required
    @wraps(view)
    def wrapper(request, slug, **kwargs):
        return view(request, _own(request, slug), **kwargs)

    return wrapper


@login_required
def championship_list(request):
    """``/campionati/``: the arbiter's championships (circuits marked, and those whose
    invitation waits for a club he manages, rules.md §20) and the form to create one with
    tournaments he directs."""
    form = ChampionshipForm(request.POST or None, initial={"points": "field", "min_evenings": 1})
    club = access.current_club(request)
    # a championship gathers its club's evenings (rules.md §20): the current club's ones
    candidates = tournaments_of(request.user).filter(club=club).order_by("-date", "-created_at")
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            slug = d["slug"] or slugify(d["name"])[:80]  # blank: made from the name
            c = services.create_championship(by=request.user, slug=slug, name=d["name"], points=d["points"],
                                             best=d["best"], min_evenings=d["min_evenings"],
                                             public_enabled=d["public_enabled"],
                                             projector_enabled=d["projector_enabled"],
                                             tournaments=request.POST.getlist("tournaments"),
                                             club=club)
        except ArbiterError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Campionato «%(name)s» creato.") % {"name": c.name})
            return redirect("championship", slug=c.slug)
    return render(request, "championships/list.html", {
        "championships": selectors.championships_of(request.user).prefetch_related("tournaments"),
        "form": form, "candidates": candidates[:200], **selectors.circuit_marks(request.user)})


@login_required
def championship_detail(request, slug):
    """``/campionati/<slug>/``: standings (total, evenings, which counted), the evenings,
    adding one, the settings."""
    c = _own(request, slug)
    manages = selectors.may_manage_circuit(request.user, c)
    form = ChampionshipForm(request.POST or None, initial={
        "name": c.name, "points": c.points_rule, "best": c.best, "min_evenings": c.min_evenings,
        "public_enabled": c.public_enabled, "projector_enabled": c.projector_enabled})
    form.fields["slug"].disabled = True
    if request.method == "POST" and not manages:  # an invited club's manager: not the settings
        messages.error(request, _("Solo il proprietario del campionato ne cambia le impostazioni."))
        return redirect("championship", slug=c.slug)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.update_championship(championship=c, by=request.user, name=d["name"], points=d["points"],
                                         best=d["best"], min_evenings=d["min_evenings"],
                                         public_enabled=d["public_enabled"], projector_enabled=d["projector_enabled"])
        except ArbiterError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Impostazioni del campionato salvate."))
            return redirect("championship", slug=c.slug)
    view = selectors.standings(c)
    present = {e.slug for e in view.evenings}
    addable = [t for t in _addable(request.user, c, view.circuit) if t.slug not in present]
    return render(request, "championships/detail.html", {
        **documents.context(view), "form": form, "addable": addable, "manages": manages,
        **_circuit_context(request.user, c, manages)})


def _addable(user, c: Championship, circuit: bool) -> list:
    """The evenings ``user`` may add (at most 200, newest first): his tournaments; in a
    circuit (rules.md §20) those of the clubs in it that he manages, and the owning club's
    that he directs (``championships.selectors.may_include``)."""
    if not circuit:
        return list(tournaments_of(user).order_by("-date", "-created_at")[:200])
    mine = set(access.managed_clubs(user).values_list("pk", flat=True)) & selectors.accepted_club_ids(c)
    chosen = Tournament.objects.filter(club_id__in=mine) | tournaments_of(user).filter(club_id=c.club_id)
    return list(chosen.distinct().select_related("club").order_by("-date", "-created_at")[:200])


def _circuit_context(user, c: Championship, manages: bool) -> dict:
    """The circuit's box (rules.md §20): its clubs, the clubs ``user`` may still invite (he
    manages the championship), and the slugs of the invited clubs he manages (accept,
    leave)."""
    members = selectors.circuit_clubs(c)
    inside = {m.club.pk for m in members}
    managed = set(access.managed_clubs(user).values_list("pk", flat=True))
    return {"circuit_clubs": members,
            # a club is invited by its address, typed: the page never lists the server's other
            # clubs (tests/clubs/test_isolation.py: B's pages show nothing of club A)
            "invitable": manages and Club.objects.exclude(pk__in=inside).exists(),
            "my_invited": {m.club.slug for m in members if not m.owner and m.club.pk in managed}}


@championship_view
@require_POST
def championship_add(request, c):
    try:
        added = services.add_tournaments(championship=c, by=request.user, tournaments=request.POST.getlist("tournaments"))
    except ArbiterError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Serate aggiunte: %(n)s.") % {"n": len(added)})
    return redirect("championship", slug=c.slug)


@login_required
def championship_remove(request, slug, tournament):
    """GET: confirmation; POST: the evening leaves the championship (its results stay)."""
    c = _own(request, slug)
    t = get_object_or_404(c.tournaments, slug=tournament)
    if not (selectors.may_manage_circuit(request.user, c) or access.may_manage(request.user, t.club)):
        raise Http404  # a circuit's evening is taken out by its club's manager or the owner (§20)
    if request.method == "POST":
        services.remove_tournament(championship=c, by=request.user, tournament=t)
        messages.success(request, _("«%(name)s» tolta dal campionato.") % {"name": t.name})
        return redirect("championship", slug=c.slug)
    return render(request, "arbiter/confirm.html", {
        "title": _("Togliere «%(name)s» dal campionato?") % {"name": t.name},
        "text": _("I risultati del torneo restano; il campionato non conta più questa serata. "
                  "Si può rimettere in qualsiasi momento."),
        "button": _("Togli dal campionato")})


@login_required
def circuit_invite(request, slug):
    """The owner invites a club (POST ``club``: its slug) into the championship, which becomes
    a circuit (rules.md §20)."""
    c = _own(request, slug)
    if request.method != "POST":  # after the lookup: a 405 never tells an address exists
        return HttpResponseNotAllowed(["POST"])
    try:
        row = services.invite_club(championship=c, by=request.user, club=(request.POST.get("club") or "").strip())
    except ArbiterError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Circolo «%(club)s» invitato: il suo responsabile deve accettare.")
                         % {"club": row.club.name})
    return redirect("championship", slug=c.slug)


@login_required
def circuit_accept(request, slug, club):
    """An invited club's manager accepts; then he adds his club's evenings (rules.md §20)."""
    c = _own(request, slug)
    if request.method != "POST":  # after the lookup: a 405 never tells an address exists
        return HttpResponseNotAllowed(["POST"])
    try:
        row = services.accept_invitation(championship=c, by=request.user, club=club)
    except ArbiterError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Invito accettato: ora aggiungi le serate del circolo «%(club)s» che contano.")
                         % {"club": row.club.name})
    return redirect("championship", slug=c.slug)


@login_required
def circuit_leave(request, slug, club):
    """GET: confirmation; POST: the club leaves the circuit (or its invitation is declined or
    withdrawn) and its evenings leave with it (rules.md §20)."""
    c = _own(request, slug)
    found = get_object_or_404(Club, slug=club)
    if request.method == "POST":
        try:
            gone = services.leave_circuit(championship=c, by=request.user, club=found)
        except ArbiterError as exc:
            messages.error(request, exc.message)
            return redirect("championship", slug=c.slug)
        messages.success(request, _("Il circolo «%(club)s» ha lasciato il circuito (serate tolte: %(n)s).")
                         % {"club": found.name, "n": len(gone)})
        if selectors.championships_of(request.user).filter(pk=c.pk).exists():
            return redirect("championship", slug=c.slug)
        return redirect("championships")
    return render(request, "arbiter/confirm.html", {
        "title": _("Il circolo «%(club)s» lascia il circuito «%(name)s»?") % {"club": found.name, "name": c.name},
        "text": _("Le serate del circolo escono dal circuito con lui; i risultati dei tornei restano. "
                  "Per rientrare serve un nuovo invito."),
        "button": _("Lascia il circuito")})


def _download(data: bytes, content_type: str, filename: str, inline: bool) -> HttpResponse:
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'{"inline" if inline else "attachment"}; filename="{filename}"'
    return response


@championship_view
@require_GET
def championship_pdf(request, c):
    return _download(documents.standings_pdf(selectors.standings(c)), "application/pdf",
                     f"campionato-{c.slug}.pdf", inline=True)


@championship_view
@require_GET
def championship_xlsx(request, c):
    return _download(documents.standings_xlsx(selectors.standings(c)),
                     "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                     f"campionato-{c.slug}.xlsx", inline=False)


def _public(slug, flag) -> Championship:
    c = get_object_or_404(Championship, slug=slug)
    if not getattr(c, flag):
        raise Http404
    return c


@require_GET
def public_page(request, slug):
    """``/campionato/<slug>/``: names, positions and points only (no membership numbers)."""
    c = _public(slug, "public_enabled")
    return render(request, "championships/public.html", documents.context(selectors.standings(c)))


@require_GET
def projector(request, slug):
    """``/campionato/<slug>/proiettore/?s=k``: the standings in screens of 16 rows, the next
    every 30 seconds (like a tournament's projector)."""
    c = _public(slug, "projector_enabled")
    ctx = documents.context(selectors.standings(c))
    rows = ctx["rows"]
    screens = [rows[i:i + PROJECTOR_ROWS] for i in range(0, len(rows), PROJECTOR_ROWS)] or [[]]
    try:
        index = int(request.GET.get("s", 0)) % len(screens)
    except ValueError:
        index = 0
    return render(request, "championships/projector.html", {
        **ctx, "screen_rows": screens[index], "screen": index + 1, "screens": len(screens),
        "next": (index + 1) % len(screens), "refresh": PROJECTOR_SECONDS, "rows_per_screen": PROJECTOR_ROWS})
