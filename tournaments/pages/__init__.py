"""Page reads: the reads that need the tournament kinds (``tournaments.kinds``), in a layer
above them and below the services and views: ``prizes`` (rules.md §18), ``audit`` (the
Registro's filters), ``groups`` (the standings per group, rules.md §14)."""
from __future__ import annotations

from . import audit, groups, prizes

__all__ = ["audit", "groups", "prizes"]
