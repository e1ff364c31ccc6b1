"""Pages of the member registry (rules.md §16). Personal data: every page needs a logged-in
arbiter of the server; nothing here is public. Each page is of ONE club's registry (§20):
the arbiter's current club (``clubs.access.current_club``), and a member of another club
answers 404."""
from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs import access

from . import importer, selectors, services
from .forms import MemberForm, MemberListForm, MergeForm
from .models import MAX_MEMBERS, Member
from .numbers import membership_number_refusal, normal_membership_number


def _club(request):
    """The club whose registry the page shows: the arbiter's current club; an account
    working for no club is refused (403)."""
    club = access.current_club(request)
    if club is None:
        raise PermissionDenied(_("Il tuo account non è arbitro di nessun circolo."))
    return club


def _member(request, pk) -> Member:
    """Member ``pk`` when he belongs to a club the arbiter works for, else 404."""
    return get_object_or_404(Member, pk=pk, club__in=access.clubs_of(request.user))


@login_required
def registry(request):
    """``/soci/``: the current club's members; search by name or number (``?q=``), 100 a
    page."""
    club = _club(request)
    query = request.GET.get("q", "")[:100]
    page = Paginator(selectors.registry(query, club=club), 100).get_page(request.GET.get("page"))
    today = timezone.localdate()
    for member in page:  # the «scaduta» badge (rules.md §16: expired before today)
        member.expired = selectors.expired(member, today)
    return render(request, "members/registry.html", {
        "query": query, "page": page, "total": selectors.club_members(club).count(), "cap": MAX_MEMBERS,
        "lists": selectors.any_list_imported(club=club)})


@login_required
@require_GET
def search_json(request):
    """``/soci/cerca/?q=``: proposals while typing in a registration form
    (``selectors.propose``), JSON ``{"query": q, "members": [{"id", "membership_number",
    "last_name", "first_name", "club"}]}``, at most 10 members; ``query`` is the text answered
    (``q`` cut to 100 characters), so that the page drops an answer to a text no longer in the
    box. Fewer than 2 characters propose nothing.

    ``club`` (a club's id, the tournament's club on a tournament's page) chooses the registry
    (rules.md §20: the tournament's club, an arbiter may work for two); without it, the
    arbiter's current club. A club he does not work for (or a malformed id) proposes nothing."""
    query = request.GET.get("q", "")[:100]
    asked = request.GET.get("club", "").strip()
    if asked:
        club = access.clubs_of(request.user).filter(pk=int(asked)).first() if asked.isascii() and asked.isdecimal() \
            and len(asked) < 18 else None
    else:
        club = access.current_club(request)
    hits = selectors.propose(query, club=club, limit=10) if club is not None and len(query.strip()) >= 2 else []
    return JsonResponse({"query": query, "members": [
        {"id": m.pk, "membership_number": m.membership_number or "", "last_name": m.last_name,
         "first_name": m.first_name, "club": m.registered_club} for m in hits]})


@login_required
def member_add(request):
    """A member added by hand to the current club's registry."""
    club = _club(request)
    form = MemberForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            member = services.create_member(data=form.data_object(), by=request.user, club=club)
        except services.MemberError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Socio aggiunto."))
            return redirect("members:detail", pk=member.pk)
    return render(request, "members/form.html", {"form": form})


@login_required
def member_detail(request, pk):
    """A member, his evenings, and the actions on him (edit, merge, export, erase)."""
    member = _member(request, pk)
    form = MemberForm(request.POST or None, initial=MemberForm.initial_for(member))
    if request.method == "POST" and not member.erased_at and form.is_valid():
        try:
            services.update_member(member=member, data=form.data_object(), by=request.user)
        except services.MemberError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Socio salvato."))
            return redirect("members:detail", pk=member.pk)
    return render(request, "members/detail.html", {
        "member": member, "expired": selectors.expired(member, timezone.localdate()), "form": form, "evenings": selectors.evenings(member), "merge_form": MergeForm()})


def _other_member(text: str, club_id: int) -> Member | None:
    """The member ``text`` names (``#id`` or a membership number) in the club ``club_id``."""
    text = text.strip()
    members = Member.objects.filter(club_id=club_id)
    if text.startswith("#") and text[1:].isascii() and text[1:].isdecimal() and len(text) < 20:
        return members.filter(pk=int(text[1:])).first()
    number = membership_number_refusal(text) is None and normal_membership_number(text)
    return members.filter(membership_number=number).first() if number else None


@login_required
def member_merge(request, pk):
    """Merge another member into this one (the same person registered twice): a
    confirmation page naming both, then the merge."""
    keep = _member(request, pk)
    form = MergeForm(request.POST or request.GET or None)
    if not form.is_valid():
        return redirect("members:detail", pk=keep.pk)
    other = _other_member(form.cleaned_data["other"], keep.club_id)
    if other is None:
        messages.error(request, _("Nessun socio con tessera o numero «%(text)s».") % {"text": form.cleaned_data["other"]})
        return redirect("members:detail", pk=keep.pk)
    if request.method == "POST" and "confirm" in request.POST:
        try:
            services.merge_members(keep=keep, merged=other, by=request.user)
        except services.MemberError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Soci uniti: tutte le serate sono di %(name)s.") % {"name": keep.display_name})
        return redirect("members:detail", pk=keep.pk)
    return render(request, "members/merge_confirm.html", {"keep": keep, "other": other,
                                                          "other_text": form.cleaned_data["other"]})


@login_required
def member_export(request, pk):
    """The member's data as a JSON download (his own copy, on request)."""
    member = _member(request, pk)
    body = json.dumps(services.export_member_data(member), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="socio-{member.pk}.json"'
    return response


@login_required
def member_erase(request, pk):
    """Erase a member on request: a confirmation page, then every record says «Socio
    cancellato #id» (``services.erase_member``)."""
    member = _member(request, pk)
    if request.method == "POST":
        try:
            services.erase_member(member=member, by=request.user)
        except services.MemberError as exc:
            messages.error(request, exc.message)
        except OSError as exc:
            messages.error(request, _("Cancellazione non riuscita (backup non riscrivibile): %(error)s") % {"error": exc})
        else:
            messages.success(request, _("Socio cancellato: i tornei, il registro e i backup non lo nominano più."))
        return redirect("members:detail", pk=member.pk)
    return render(request, "members/erase_confirm.html", {"member": member, "evenings": selectors.evenings(member)})


@login_required
def list_import(request):
    """Upload a member list: every error with its row (nothing imported), else imported at
    once (all or nothing) with the counts of new and updated members, into the current
    club's registry."""
    club = _club(request)
    form = MemberListForm(request.POST or None, request.FILES or None)
    parsed = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        parsed = importer.parse(upload.name, upload.read(), club=club)
        if parsed.ok:
            created, updated = importer.save(parsed, club=club, by=request.user, filename=upload.name[:200])
            messages.success(request, _("Soci importati: %(created)s nuovi, %(updated)s aggiornati.")
                             % {"created": created, "updated": updated})
            return redirect("members:registry")
    return render(request, "members/import.html", {"form": form, "parsed": parsed, "cap": MAX_MEMBERS})
