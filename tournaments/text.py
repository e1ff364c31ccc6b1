"""Text and JSON from outside (forms, captain phones) made safe to store and to print.

- :func:`clean_line`: one line of text (a name, a club, a reason): control characters, lone
  surrogates and bidirectional overrides removed, spaces trimmed; a NUL is refused
  (PostgreSQL cannot store it, and a name with one was never typed by hand); the length
  checked against the model field. openpyxl refuses control characters in a cell, so a name
  that kept one broke the standings and score XLSX. The rule itself is
  :mod:`members.text` (the lowest app, so the member registry applies it too).
- :func:`clean_note`: the same for a note of several lines (tabs and new lines kept).
- :func:`read_json_object`: a JSON body as a ``dict``, refused with a sentence when it is
  too big, nested too deep, not UTF-8, not JSON or not an object.

docs/security.md lists every boundary and its caps.
"""
from __future__ import annotations

import json

from django.utils.translation import gettext as _

from members import text as shared_text

from .errors import ArbiterError

#: A captain's JSON body: a 60-hand sheet with its previous copy is about 3 KB.
MAX_JSON_BYTES = 64 * 1024
#: Arrays and objects inside one another: a captain's body nests 3 (object, hands, hand).
MAX_JSON_DEPTH = 20


def clean_line(value, *, label: str, max_length: int, required: bool = False) -> str:
    """``value`` (any object; ``None`` is ``""``) as one clean line of text: the rule of
    :func:`members.text.clean_line` (control characters, lone surrogates and bidirectional
    overrides U+202A–U+202E, U+2066–U+2069 removed; spaces collapsed, ends trimmed).

    Raises ArbiterError naming ``label`` for a NUL character, for a text longer than
    ``max_length`` characters (the model field's length) and, when ``required``, for a text
    left empty.
    """
    try:
        return shared_text.clean_line(value, label=label, max_length=max_length, required=required)
    except shared_text.TextRefused as exc:
        raise ArbiterError(exc.message) from None


def clean_note(value, *, max_length: int) -> str:
    """A note of one or more lines (a captain's dispute, a reason): control characters other
    than new line and tab, NULs, lone surrogates and bidirectional overrides removed, ends
    trimmed, cut to ``max_length`` characters (a note is never refused for its length: the
    phone already stops at it). :func:`members.text.clean_note`."""
    return shared_text.clean_note(value, max_length=max_length)


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
