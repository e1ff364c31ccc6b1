"""The demo that ``make run`` prepares (``manage.py seed_demo``): its registration file
(``registrations-29.csv`` beside this module) and the steps the apps above ``tournaments``
add to it (the cash desk's fees, an evening with open bookings: rules.md §21), so that
``tournaments`` need not import them (``.importlinter``).

A step is ``step(user)``: it finds or makes what it needs (the demo tournament has the slug
:data:`DEMO_SLUG`) and does nothing when that is already there (``seed_demo`` runs at every
``make run``). Apps register theirs in ``AppConfig.ready``.

:mod:`.simulation` plays random tournaments through the services (``manage.py simulate``, the
demo's rounds, the tests and benches that need a played tournament).
"""
from __future__ import annotations

from typing import Callable

#: The demo tournament's address.
DEMO_SLUG = "demo"

_STEPS: list[Callable] = []


def add_step(step: Callable) -> None:
    """Run ``step(user)`` after the demo tournament is made (once per registration)."""
    if step not in _STEPS:
        _STEPS.append(step)


def extra_steps() -> list[Callable]:
    """The registered steps, in the order the apps were loaded."""
    return list(_STEPS)
