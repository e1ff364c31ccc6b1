"""What every captain URL shares: the table a private link opens, and the rate limits.

A token opens only its own table of its own round (the body never names a table); draft
rounds and unknown tokens are a plain 404 (a draft's tables may still be regenerated).
Unknown tokens are rate-limited per client address (:func:`tournaments.captains.devices.client_ip`,
which reads ``X-Forwarded-For`` only from a proxy named in ``ARBITRO_TRUSTED_PROXIES``), but a
valid link is never refused by that limiter: behind a proxy or a hotspot every phone of the
room shares one address. Tokens have about 190 bits, so guessing them is hopeless anyway.
Writes are rate-limited per token (:data:`WRITE_RATE`). See docs/security.md, "Captain links".
"""
from __future__ import annotations

from functools import wraps

from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django_ratelimit.core import is_ratelimited

from ..models import Round, Table
from ..text import read_json_object
from .devices import client_ip

#: Unknown tokens per client address (a valid link is never counted nor refused).
GUESS_RATE = "30/m"
#: Writes per table link (saves, confirmations, disputes, retries included).
WRITE_RATE = "60/m"

LINES = {"ns": "N/S", "ew": "E/O"}


def captain_label(line: str, table_number: int) -> str:
    """The actor label of a captain in the audit trail: ``"capitano N/S tavolo 3"``.

    ``line``: ``"ns"`` or ``"ew"``. Raises ``KeyError`` for another line.
    """
    return f"capitano {LINES[line]} tavolo {table_number}"


def line_of_label(label: str) -> str | None:
    """``"ns"`` / ``"ew"`` for a captain label made by :func:`captain_label`, else ``None``
    (e.g. the arbiter entered the sheet)."""
    if not label.startswith("capitano "):
        return None
    for code, name in LINES.items():
        if f" {name} " in label:
            return code
    return None


def _guess_blocked(request, *, increment: bool) -> bool:
    return is_ratelimited(
        request, group="captain-guess", key=lambda group, req: client_ip(req), rate=GUESS_RATE,
        method=is_ratelimited.ALL, increment=increment,
    )


def writes_exceeded(request, token: str) -> bool:
    """Count one write on the table link ``token`` (saves, confirmations, disputes, calls share
    :data:`WRITE_RATE`); True when the link is over it and the write must get :func:`too_many`."""
    return is_ratelimited(request, group="captain-write", key=lambda group, req: token, rate=WRITE_RATE,
                          method=is_ratelimited.ALL, increment=True)


def too_many(request) -> HttpResponse:
    message = _("Troppi tentativi: riprova tra un minuto.")
    if request.method == "POST" or request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"error": message}, status=429)
    return HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")


class _Blocked(Exception):
    """This address sent too many unknown tokens: unknown tokens answer 429 for a while."""


def table_for(request, token: str) -> Table:
    """The table of ``token`` with its round, tournament, pairs and sheet.

    Raises Http404 for an unknown token or a table of a draft round (its tables may
    still be regenerated); such a token counts as a guess for the per-address limit, and
    raises ``_Blocked`` (429) once the address made too many. A valid token of a published
    or closed round is never counted nor refused: a whole room may share one address.
    """
    # No default ordering: it would join rounds and tournaments for nothing.
    table = Table.objects.select_related("round__tournament", "sheet").filter(token=token).order_by().first()
    if table is None or table.round.state == Round.State.DRAFT:
        if _guess_blocked(request, increment=True):
            raise _Blocked
        raise Http404
    return table


def limited(view):
    """Answer 429 when the address sent too many unknown tokens (see ``table_for``)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except _Blocked:
            return too_many(request)

    return wrapper



def read_body(request) -> dict:
    """The JSON object of the body; size, nesting and shape capped (``text.read_json_object``)."""
    return read_json_object(request.body)
