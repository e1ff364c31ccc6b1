"""The one rule for text from outside (forms, files, JSON bodies, commands): what is kept,
what is removed, what is refused. Pure functions; no database.

It lives here because ``members`` is the lowest app: the member registry's doors (its form,
its list import) may import neither ``tournaments`` nor ``championships`` (``.importlinter``),
and those two apply the same rule through ``tournaments.text.clean_line`` /
``clean_note``, which wrap these functions with the tournaments' ``ArbiterError``.

Removed: control characters (Unicode category Cc: ``\\x07``, ``\\x1b``, new lines…; openpyxl
refuses them in a cell, so a name that kept one broke every XLSX naming it), lone surrogates
(Cs: no database encoding stores them) and the bidirectional embeddings, overrides and
isolates U+202A–U+202E and U+2066–U+2069 (U+202E reverses the display of whatever follows
it: «Rossi‮ 02 IV» printed on a standings sheet reads as another name). Kept: the
bidirectional marks U+200E, U+200F and U+061C and the other format characters (zero-width
joiners are part of some written names). Refused: NUL (PostgreSQL cannot store it and nobody
types it; removing it silently would hide a corrupt file).
"""
from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

#: U+202A–U+202E (LRE, RLE, PDF, LRO, RLO) and U+2066–U+2069 (LRI, RLI, FSI, PDI).
BIDI_CONTROLS = frozenset(chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))

_KEEP_IN_NOTES = frozenset({"\n", "\t"})


class TextRefused(ValueError):
    """A text refused (a NUL, too long, missing), with the sentence to show (``message``)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def visible_text(value: str, *, keep: frozenset[str] = frozenset()) -> str:
    """``value`` without control characters (Cc, NUL included), lone surrogates (Cs) and the
    bidirectional controls of :data:`BIDI_CONTROLS`, except the characters in ``keep``."""
    return "".join(ch for ch in value
                   if ch in keep or (ch not in BIDI_CONTROLS and unicodedata.category(ch) not in ("Cc", "Cs")))


def clean_line(value, *, label: str, max_length: int, required: bool = False) -> str:
    """``value`` (any object; ``None`` is ``""``) as one clean line of text.

    Control characters (``\\x07``, ``\\x1b``, new lines…), lone surrogates and bidirectional
    overrides are removed (:func:`visible_text`), runs of spaces left by them stay single,
    the ends are trimmed. Raises :class:`TextRefused` naming ``label`` for a NUL character,
    for a text longer than ``max_length`` characters (the model field's length) and, when
    ``required``, for a text left empty.
    """
    text = "" if value is None else str(value)
    if "\x00" in text:
        raise TextRefused(_("%(what)s: contiene un carattere non valido (NUL).") % {"what": label})
    text = " ".join(visible_text(text).split())
    if len(text) > max_length:
        raise TextRefused(_("%(what)s: al massimo %(n)s caratteri (sono %(got)s).")
                          % {"what": label, "n": max_length, "got": len(text)})
    if required and not text:
        raise TextRefused(_("%(what)s: manca.") % {"what": label})
    return text


def clean_note(value, *, max_length: int) -> str:
    """A note of one or more lines (a captain's dispute, a search box): what
    :func:`visible_text` removes is removed (NULs too: a note is never refused), new lines and
    tabs are kept, the ends trimmed, the text cut to ``max_length`` characters (the phone
    already stops at it)."""
    text = "" if value is None else str(value)
    return visible_text(text, keep=_KEEP_IN_NOTES).strip()[:max_length]
