"""The federation's view (rules.md §20): every club's tournaments of a period with their
state, those past the federation's 10-day deadline, and one download of every club's results
of a period (CSV, XLSX).

Read-only: only GET and HEAD are answered (a POST gets 405), nothing is written — the
federation's own download records nothing (the record of a results file's first download is
the club's, made when its arbiter downloads the tournament's file). Superusers and accounts
with the federation role only; anyone else gets 404, as if the page did not exist.
"""
from __future__ import annotations

import datetime
import os
import tempfile
from functools import wraps

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from clubs.access import is_federation

from ..printing import federation as federation_file
from ..selectors import federation as reads

#: The default period: the last 30 days, today included.
DEFAULT_DAYS = 30
#: The longest period one page or download covers (a year, leap day included).
MAX_DAYS = 366

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class PeriodForm(forms.Form):
    """The period of the federation's page: ``dal``–``al`` (ISO dates), at most a year."""

    dal = forms.DateField(label=gettext_lazy("Dal"), required=False, input_formats=["%Y-%m-%d"])
    al = forms.DateField(label=gettext_lazy("Al"), required=False, input_formats=["%Y-%m-%d"])

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        today = timezone.localdate()
        end = data.get("al") or today
        start = data.get("dal") or end - datetime.timedelta(days=DEFAULT_DAYS)
        if start > end:
            raise forms.ValidationError(_("La data iniziale viene dopo quella finale."))
        if (end - start).days >= MAX_DAYS:
            raise forms.ValidationError(_("Il periodo è al massimo di un anno."))
        data["dal"], data["al"] = start, end
        return data


def federation_view(view):
    """Login required; GET and HEAD only (405 otherwise); 404 unless the account has the
    federation's view (``clubs.access.is_federation``)."""

    @login_required
    @require_safe
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_federation(request.user):
            raise Http404
        return view(request, *args, **kwargs)

    return wrapper


def _period(request):
    """(form, start, end): the period asked, or the default (last 30 days) with the form's
    errors when the input is not a valid period."""
    form = PeriodForm(request.GET or None)
    if form.is_bound and form.is_valid():
        return form, form.cleaned_data["dal"], form.cleaned_data["al"]
    end = timezone.localdate()
    return form, end - datetime.timedelta(days=DEFAULT_DAYS), end


@federation_view
def overview(request):
    """``/federazione/``: the period's tournaments of every club (club, date, kind, state,
    results file downloaded by whom and when) and the section «oltre i 10 giorni»."""
    form, start, end = _period(request)
    if not form.is_bound:
        form = PeriodForm(initial={"dal": start, "al": end})
    rows = reads.period_rows(start, end)
    return render(request, "federation/overview.html", {
        "form": form, "start": start, "end": end, "rows": rows,
        "closed_count": sum(1 for r in rows if r.closed),
        "overdue": reads.overdue_rows(), "deadline_days": reads.DEADLINE_DAYS,
        "query": f"dal={start.isoformat()}&al={end.isoformat()}"})


@federation_view
def download(request, fmt: str):
    """``/federazione/risultati.csv`` / ``.xlsx``: every club's closed tournaments of the
    period (``dal``, ``al`` as the page; a bad period answers the page with its sentence),
    the federation file's columns plus the club's name and federation code. CSV streamed;
    XLSX written row by row to a temporary file, then streamed."""
    form, start, end = _period(request)
    if form.is_bound and not form.is_valid():
        return overview(request)
    ids = reads.closed_ids(start, end)
    name = f"federazione-{start.isoformat()}-{end.isoformat()}.{fmt}"
    if fmt == "csv":
        response = StreamingHttpResponse(federation_file.period_csv_chunks(ids),
                                         content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    handle = tempfile.TemporaryFile(suffix=".xlsx")
    try:
        federation_file.period_xlsx_file(ids, handle)
        handle.seek(0, os.SEEK_SET)
    except BaseException:
        handle.close()
        raise
    return FileResponse(handle, as_attachment=True, filename=name, content_type=XLSX_TYPE)
