"""The audit trail: who did what, when, old → new, why."""
from __future__ import annotations

from dataclasses import dataclass

from ..models import (
    AuditEntry,
    Tournament,
)


@dataclass(frozen=True)
class Actor:
    """Who does a write: a logged-in arbiter (``user``) or a captain (``label``)."""

    label: str
    user: object | None = None

    @classmethod
    def arbiter(cls, user) -> "Actor":
        if user is None:
            return cls(label="sistema")
        name = getattr(user, "get_username", lambda: "")() or "?"
        return cls(label=f"{name} (arbitro)", user=user if getattr(user, "pk", None) else None)

    @classmethod
    def system(cls) -> "Actor":
        return cls(label="sistema")


def _as_actor(by) -> Actor:
    if isinstance(by, Actor):
        return by
    return Actor.arbiter(by)


def audit(
    *,
    tournament: Tournament,
    by,
    action: str,
    old=None,
    new=None,
    reason: str = "",
    round_number: int | None = None,
    table_number: int | None = None,
) -> AuditEntry:
    """Write one audit entry (who, when, what, old → new, why). Call inside the write's transaction."""
    actor = _as_actor(by)
    return AuditEntry.objects.create(
        tournament=tournament,
        user=actor.user,
        actor=actor.label[:80],
        action=action,
        old=old,
        new=new,
        reason=(reason or "")[:300],
        round_number=round_number,
        table_number=table_number,
    )


