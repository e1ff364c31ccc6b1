"""The arbiter's prize page (rules.md §18): the list with who wins each prize now, editing
it (one prize a line, «name | scope»), the cumulative setting, copying a list from another
of his tournaments, and the ceremony's PDF; and the final results for the federation."""
from __future__ import annotations

import re

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import prizes as prize_rules

from .. import pages, selectors
from ..errors import ArbiterError
from ..printing import federation
from ..printing.documents import html_to_pdf, long_date
from ..selectors import tournaments_of
from ..services import prizes as prize_services
from ..services import update_tournament
from ..services.federation import record_results_download
from .common import arbiter_view

MAX_TEXT = 20_000
# a prize's money after a third «|» (rules.md §21): «50%» a share of the pool, «40.00» euro
_MONEY = re.compile(r"^\s*(\d{1,6}(?:[.,]\d{1,2})?)\s*(%|€)?\s*$")


def parse_prize_lines(text: str) -> list[dict]:
    """The page's text, one prize a line ``1° assoluto | assoluto`` (scope after the last
    ``|``: ``assoluto``/``overall``, ``girone:2``/``group:2``, ``categoria:Dame``/``category:Dame``),
    optionally followed by its money (rules.md §21): ``| 50%`` a share of the pool, ``| 40.00``
    euro; blank lines skipped, as the list the service takes. Raises ``ArbiterError`` for a
    line without ``|``."""
    if len(text) > MAX_TEXT:
        raise ArbiterError(_("Elenco dei premi troppo lungo."))
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, sep, scope = line.rpartition("|")
        if not sep:
            raise ArbiterError(_("Riga %(n)s: scrivi «nome del premio | ambito», es. «1° assoluto | assoluto».")
                               % {"n": number})
        money = _MONEY.match(scope) if "|" in name else None
        if money:
            name, _sep, scope = name.rpartition("|")
        item = {"prize": name.strip(), "scope": scope.strip()}
        if money:
            value = money.group(1).replace(",", ".")
            item["share" if money.group(2) == "%" else "amount"] = value
        out.append(item)
    return out


def prize_lines_text(prize_list: list[dict]) -> str:
    """The stored list back as the page's text, one «name | scope» a line (then « | 50%» or
    « | 40.00» for a prize in money, rules.md §21), the scopes in the words the page's help
    text teaches in the reader's language (``assoluto``, ``girone:2``, ``categoria:Dame`` in
    Italian; the stored English words in English), so a saved or copied list reads as the
    arbiter would type it."""
    language = (get_language() or "it")[:2]
    return "\n".join(prize_rules.prize_line(p, language) for p in prize_list)


@arbiter_view
def prizes(request, tournament):
    """``/tornei/<slug>/premi/``: GET shows; POST ``action=save`` (text, cumulative) or
    ``action=copy`` (``source`` slug, one of the arbiter's tournaments)."""
    text = prize_lines_text(tournament.prize_list)
    if request.method == "POST":
        if request.POST.get("action") == "copy":
            source = tournaments_of(request.user).filter(slug=request.POST.get("source", "")).first()
            if source is None:
                messages.error(request, _("Scegli uno dei tuoi tornei."))
            else:
                prize_services.copy_prize_list(tournament=tournament, source=source, by=request.user)
                messages.success(request, _("Premi copiati da «%(name)s».") % {"name": source.name})
                return redirect("prizes", slug=tournament.slug)
        else:
            text = request.POST.get("prizes", "")
            try:
                prize_services.set_prize_list(tournament=tournament, by=request.user, prizes=parse_prize_lines(text))
                update_tournament(tournament=tournament, by=request.user,
                                  prizes_cumulative=request.POST.get("cumulative") == "on")
            except ArbiterError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Premi salvati."))
                return redirect("prizes", slug=tournament.slug)
    tournament.refresh_from_db()
    sources = (tournaments_of(request.user).exclude(pk=tournament.pk).exclude(prize_list=[])
               .order_by("-date", "-created_at")[:100])
    return render(request, "arbiter/prizes.html", {
        "tournament": tournament, "awards": pages.prizes.prize_awards(tournament), "text": text,
        "sources": sources})


@arbiter_view
def prizes_pdf(request, tournament):
    """The prize list with its winners for the ceremony (A4), from the current standings."""
    from django.template.loader import render_to_string


    view = selectors.standings_after(tournament)
    html = render_to_string("print/prizes.html", {
        "tournament": tournament, "awards": pages.prizes.prize_awards(tournament, view),
        "final": view.final, "after": view.after_round, "date_text": long_date(tournament.date)})
    response = HttpResponse(html_to_pdf(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="premi-{tournament.slug}.pdf"'
    return response


@arbiter_view
def federation_results(request, tournament, fmt: str):
    """``documenti/federazione.xlsx`` / ``.csv``: the results for the federation
    (``tournaments.printing.federation``), after the last closed round. The first download
    of a closed tournament's file is recorded (who, when) for the federation's view."""
    if fmt == "csv":
        data, kind = federation.results_csv(tournament), "text/csv; charset=utf-8"
    else:
        data, kind = federation.results_xlsx(tournament), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    response = HttpResponse(data, content_type=kind)
    response["Content-Disposition"] = f'attachment; filename="federazione-{tournament.slug}.{fmt}"'
    # the federation's deadline (rules.md §20) counts from the first download, who and when
    record_results_download(tournament, request.user, fmt)
    return response
