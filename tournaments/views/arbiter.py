"""The arbiter's pages: tournaments, players and pairs, registration import."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import BooleanField, Case, Count, IntegerField, OuterRef, Prefetch, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from clubs import access
from pairing import mitchell

from .. import pages, selectors, services, wording
from ..errors import ArbiterError
from ..forms import ArbiterAddForm, ImportForm, PairForm, TournamentForm
from ..i18n_messages import message_text
from ..kinds import kind_of
from ..models import Pair, Player, Round, Team, Tournament
from ..printing import documents
from ..registrations import previews, reading
from ..services import member_links
from .common import arbiter_view
from .listings import PairTable


def _count_of(queryset):
    """A subquery counting ``queryset``'s rows of the outer tournament (0 when none): one
    subquery per count, so the counts do not multiply each other as joined counts would."""
    rows = queryset.filter(tournament=OuterRef("pk")).order_by().values("tournament").annotate(n=Count("pk"))
    return Coalesce(Subquery(rows.values("n")[:1], output_field=IntegerField()), 0)


@login_required
def home(request):
    """The tournaments the user directs (all of them for a superuser). The
    entrants column counts by kind: the registered pairs, the numbered players of
    an individual tournament, the teams; each ``t.n_entrants`` with ``t.entrants_noun``
    ("coppie", "giocatori", "squadre")."""
    tournaments = list(selectors.listed_tournaments_of(request.user).annotate(
        n_pairs=_count_of(Pair.objects.filter(round__isnull=True)),
        n_players=_count_of(Player.objects.filter(number__isnull=False)),  # rules.md §9
        n_teams=_count_of(Team.objects.all()),
    ).order_by("-date", "-created_at"))
    for t in tournaments:
        t.n_entrants = wording.by_kind(t, pairs=t.n_pairs, individual=t.n_players, teams=t.n_teams)
        t.entrants_noun = wording.by_kind(t, pairs=_("coppie"), individual=_("giocatori"), teams=_("squadre"))
    return render(request, "arbiter/home.html", {"tournaments": tournaments})


@arbiter_view
def tournament_create(request):
    # the arbiter's current club owns it (rules.md §20); an account working for no club (the
    # federation role alone) creates nothing here
    club = access.current_club(request)
    if club is None:
        raise Http404
    form = TournamentForm(request.POST or None, initial={"date": timezone.localdate()}, club=club)
    if request.method == "POST" and form.is_valid():
        tournament = services.create_tournament(by=request.user, club=club, **form.cleaned_data)
        messages.success(request, _("Torneo creato."))
        return redirect("tournament", slug=tournament.slug)
    return render(request, "arbiter/tournament_form.html", {"form": form})


@arbiter_view
def tournament_edit(request, tournament):
    frozen = services.frozen_settings(tournament)
    kind_lock = None if "kind" in frozen else services.kind_change_refusal(tournament)
    # settings another app fixes (a simultaneous evening's, rules.md §20): disabled, with its sentence
    locked = {name: reason for name, reason in services.locked_settings(tournament).items() if name not in frozen}
    if kind_lock:
        locked.setdefault("kind", kind_lock)
    form = TournamentForm(request.POST or None, instance=Tournament.objects.get(pk=tournament.pk), frozen=frozen,
                          locked=locked or None)
    if request.method == "POST" and form.is_valid():
        services.update_tournament(tournament=tournament, by=request.user, **form.cleaned_data)
        messages.success(request, _("Impostazioni salvate."))
        return redirect("tournament", slug=form.cleaned_data["slug"])
    return render(request, "arbiter/tournament_form.html", {
        "form": form, "tournament": tournament,
        "frozen_labels": [form.fields[name].label for name in form.frozen],
    })


@arbiter_view
def tournament_detail(request, tournament):
    kind = kind_of(tournament)
    rounds = list(tournament.rounds.order_by("number"))
    n_pairs = tournament.pairs.filter(round__isnull=True).count()
    mitchell_rounds = sum(1 for c in tournament.plan.upper() if c == "M") if kind.data.plan_m_is_mitchell else 0
    plan_warnings = []
    if mitchell_rounds and n_pairs >= 2:
        order = list(tournament.mitchell_order) or list(tournament.pairs.filter(round__isnull=True).values_list("number", flat=True))
        if tournament.groups > 1:  # rules.md §19: one movement per group
            group_of = dict(tournament.pairs.filter(round__isnull=True).values_list("number", "group"))
            for g in range(1, tournament.groups + 1):
                members = [n for n in order if group_of.get(n) == g]
                plan_warnings += [_("Girone %(g)s: %(warning)s") % {"g": g, "warning": message_text(w)}
                                  for w in mitchell.plan_warnings(members, mitchell_rounds, tournament.mitchell_step)]
        else:
            plan_warnings = [message_text(w) for w in  # in the reader's language (pairing.messages codes)
                             mitchell.plan_warnings(order, mitchell_rounds, tournament.mitchell_step)]
    # the entrants: pairs, numbered players or teams
    n_pairs = kind.entrants(tournament).count()
    active = kind.entrants(tournament).filter(status=Pair.Status.ACTIVE).count()
    return render(
        request,
        "arbiter/tournament.html",
        {
            "tournament": tournament,
            "kind_data": kind.data,  # what differs by kind (tournaments/kinds/): the entrants needed to draw
            "rounds": rounds,
            "n_pairs": n_pairs,
            "plan_warnings": plan_warnings,
            "n_active": active,
            "scale": selectors.scales.scale_of(tournament),
            "plan": _plan_rows(tournament),
            "generate_state": services.generation_state(tournament),
            "may_delete": services.may_delete(request.user, tournament),
        },
    )


def _plan_rows(tournament):
    """``(number, system label, session heading)`` per planned round; the heading ("Sessione 2")
    only on the first round of each session, and only when the plan has several (rules.md §11)."""
    several = tournament.sessions_planned > 1
    rows, previous = [], None
    for r in tournament.planned_rounds():
        heading = documents.session_label(r.session) if several and r.session != previous else ""
        previous = r.session
        system = Round.System(tournament.system_of_round(r.number)).label  # every system named
        rows.append((r.number, system, heading))
    return rows


def _pairs_queryset(tournament):
    return tournament.pairs.filter(round__isnull=True).prefetch_related(Prefetch("members", queryset=Player.objects.order_by("seat")))


@arbiter_view
def pair_list(request, tournament):
    kind = kind_of(tournament)
    if kind.data.entrants_page != "pairs":  # the players' or the teams' page
        return redirect(kind.data.entrants_page, slug=tournament.slug)
    last = selectors.rounds.last_published_round(tournament)
    table = PairTable(_pairs_queryset(tournament).annotate(
        n_seats=Count("seats"),
        # a withdrawal from a round not yet published can be undone (services.undo_withdrawal)
        undo_allowed=Case(When(withdrawn_from_round__gt=last, then=Value(True)), default=Value(False),
                          output_field=BooleanField())))
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    return render(request, "arbiter/pairs.html", {"tournament": tournament, "table": table,
                                                  "membership_flags": member_links.player_flag_lines(tournament)})


@arbiter_view
def pair_add(request, tournament):
    """Register a pair before round 1 is drawn. Once the tournament has started the page
    says so before the form (no form that could only be refused): a late pair enters only
    during round 1, to complete the incomplete table (art. 33), from the late-pair page."""
    if request.method != "POST" and tournament.rounds.exists():
        late_refusal = services.late_pair_refusal(tournament)
        return render(request, "arbiter/refused.html", {
            "tournament": tournament, "title": _("Nuova coppia"),
            "refusal": _("Il torneo è già iniziato: non si aggiungono coppie dalla pagina delle coppie."),
            "hint": late_refusal or _("Una coppia tardiva può entrare solo durante il turno 1, per completare "
                                      "il tavolo zoppo (art. 33): usa «Coppia tardiva»."),
            "other_url": None if late_refusal else reverse("late_pair", args=[tournament.slug]),
            "other_label": _("Coppia tardiva (tavolo zoppo)"),
            "back_url": reverse("pairs", args=[tournament.slug]), "back_label": _("Torna alle coppie"),
        })
    form = PairForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            pair = services.add_pair(tournament=tournament, players=form.players(), by=request.user,
                                     number=form.cleaned_data["number"])
        except ArbiterError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Coppia %(n)s aggiunta.") % {"n": pair.number})
            if "another" in request.POST:
                return redirect("pair_add", slug=tournament.slug)
            return redirect("pairs", slug=tournament.slug)
    return render(request, "arbiter/pair_form.html", {"tournament": tournament, "form": form})


@arbiter_view
def pair_edit(request, tournament, number):
    """Edit a pair. Once it has played (art. 32) the service refuses a substitution:
    filled membership numbers stay, names only respelt; the page says so."""
    pair = get_object_or_404(_pairs_queryset(tournament), number=number)
    form = PairForm(request.POST or None, initial=PairForm.initial_for(pair), tournament=tournament, pair=pair)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_pair(pair=pair, players=form.players(), by=request.user,
                                 number=form.cleaned_data["number"] or pair.number)
        except ArbiterError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Coppia salvata."))
            return redirect("pairs", slug=tournament.slug)
    return render(request, "arbiter/pair_form.html", {"tournament": tournament, "form": form, "pair": pair,
                                                      "played": services.pair_has_played(pair)})


@arbiter_view
def pair_remove(request, tournament, number):
    pair = get_object_or_404(_pairs_queryset(tournament), number=number)
    if request.method == "POST":
        services.remove_pair(pair=pair, by=request.user)
        messages.success(request, _("Coppia %(n)s cancellata.") % {"n": number})
        return redirect("pairs", slug=tournament.slug)
    return render(request, "arbiter/confirm.html", {
        "tournament": tournament,
        "title": _("Cancellare la coppia %(n)s?") % {"n": number},
        "text": pair.full_name,
        "button": _("Cancella"),
    })


SESSION_IMPORT = "arbitro_import"


@arbiter_view
def registrations_import(request, tournament):
    """Upload → preview with every row and every error → confirm (all-or-nothing).

    The file is parsed once, at the preview: its checked rows wait on disk
    (``previews.dumps`` → ``previews.store_upload``: ``var/imports/``, a
    random name) and the confirmation imports them (checked again only against numbers and
    membership numbers entered meanwhile); the session keeps only that name, the tournament and the file's name
    (the file itself in the session made every request of the arbiter carry it). More than
    2000 pairs is refused at the preview.

    Once the tournament has started (``services.registration_import_refusal``) the page
    says so instead of the upload form, and an upload or a confirmation is refused (400)
    before any preview, the waiting file discarded.
    """
    form = ImportForm()
    parsed = None
    closed = services.registration_import_refusal(tournament)
    if closed:
        stored = request.session.pop(SESSION_IMPORT, None)
        if isinstance(stored, dict):
            previews.discard_upload(stored.get("file"))
        return render(request, "arbiter/import.html", {"tournament": tournament, "closed": closed},
                      status=400 if request.method == "POST" else 200)
    if request.method == "POST" and "confirm" in request.POST:
        stored = request.session.get(SESSION_IMPORT)
        data = previews.load_upload(stored.get("file")) if isinstance(stored, dict) else None
        if data is None or stored.get("tournament") != tournament.pk:
            request.session.pop(SESSION_IMPORT, None)
            messages.error(request, _("Carica di nuovo il file."))
            return redirect("import", slug=tournament.slug)
        rows = previews.loads(kind_of(tournament), data)
        if rows is None:
            previews.discard_upload(stored.get("file"))
            request.session.pop(SESSION_IMPORT, None)
            messages.error(request, _("Carica di nuovo il file."))
            return redirect("import", slug=tournament.slug)
        # the rows the preview parsed and checked (parsed once), checked again only
        # against what the tournament gained meanwhile
        parsed = reading.ParsedFile(rows=rows,
                                    errors=previews.changed_since_preview(kind_of(tournament), tournament, rows))
        if parsed.ok:
            try:
                # the kind's import: import_pairs, import_players or import_teams
                count = services.ENTRANT_IMPORTERS[tournament.kind](tournament=tournament, rows=parsed.rows, by=request.user)
                message = wording.by_kind(tournament, pairs=_("%(n)s coppie importate."),
                                          individual=_("%(n)s giocatori importati."),
                                          teams=_("%(n)s squadre importate."))
            except ArbiterError as exc:  # a database refusal, in words; nothing was saved
                parsed.errors.append(exc.message)
                return render(request, "arbiter/import.html",
                              {"tournament": tournament, "form": form, "parsed": parsed}, status=400)
            previews.discard_upload(stored["file"])
            del request.session[SESSION_IMPORT]
            messages.success(request, message % {"n": count})
            return redirect("pairs", slug=tournament.slug)
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            data = upload.read()
            parsed = kind_of(tournament).parse_registrations(tournament, upload.name, data)
            previous = request.session.pop(SESSION_IMPORT, None)
            if isinstance(previous, dict):
                previews.discard_upload(previous.get("file"))
            if parsed.ok:
                request.session[SESSION_IMPORT] = {
                    "tournament": tournament.pk, "name": upload.name[:200],
                    "file": previews.store_upload(previews.dumps(
                        kind_of(tournament), parsed.rows)),
                }
    return render(request, "arbiter/import.html", {"tournament": tournament, "form": form, "parsed": parsed,
                                                   **_membership_context(tournament, parsed)})


def _membership_context(tournament, parsed) -> dict:
    """The flagged players of a checked registration file (rules.md §16: unknown or expired
    numbers, players without one): ``membership_refusals``, the lines («Riga R: tessera N
    sconosciuta», «Riga R: Cognome Nome senza tessera») the tournament's settings refuse (then
    nothing is imported), and ``membership_flags``, those left to the arbiter."""
    if parsed is None or not parsed.ok:
        return {}
    flags = member_links.row_flags(tournament, parsed.rows)
    return {"membership_flags": [line for line, refused in flags if not refused],
            "membership_refusals": [line for line, refused in flags if refused]}


@arbiter_view
def audit_log(request, tournament):
    """``/registro/``: the tournament's audit trail, newest first, 500 entries at most.

    Filters (GET, :mod:`tournaments.pages.audit`): ``round`` and ``table`` numbers,
    ``entrant`` (the pair's, player's or team's number: entries naming it and those of the
    tables where it sat), ``action`` (a kind of action: score, rounds, penalties…), ``who`` ("arbiter:<name>",
    "captain", "system"). A value that is not a whole number from 1 to 32767, or not one
    of the choices offered, is ignored (never a 500).
    """
    filters = pages.audit.read_filters(tournament, request.GET)
    entries = pages.audit.filtered_entries(tournament, filters)
    return render(request, "arbiter/audit.html", {
        "tournament": tournament, "entries": entries[:500], "filters": filters,
        "round": filters.round, "table": filters.table,
        "round_choices": pages.audit.round_choices(tournament),
        "entrant_choices": sorted(selectors.entrant_names(tournament).items()),
        "entrant_label": wording.by_kind(tournament, pairs=_("Coppia"), individual=_("Giocatore"),
                                         teams=_("Squadra")),
        "action_choices": pages.audit.action_choices(tournament),
        "who_choices": pages.audit.who_choices(tournament),
    })


@arbiter_view
def tournament_arbiters(request, tournament):
    """The tournament's arbiters and a form to add a co-director by username
    (``services.add_arbiter``, audited). Only its arbiters (and superusers) reach it."""
    form = ArbiterAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.add_arbiter(tournament=tournament, username=form.cleaned_data["username"],
                                        by=request.user)
        except ArbiterError as exc:
            form.add_error("username", exc.message)
        else:
            messages.success(request, _("%(username)s ora è arbitro del torneo.") % {"username": user.get_username()})
            return redirect("tournament_arbiters", slug=tournament.slug)
    return render(request, "arbiter/arbiters.html", {
        "tournament": tournament, "form": form,
        "arbiters": tournament.arbiters.order_by("username"),
    })
