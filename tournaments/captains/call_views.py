"""«Chiama l'arbitro» from the captain's page: ``POST /c/<token>/chiama/``.

The token opens only its own table of its own round (as every captain URL): the body names
the reason only; a body that names another table is refused (400) and nothing is stored.
Answers ``200 {"call": {...}, "created": bool}`` (a repeated tap answers the call already
open, ``created`` false), ``400 {"error"}`` when refused (round closed, rest table, unknown
reason, another table), ``429`` when the link writes too often.
"""
from __future__ import annotations

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from .. import services
from ..errors import ArbiterError
from .access import LINES, captain_label, limited, read_body, table_for, too_many, writes_exceeded
from .call_status import call_json


def _caller(data: dict, table_number: int) -> str:
    """The audit label of the caller: the captain of the line he chose, or the table."""
    line = data.get("line")
    if isinstance(line, str) and line in LINES:  # a list or an object is unhashable: a 500 before
        return captain_label(line, table_number)
    return f"tavolo {table_number}"


@require_POST
@never_cache
@limited
def call_view(request, token):
    """Body ``{"reason": "" | "dispute" | "card" | "time" | "other", "line": "ns"|"ew"|null}``."""
    table = table_for(request, token)
    if writes_exceeded(request, token):
        return too_many(request)
    try:
        data = read_body(request)
        named = data.get("table")
        if named not in (None, "") and str(named).strip() != str(table.number):
            raise ArbiterError(_("Questo link chiama l'arbitro solo per il tavolo %(t)s.") % {"t": table.number})
        reason = data.get("reason") or ""
        if not isinstance(reason, str):
            raise ArbiterError(_("Motivo della chiamata non valido."))
        call, created = services.call_arbiter(table=table, reason=reason,
                                              by=services.Actor(label=_caller(data, table.number)))
    except ArbiterError as exc:
        return JsonResponse({"error": exc.message}, status=400)
    return JsonResponse({"call": call_json(call), "created": created})
