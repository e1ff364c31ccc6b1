"""What a captain's phone and the live board show of a table's call to the arbiter, and the
short tag of it that the captain page's ETag carries (so «Arrivo» reaches the phone at its
next poll, even through the one-query 304 path)."""
from __future__ import annotations

from django.db.models import OuterRef, Subquery

from ..models import ArbiterCall, Table


def call_json(call: ArbiterCall | None) -> dict | None:
    """``{"id", "state": "open"|"taken"|"resolved", "state_label", "reason", "reason_label",
    "called_at": ISO time}`` of the table's latest call, or None (never called)."""
    if call is None:
        return None
    return {"id": call.pk, "state": call.state, "state_label": str(call.get_state_display()),
            "reason": call.reason, "reason_label": str(call.get_reason_display()) if call.reason else "",
            "called_at": call.called_at.isoformat()}


def latest_call(table: Table) -> ArbiterCall | None:
    """The table's most recent call (open, taken or resolved), or None."""
    return ArbiterCall.objects.filter(table=table).order_by("-id").first()


def call_tag(call_id, state) -> str:
    """The call's part of the captain page's ETag: ``"c0"`` without a call, else id and state."""
    return f"c{call_id or 0}.{state or ''}"


def latest_call_columns():
    """Annotations for a ``Table`` query: ``call_id`` and ``call_state`` of its latest call (two
    subqueries, no join that would multiply the row)."""
    latest = ArbiterCall.objects.filter(table=OuterRef("pk")).order_by("-id")
    return {"call_id": Subquery(latest.values("id")[:1]), "call_state": Subquery(latest.values("state")[:1])}
