"""What the tables' calls («Chiama l'arbitro») look like on the arbiter's screens: one call as
the live board and the bar at the top of every arbiter page show it, and the bar's content
with its ETag (``views/desk_calls.py`` serves it, ``templatetags/desk_calls.py`` puts it in
the base template). Kept out of the views so the template tag may use it."""
from __future__ import annotations

import hashlib

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..models import ArbiterCall
from ..server import timesource


def tournament_calls(tournament_id: int) -> list[ArbiterCall]:
    """The calls of every round of tournament ``tournament_id`` not yet resolved, oldest first,
    with their tables and rounds: what the bar at the top of the arbiter's pages shows. One
    query (no call open: an empty list, nothing else read)."""
    return list(ArbiterCall.objects.filter(round__tournament_id=tournament_id)
                .exclude(state=ArbiterCall.State.RESOLVED)
                .select_related("table", "round").order_by("called_at", "id"))


def round_calls(rnd) -> list[ArbiterCall]:
    """The calls of ``rnd`` (a ``Round``) not yet resolved, oldest first, with their tables:
    what the live board lists."""
    return list(ArbiterCall.objects.filter(round=rnd).exclude(state=ArbiterCall.State.RESOLVED)
                .select_related("table").order_by("called_at", "id"))


def call_row(call: ArbiterCall, now) -> dict:
    """One call for the board and the desk's bar: ``{"id", "table", "state", "reason" (label or
    ""), "minutes" (whole minutes since the call at ``now``), "since" ("ora" / "da 3 min")}``."""
    minutes = max(int((now - call.called_at).total_seconds() // 60), 0)
    since = _("ora") if minutes == 0 else _("da %(m)s min") % {"m": minutes}
    return {"id": call.pk, "table": call.table.number, "state": call.state,
            "reason": str(call.get_reason_display()) if call.reason else "",
            "minutes": minutes, "since": since}


#: Seconds between two polls of the bar (the board polls every 3 s; a desk page is open much
#: longer and in several windows, and a call waits for a person to walk to the table).
POLL_SECONDS = 5


def desk_calls_context(tournament, slug: str) -> dict:
    """What the bar shows for tournament ``tournament`` (its id) with address ``slug``:
    ``{"desk_calls": [call_row dict + "round", "take_url", "resolve_url"], "desk_calls_etag",
    "desk_calls_url", "desk_calls_poll_ms"}``. The ETag follows every call, answer and
    resolution and, while a call waits, its minutes (so «da 3 min» moves on); one query."""
    now = timesource.now()
    rows = []
    for call in tournament_calls(tournament):
        row = call_row(call, now)
        number = call.round.number
        row.update(round=number,
                   take_url=reverse("board_call_take", args=[slug, number, call.pk]),
                   resolve_url=reverse("board_call_resolve", args=[slug, number, call.pk]))
        rows.append(row)
    key = ";".join(f"{r['id']}.{r['state']}.{r['minutes']}" for r in rows)
    digest = hashlib.sha1(f"{tournament}|{key}".encode()).hexdigest()[:16]
    return {"desk_calls": rows, "desk_calls_etag": f'"calls-{digest}-{get_language() or "it"}"',
            "desk_calls_url": reverse("desk_calls", args=[slug]), "desk_calls_poll_ms": POLL_SECONDS * 1000}
