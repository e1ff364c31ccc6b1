"""The championship's pages (rules.md §17).

Arbiter pages under ``/campionati/`` (login; an arbiter sees his own championships of his
clubs, a club manager every one of his clubs, a superuser every one; another's is a 404,
rules.md §20); public ones under ``/campionato/<slug>/`` (page and
projector, switched on by the owner; off: 404). The standings are computed at each request
from the evenings' current results (``championships.selectors.standings``).
"""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import access
from tournaments.errors import ArbiterError
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
    """``/campionati/``: the arbiter's championships and the form to create one with
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
        "form": form, "candidates": candidates[:200]})


@login_required
def championship_detail(request, slug):
    """``/campionati/<slug>/``: standings (total, evenings, which counted), the evenings,
    adding one, the settings."""
    c = _own(request, slug)
    form = ChampionshipForm(request.POST or None, initial={
        "name": c.name, "points": c.points_rule, "best": c.best, "min_evenings": c.min_evenings,
        "public_enabled": c.public_enabled, "projector_enabled": c.projector_enabled})
    form.fields["slug"].disabled = True
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
    addable = [t for t in tournaments_of(request.user).filter(club=c.club_id).order_by("-date", "-created_at")[:200]
               if t.slug not in present]
    return render(request, "championships/detail.html", {
        **documents.context(view), "form": form, "addable": addable})


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
    if request.method == "POST":
        services.remove_tournament(championship=c, by=request.user, tournament=t)
        messages.success(request, _("«%(name)s» tolta dal campionato.") % {"name": t.name})
        return redirect("championship", slug=c.slug)
    return render(request, "arbiter/confirm.html", {
        "title": _("Togliere «%(name)s» dal campionato?") % {"name": t.name},
        "text": _("I risultati del torneo restano; il campionato non conta più questa serata. "
                  "Si può rimettere in qualsiasi momento."),
        "button": _("Togli dal campionato")})


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
