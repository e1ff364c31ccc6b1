"""The audit trail: who did what, when, old → new, why (who: :class:`Actor`)."""
from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ..models import (
    AuditAction,
    AuditEntry,
    Tournament,
)
from ..text import clean_line
from ._common import as_actor

# Reasons the software writes (not typed by the arbiter): stored in Italian, the source
# language, and shown in the reader's language by ``templatetags.audit.audit_reason``
# (new-user trial). ``%(name)s`` placeholders are filled when written, matched when read.
IMPORTED_REASON = gettext_noop("importato da file (versione %(version)s)")
SUM_ERROR_REASON = gettext_noop("errore di somma: valgono le smazzate")
# A played pair's allowed changes (art. 32, rules.md §13): "art. 32: " then the changes, "; " between.
ART32_PREFIX = "art. 32: "
SPELLING_REASON = gettext_noop("grafia del nome: %(old)s → %(new)s")
MEMBERSHIP_REASON = gettext_noop("tessera compilata per %(name)s: %(membership)s")
# A prize list copied from another tournament (services.prizes.copy_prize_list)
PRIZES_COPIED_REASON = gettext_noop("copiati da %(slug)s")
SOFTWARE_REASONS = (IMPORTED_REASON, SUM_ERROR_REASON, SPELLING_REASON, MEMBERSHIP_REASON, PRIZES_COPIED_REASON)
# Older entries written in English before the reasons were stored in Italian: shown translated.
LEGACY_REASONS = {"imported from file (version %(version)s)": IMPORTED_REASON}


_CAPTAIN = re.compile(r"^capitano (N/S|E/O) tavolo (\d+)$")
_ARBITER = re.compile(r"^(.+) \(arbitro\)$")
_TABLE = re.compile(r"^tavolo (\d+)$")


def actor_form(label: str) -> tuple[str, dict | None]:
    """The machine form of an actor label, so pages render it in the
    reader's language (``templatetags.audit.actor_text``):

    - ``"capitano N/S tavolo 5"`` → ``("captain", {"line": "ns", "table": 5})``;
    - ``"rossi (arbitro)"`` → ``("arbiter", {"name": "rossi"})``;
    - ``"sistema"`` → ``("system", {})``;
    - ``"tavolo 5"`` → ``("table", {"table": 5})`` (a table's call sent before its captain chose
      a line: ``captains.call_views``);
    - anything else → ``("", None)`` (shown as stored).

    The data migration 0010_desk_edges applies the same rules to the existing entries."""
    label = (label or "").strip()
    m = _CAPTAIN.match(label)
    if m:
        return "captain", {"line": "ns" if m.group(1) == "N/S" else "ew", "table": int(m.group(2))}
    if label == "sistema":
        return "system", {}
    m = _TABLE.match(label)
    if m:
        return "table", {"table": int(m.group(1))}
    m = _ARBITER.match(label)
    if m:
        return "arbiter", {"name": m.group(1)}
    return "", None


def clean_reason(reason, *, max_length: int = 300) -> str:
    """A reason typed by the arbiter (a penalty's, a withdrawal's, a correction's) or written
    by the software, cut to ``max_length`` characters (the model field's length; the pages'
    forms stop there) and made storable and printable by ``text.clean_line`` (control
    characters and bidirectional overrides removed, spaces trimmed). Raises ArbiterError
    for a NUL (a raw POST value can carry one; PostgreSQL cannot store it and the
    tournament's export would no longer import)."""
    return clean_line(str(reason or "")[:max_length], label=_("Motivo"), max_length=max_length)


def audit_entry(
    *,
    tournament: Tournament,
    by,
    action: AuditAction,
    old=None,
    new=None,
    reason: str = "",
    round_number: int | None = None,
    table_number: int | None = None,
) -> AuditEntry:
    """The audit entry :func:`audit` writes, not saved yet (for a write that inserts several
    at once). Same arguments; ArbiterError for a NUL in ``reason``."""
    actor = as_actor(by)
    code, params = actor_form(actor.label)
    return AuditEntry(
        tournament=tournament,
        user=actor.user,
        actor=actor.label[:80],
        actor_code=code,
        actor_params=params,
        action=action,
        old=old,
        new=new,
        reason=clean_reason(reason),
        round_number=round_number,
        table_number=table_number,
    )


def audit(
    *,
    tournament: Tournament,
    by,
    action: AuditAction,
    old=None,
    new=None,
    reason: str = "",
    round_number: int | None = None,
    table_number: int | None = None,
) -> AuditEntry:
    """Write one audit entry (who, when, what, old → new, why). ``action``: what was done,
    an :class:`~tournaments.models.AuditAction` (its label is what the Registro shows). Call
    inside the write's transaction. ``reason`` goes through :func:`clean_reason` (ArbiterError for a NUL)."""
    entry = audit_entry(tournament=tournament, by=by, action=action, old=old, new=new, reason=reason,
                        round_number=round_number, table_number=table_number)
    entry.save(force_insert=True)
    return entry


