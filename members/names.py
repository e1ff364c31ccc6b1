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


def name_words(text: str) -> list[str]:
    """The words of a name field, each read on to the field's end, as keys (rules.md §16:
    case and accents ignored; a word ends at a blank, an apostrophe, a hyphen or any other
    character that is not a letter or a digit): ``"D'Angelo"`` → ``["dangelo", "angelo"]``,
    ``"De Luca"`` → ``["deluca", "luca"]``, ``"Nicolò"`` → ``["nicolo"]``. Reading on lets
    «dangelo» and «deluca» (typed without the apostrophe or the blank) find the name as
    «angelo» and «luca» do."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    parts, word = [], []
    for c in plain:
        if unicodedata.combining(c):
            continue
        if c.isalnum():
            word.append(c)
        elif word:
            parts.append("".join(word))
            word = []
    if word:
        parts.append("".join(word))
    return ["".join(parts[i:]) for i in range(len(parts))]


def member_words(last_name: str, first_name: str, membership_number: str | None) -> list[str]:
    """Every word a member can be proposed by while typing (rules.md §16): the
    :func:`name_words` of his surname and of his first name, and his membership number as one
    word (:func:`letters`: case and separators ignored). A blank number adds no word."""
    number = letters(membership_number or "")
    return name_words(last_name) + name_words(first_name) + ([number] if number else [])


def words_match(terms: list[str], words: list[str]) -> bool:
    """Whether every one of ``terms`` (:func:`search_terms` of the box) is the start of a
    DIFFERENT one of ``words`` (:func:`member_words`): ``["ferrari", "l"]`` matches Ferrari
    Luca, not Ferrari Carla («l» starts none of her words; «ferrari» cannot be used twice).
    No terms match nothing. A matching of terms to words (augmenting paths), so that an
    early term taking a word a later one needs cannot hide a match: ``["l", "lucc"]`` matches
    Lucchesi Luca although «l» tries the surname first."""
    if not terms or len(terms) > len(words):
        return False
    owner: list[int | None] = [None] * len(words)  # owner[j]: the term that took words[j]

    def place(i: int, seen: set[int]) -> bool:
        for j, word in enumerate(words):
            if j in seen or not word.startswith(terms[i]):
                continue
            seen.add(j)
            if owner[j] is None or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(terms)))


def erased_first_name(member_id: int) -> str:
    """The first-name field of an erased member's records: ``"#<id>"``, so that
    "last first" reads «Socio cancellato #id»."""
    return f"#{member_id}"


def erased_label(member_id: int) -> str:
    """«Socio cancellato #id»: what replaces an erased member's name and number."""
    return f"{ERASED_LAST_NAME} {erased_first_name(member_id)}"
