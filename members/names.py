"""How a member is recognised by name (rules.md §16): pure functions, no Django."""
from __future__ import annotations

import unicodedata

#: What an erased member (and every record that named him) says instead of name and number.
ERASED_LAST_NAME = "Socio cancellato"


def letters(text: str) -> str:
    """``text`` with case, accents, spaces, apostrophes and every other non-letter, non-digit
    removed: ``"D'Angelo"`` → ``"dangelo"``, ``"Nicolò"`` → ``"nicolo"``, ``"De Luca"`` →
    ``"deluca"``."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in plain if c.isalnum() and not unicodedata.combining(c))


def name_key(last_name: str, first_name: str) -> str:
    """The key two full names share when they are the same name by §16 (case, accents,
    spaces and apostrophes ignored): ``letters(last) + " " + letters(first)``, so
    ``name_key("D'Angelo", "Nicolò") == name_key("dangelo", "NICOLO") == "dangelo nicolo"``.
    Last and first name are not interchangeable."""
    return f"{letters(last_name)} {letters(first_name)}"


def search_terms(query: str) -> list[str]:
    """The words of a search box as keys (:func:`letters` of each blank-separated word;
    empty words dropped): ``"d'Angelo  Nic"`` → ``["dangelo", "nic"]``."""
    return [t for t in (letters(w) for w in query.split()) if t]


def erased_first_name(member_id: int) -> str:
    """The first-name field of an erased member's records: ``"#<id>"``, so that
    "last first" reads «Socio cancellato #id»."""
    return f"#{member_id}"


def erased_label(member_id: int) -> str:
    """«Socio cancellato #id»: what replaces an erased member's name and number."""
    return f"{ERASED_LAST_NAME} {erased_first_name(member_id)}"
