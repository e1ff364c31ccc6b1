"""``/tornei/<slug>/elimina/``: deleting a whole tournament.

GET shows what would go (entrants, rounds, sheets) and asks to type the tournament's short
address; only a POST with that address deletes, through ``services.delete_tournament``,
which first writes the tournament's export into the backups folder. The owner
(``created_by``) and superusers only: a co-director sees why not (403); other arbiters get
the 404 of every page of a tournament they do not direct (``arbiter_view``).
"""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import services
from ..errors import ArbiterError
from .common import arbiter_view


class DeleteConfirmForm(forms.Form):
    """The short address typed to confirm (compared by the service)."""

    typed_slug = forms.CharField(label=gettext_lazy("Indirizzo breve del torneo"), max_length=80, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        attrs = self.fields["typed_slug"].widget.attrs
        attrs.update({"autocapitalize": "none", "autocomplete": "off", "spellcheck": "false"})


@arbiter_view
def tournament_delete(request, tournament):
    """The confirmation page (GET) and the deletion (POST, CSRF): on success the tournaments
    list with where the backup file is; a wrong address re-renders the page (400), nothing
    deleted."""
    allowed = services.may_delete(request.user, tournament)
    form = DeleteConfirmForm(request.POST or None)
    error = None
    if allowed and request.method == "POST" and form.is_valid():
        try:
            result = services.delete_tournament(tournament=tournament, by=request.user,
                                                typed_slug=form.cleaned_data["typed_slug"])
        except ArbiterError as exc:
            error = exc.message
        else:
            messages.success(request, _("Torneo «%(name)s» eliminato. Una copia completa (registro compreso) è "
                                        "nel file di backup %(path)s: si reimporta da «Importa torneo da file».")
                             % {"name": result.name, "path": result.backup})
            return redirect("home")
    status = 403 if not allowed else (400 if request.method == "POST" else 200)
    return render(request, "arbiter/tournament_delete.html", {
        "tournament": tournament, "allowed": allowed, "form": form, "error": error,
        "summary": services.deletion_summary(tournament),
    }, status=status)
