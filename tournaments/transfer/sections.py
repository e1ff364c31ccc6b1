"""Sections other apps add to a tournament's file (the money and the bookings of rules.md §21:
``money.transfer``, ``bookings.transfer``), so that tournaments need not import them
(``.importlinter``: those apps sit above tournaments).

A section is a top-level key of the file, written only when the app has something for the
tournament (a file without it is a tournament without that data, and older builds ignore
the key). On import its value is checked with the rest of the file, before any write, and
written in the import's transaction once the players exist.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Section:
    """``export(tournament)`` → a JSON-ready value, or None for nothing to write;
    ``check(value)`` → the checked plan (raises ``ArbiterError`` with a sentence);
    ``write(tournament, plan)`` writes it (inside the import's transaction)."""

    export: Callable[[Any], Any]
    check: Callable[[Any], Any]
    write: Callable[[Any, Any], None]


SECTIONS: dict[str, Section] = {}


def register(name: str, section: Section) -> None:
    """Add (or replace) the section ``name`` (an app's ``ready()`` calls this)."""
    SECTIONS[name] = section


def exported(tournament) -> dict:
    """``{name: value}`` of every section with something for ``tournament``."""
    out = {}
    for name, section in SECTIONS.items():
        value = section.export(tournament)
        if value is not None:
            out[name] = value
    return out


def checked(doc: dict) -> dict:
    """``{name: plan}`` for the sections present in ``doc``; raises ``ArbiterError``."""
    return {name: section.check(doc[name]) for name, section in SECTIONS.items() if doc.get(name) is not None}


def write(tournament, plans: dict) -> None:
    """Write each checked section into the newly imported ``tournament``."""
    for name, plan in plans.items():
        SECTIONS[name].write(tournament, plan)
