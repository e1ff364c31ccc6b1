"""Text and JSON from outside (forms, captain phones) made safe to store and to print.

- :func:`clean_line`: one line of text (a name, a club, a reason): control characters and
  lone surrogates removed, spaces trimmed; a NUL is refused (PostgreSQL cannot store it,
  and a name with one was never typed by hand); the length checked against the model field.
  openpyxl refuses control characters in a cell, so a name that kept one broke the
  standings and score XLSX.
- :func:`clean_note`: the same for a note of several lines (tabs and new lines kept).
- :func:`read_json_object`: a JSON body as a ``dict``, refused with a sentence when it is
  too big, nested too deep, not UTF-8, not JSON or not an object.

docs/security.md lists every boundary and its caps.
"""
from __future__ import annotations

import json
import unicodedata

from django.utils.translation import gettext as _

from .errors import ArbiterError

#: A captain's JSON body: a 60-hand sheet with its previous copy is about 3 KB.
MAX_JSON_BYTES = 64 * 1024
#: Arrays and objects inside one another: a captain's body nests 3 (object, hands, hand).
MAX_JSON_DEPTH = 20

_KEEP_IN_NOTES = {"\n", "\t"}


def _strip_controls(value: str, keep: set[str]) -> str:
    # Cc: C0/C1 controls (\x07, \x1b…); Cs: lone surrogates (\ud800), which no
    # database encoding stores; Cf format characters (zero-width joiners) are kept:
    # they are part of some written names.
    return "".join(ch for ch in value
                   if ch in keep or unicodedata.category(ch) not in ("Cc", "Cs"))


def clean_line(value, *, label: str, max_length: int, required: bool = False) -> str:
    """``value`` (any object; ``None`` is ``""``) as one clean line of text.

    Control characters (``\\x07``, ``\\x1b``, new lines…) and lone surrogates are removed,
    runs of spaces left by them stay single, the ends are trimmed. Raises ArbiterError
    naming ``label`` for a NUL character, for a text longer than ``max_length`` characters
    (the model field's length) and, when ``required``, for a text left empty.
    """
    text = "" if value is None else str(value)
    if "\x00" in text:
        raise ArbiterError(_("%(what)s: contiene un carattere non valido (NUL).") % {"what": label})
    text = " ".join(_strip_controls(text, keep=set()).split())
    if len(text) > max_length:
        raise ArbiterError(_("%(what)s: al massimo %(n)s caratteri (sono %(got)s).")
                           % {"what": label, "n": max_length, "got": len(text)})
    if required and not text:
        raise ArbiterError(_("%(what)s: manca.") % {"what": label})
    return text


def clean_note(value, *, max_length: int) -> str:
    """A note of one or more lines (a captain's dispute, a reason): control characters other
    than new line and tab, NULs and lone surrogates removed, ends trimmed, cut to
    ``max_length`` characters (a note is never refused for its length: the phone already
    stops at it)."""
    text = "" if value is None else str(value)
    return _strip_controls(text, keep=_KEEP_IN_NOTES).strip()[:max_length]


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in the JSON text ``text`` (brackets inside
    strings do not count). Linear and without recursion, so it runs before the parser."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def read_json_object(raw: bytes, *, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH) -> dict:
    """The JSON object in the request body ``raw`` (empty = ``{}``).

    Raises ArbiterError ("Richiesta non leggibile") for a body over ``max_bytes``, nested
    deeper than ``max_depth``, not UTF-8, not JSON (a number of more than 4300 digits
    included) or whose top level is not an object. Strings may still hold lone surrogates
    or control characters: the fields are cleaned where they are read (:func:`clean_note`).
    """
    unreadable = _("Richiesta non leggibile.")
    if len(raw or b"") > max_bytes:
        raise ArbiterError(unreadable)
    try:
        text = (raw or b"{}").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ArbiterError(unreadable) from exc
    if json_depth(text) > max_depth:
        raise ArbiterError(unreadable)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ArbiterError(unreadable) from exc
    if not isinstance(data, dict):
        raise ArbiterError(unreadable)
    return data
