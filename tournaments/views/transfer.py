"""The arbiter's export and import of a whole tournament.

- ``/tornei/<slug>/esporta/``: what the file holds (secret: captains' links and PINs) and
  the download, for the tournament's arbiters only (``arbiter_view``);
- ``/tornei/importa-file/``: upload a file (the page also lists the user's tournaments with
  their export pages); the importing arbiter becomes the new tournament's owner and only
  arbiter (no account of the file is applied or created). A refusal is shown on the page with every problem; nothing is
  created.
"""
from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubs import access

from .. import selectors, transfer
from ..errors import ArbiterError
from ..forms import TournamentFileForm
from .common import arbiter_view


@arbiter_view
def tournament_export(request, tournament):
    """The export page: the download button, the secret warning, a link to the import."""
    return render(request, "arbiter/transfer_export.html", {"tournament": tournament,
                                                             "version": transfer.VERSION})


@arbiter_view
def tournament_export_file(request, tournament):
    """The tournament's file (``transfer.export_tournament``) as a download, never cached."""
    response = HttpResponse(transfer.export_tournament(tournament), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    response["Cache-Control"] = "no-store"
    return response


@arbiter_view
def tournament_import(request):
    """Upload form → ``transfer.import_tournament`` (owner: the user) → the new tournament.

    A refusal (unknown version, slug taken, invalid values) re-renders the form with the
    message and each problem, the typed new slug and name kept; the database is untouched.
    Without a typed short address, a file address already used here becomes "…-copia"
    (``-copia-2``, …), said in the success message; a typed address that is taken is refused
    and asks for another in the page's field (not the command line's ``--slug``). Without a
    typed name, a name already used here gets " (copia)"."""
    form = TournamentFileForm(request.POST or None, request.FILES or None)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            result = transfer.import_tournament(
                data=form.cleaned_data["file"].read(), slug=form.cleaned_data["slug"] or None,
                name=form.cleaned_data["name"].strip() or None, rename_if_taken=True,
                reslug_if_taken=True, owner=request.user, by=request.user,
                club=access.current_club(request),  # the uploader's current club (rules.md §20)
            )
        except transfer.SlugTakenError as exc:
            error = ArbiterError(_("Esiste già un torneo con l'indirizzo breve «%(slug)s»: scrivine un altro nel "
                                   "campo «Nuovo indirizzo breve» e importa di nuovo il file. Nulla è stato "
                                   "importato.") % {"slug": exc.slug})
            form.add_error("slug", _("Scrivi un indirizzo breve non ancora usato."))
        except ArbiterError as exc:
            error = exc
        else:
            if not form.cleaned_data["slug"] and result.tournament.slug != result.file_slug:
                messages.success(request, _(
                    "Torneo «%(name)s» importato con l'indirizzo breve «%(slug)s»: «%(file_slug)s», quello del "
                    "file, è già usato su questo server.") % {"name": result.tournament.name,
                                                               "slug": result.tournament.slug,
                                                               "file_slug": result.file_slug})
            else:
                messages.success(request, _("Torneo «%(name)s» importato.") % {"name": result.tournament.name})
            for message in result.messages:
                messages.warning(request, message)
            return redirect("tournament", slug=result.tournament.slug)
    status = 400 if error is not None else 200
    return render(request, "arbiter/transfer_import.html", {
        "form": form, "error": error,
        "tournaments": selectors.listed_tournaments_of(request.user).order_by("-date", "-created_at"),
    }, status=status)
