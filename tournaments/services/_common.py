"""What the service modules share: who does a write (:class:`Actor`, :func:`as_actor`).

The module is private to ``tournaments.services`` (other packages take ``Actor`` and
``as_actor`` from the package); its names are public so that no service module imports
another module's private name (``tests/architecture/test_services.py``)."""
from __future__ import annotations

from dataclasses import dataclass


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


def as_actor(by) -> Actor:
    """``by`` as an :class:`Actor`: an ``Actor`` as it is, a user (or ``None``, the system) as
    the arbiter (or the system) doing the write."""
    if isinstance(by, Actor):
        return by
    return Actor.arbiter(by)
