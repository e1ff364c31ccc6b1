"""A membership number (*tessera*, rules.md §16): one rule for every door that takes one.

The member list (file, page and ``import_members``), the member form, the merge form, every
registration (pair, player and team forms and files, late entries, captains) and the
tournament files all read a membership number through :func:`normal_membership_number`, so
``８８０００７`` typed on a full-width keyboard and ``880007`` are one member, and a number
that only looks like one (``①②``, Arabic-Indic ``١٢``) is refused with a sentence instead
of becoming a second member nobody can find.

The rule: the ends are trimmed, full-width and half-width forms become their ASCII letter,
digit or «-» (Unicode NFKC); what is left must be ASCII letters, digits and «-» only. Other
characters that NFKC would turn into digits (circled ①, superscript ², Roman Ⅻ) are not
width forms of a digit but other signs, and are refused like any other character.
"""
from __future__ import annotations

import re
import unicodedata

from django.utils.translation import gettext as _

#: The model's length (``Member.membership_number``, ``Player.membership_number``).
MAX_LENGTH = 30

_KEPT = re.compile(r"[A-Za-z0-9-]*", re.ASCII)
#: Unicode's tags of the width forms (U+FF01–U+FF5E full-width, U+FF61… half-width).
_WIDTH_FORMS = ("<wide>", "<narrow>")


class MembershipNumberError(ValueError):
    """A membership number refused; ``message`` is the sentence for the user."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _shown(char: str) -> str:
    code = f"U+{ord(char):04X}"
    # a control or format character (bidi override…) is named, never echoed
    return code if unicodedata.category(char)[0] in "CZ" else f"«{char}» ({code})"


def normal_membership_number(value) -> str:
    """``value`` (a str; ``None`` is ``""``) as the stored membership number: trimmed, width
    forms folded to ASCII (``"８８０００７"`` → ``"880007"``), ``""`` when blank.

    Raises :class:`MembershipNumberError` (a sentence naming the first bad character by its
    code point) for any character other than ASCII letters, digits and «-» after that
    (``"①②"``, ``"١٢"``, ``"402 616"``, a control character), and for more than
    :data:`MAX_LENGTH` characters."""
    text = ("" if value is None else str(value)).strip()
    for char in text:
        if _KEPT.fullmatch(char):
            continue
        folded = unicodedata.normalize("NFKC", char)
        if unicodedata.decomposition(char).startswith(_WIDTH_FORMS) and len(folded) == 1 and _KEPT.fullmatch(folded):
            continue
        raise MembershipNumberError(
            _("La tessera contiene %(char)s: sono ammesse solo lettere e cifre latine (0-9, A-Z) e il trattino.")
            % {"char": _shown(char)})
    text = unicodedata.normalize("NFKC", text)
    if len(text) > MAX_LENGTH:
        raise MembershipNumberError(_("La tessera ha %(n)s caratteri: al massimo %(max)s.")
                                    % {"n": len(text), "max": MAX_LENGTH})
    return text


#: What numbers typed before the rule used between their parts: white space and ASCII
#: punctuation other than «-» («402 616», «51.0016», «51/0016»).
_OLD_SEPARATORS = re.compile(r"[\s!-,./:-@\[-`{-~]+")


def legacy_membership_number(value) -> str:
    """A membership number stored or exported before the rule above (``value``: a str,
    ``None`` is ``""``) in today's stored form: each run of white space or ASCII punctuation
    inside it becomes one «-» («402 616» → «402-616», «51.0016» → «51-0016»), then
    :func:`normal_membership_number`. Used by the data migrations and by the tournament files'
    reader, so a backup written before the rule restores as the database was migrated.

    Raises :class:`MembershipNumberError` for what still is not a number («①②», a control
    character): no rule can guess what it meant."""
    text = ("" if value is None else str(value)).strip()
    return normal_membership_number(_OLD_SEPARATORS.sub("-", text).strip("-"))


def membership_number_refusal(value) -> str | None:
    """The sentence that refuses ``value`` as a membership number, or None when
    :func:`normal_membership_number` takes it."""
    try:
        normal_membership_number(value)
    except MembershipNumberError as exc:
        return exc.message
    return None
