"""Template filters that make the audit trail readable: action names and old → new values."""
from __future__ import annotations

import datetime
import re

from django import template
from django.core.exceptions import FieldDoesNotExist
from django.utils import dateformat, timezone
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from members.names import ERASED_LAST_NAME
from scoring import prizes as prize_rules
from scoring.vp import format_vp

from .. import wording
from ..clock import format_mmss
from ..i18n_messages import stored_text
from ..models import ArbiterCall, AuditAction, CorrectionKind, Round, ScoreSheet, Tournament
from ..services.audit import ART32_PREFIX, LEGACY_REASONS, SOFTWARE_REASONS, actor_form

register = template.Library()

ACTIONS = dict(AuditAction.choices)  # code → label (the labels live with the enum)

KEYS = {
    "name": _("nome"), "number": _("numero"), "players": _("giocatori"), "pairs": _("coppie"),
    "pair": _("coppia"), "system": _("sistema"), "seed": _("seme"), "bye": _("riposo"),
    "from_round": _("dal turno"), "opponent": _("avversari"), "vp": _("VP"), "reason": _("motivo"),
    "opponent_vp": _("VP agli avversari"),  # a forfeit (rules.md §15)
    "state": _("stato"), "draft_discarded": _("bozza scartata"), "acknowledged": _("avvisi accettati"),
    "confirmed_by": _("confermato da"), "dispute_note": _("nota"), "tables": _("tavoli"),
    "reasons": _("motivi"),
    "membership_numbers": _("tessere"), "kind": _("tipo di correzione"), "clubs": _("circoli"),
    "forced_rest": _("riposo forzato"), "rest": _("riposo"), "forced_byes": _("riposi forzati"),
    "hands_per_round": _("smazzate per turno"), "vp_scale": _("tabella VP"), "plan": _("piano"),
    "remaining": _("tempo rimasto"), "duration": _("durata"), "minutes": _("minuti"),
    "extra_seconds": _("tempo in più al tavolo"), "at": _("alle"),
    "minutes_per_round": _("minuti per turno"),
    "membership_check": _("controllo delle tessere"),
    "missing_membership": _("giocatori senza tessera"),
    "team": _("squadra"),  # a team's penalty (rules.md §15)
    "disputed_by": _("contestato da"),
    # new-user trial: every key an entry may hold has a label
    "captain": _("capitano"), "player": _("giocatore"), "teams": _("squadre"), "match": _("incontro"),
    "table": _("tavolo"), "ns": _("N/S"), "ew": _("E/O"), "groups": _("gironi"),
    "method": _("divisione"), "members": _("composizione dei gironi"), "late": _("tardiva"),
    "username": _("utente"), "wrong": _("PIN errati"), "mp": _("MP"),
    # a tournament import (transfer.importer)
    "version": _("versione del formato del file"), "file_slug": _("indirizzo breve nel file"),
    "slug": _("indirizzo breve"), "file_name": _("nome nel file"),
    "tokens_renewed": _("codici QR dei tavoli rinnovati"),
    "team_tokens_renewed": _("codici delle squadre rinnovati"), "owner": _("proprietario"),
    "file_arbiters": _("arbitri nel file (solo testo)"), "file_created_by": _("creato da (nel file, solo testo)"),
    # prizes (rules.md §18), championships (§17) and the federation file's settings
    "prizes": _("premi"), "championship": _("campionato"), "prizes_cumulative": _("premi cumulabili"),
    "organising_club": _("circolo organizzatore"), "arbiter_name": _("nome dell'arbitro"),
    # a lateness (rules.md §22; the Registro writes it in words, ``_lateness``)
    "entrant": _("partecipante"), "penalty": _("penalità"), "forfeits": _("partite perse a tavolino"),
}
# Keys that mean nothing to an arbiter: the confirming browser's cookie and User-Agent
# hashes (the board compares them). One phrase says they were recorded.
# Keys holding seconds of the round clock: shown as minutes and seconds ("41:35").
CLOCK_SECONDS = ("remaining", "duration", "extra_seconds")
DEVICE_KEYS = ("confirm_device", "confirm_agent", "entry_device", "entry_agent")


_ISO_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2}|Z)?$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _when(value: str) -> str:
    """An ISO date or datetime stored in an entry (e.g. the clock's ``at``, UTC) as the page
    shows times: local time, ``d/m H:i:s`` (a date: ``d/m/Y``); anything else as stored."""
    try:
        if _ISO_DATE.match(value):
            return dateformat.format(datetime.date.fromisoformat(value), "d/m/Y")
        moment = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, datetime.timezone.utc)
    return dateformat.format(timezone.localtime(moment), "d/m H:i:s")


def _tournament_field(key: str):
    """The :class:`Tournament` field ``key`` (a setting in ``tournament_updated``), or None."""
    try:
        return Tournament._meta.get_field(key)
    except FieldDoesNotExist:
        return None


def _key_label(key: str, action: str = "") -> str:
    """The label of a key of an entry's old/new value in the reader's language: a changed
    setting (``tournament_updated``) by its field's name, other keys from :data:`KEYS`."""
    if action == AuditAction.TOURNAMENT_UPDATED:
        field = _tournament_field(key)
        if field is not None:
            return str(field.verbose_name)
    if key in KEYS:
        return str(KEYS[key])
    field = _tournament_field(key)
    return str(field.verbose_name) if field is not None else key


def _line_up(pairs) -> str | None:
    """A team's line-up ``[["Gallo Marco", "Esposito Sara"], [...]]`` as "coppia 1: Gallo Marco –
    Esposito Sara; coppia 2: …" (who partners whom, rules.md §15); None for another shape."""
    if not (isinstance(pairs, list) and pairs and all(isinstance(p, list) for p in pairs)):
        return None
    return "; ".join(_("coppia %(n)s: %(players)s") % {"n": n, "players": " – ".join(_plain(x) for x in pair)}
                     for n, pair in enumerate(pairs, start=1))


def _groups(members) -> str | None:
    """Group lists ``[[1, 4, 5], [2, 3, 6]]`` as "girone 1: 1, 4, 5; girone 2: 2, 3, 6"."""
    if not (isinstance(members, list) and members and all(isinstance(g, list) for g in members)):
        return None
    return "; ".join(_("girone %(g)s") % {"g": n} + ": " + ", ".join(_plain(x) for x in group)
                     for n, group in enumerate(members, start=1))


def _label(key: str, value, action: str = "") -> str:
    """Stored codes shown with their labels: sheet and call states, pairing systems, settings'
    choices, actors, line-ups, groups, prize lists (as typed on the prize page), membership
    numbers ("—" for none), dates."""
    if key == "state" and action.startswith("arbiter_call") and value in ArbiterCall.State.values:
        return str(ArbiterCall.State(value).label)  # a table's call: "l'arbitro arriva", not "taken"
    if key == "state" and value in ScoreSheet.State.values:
        return str(ScoreSheet.State(value).label)
    if key == "system" and value in Round.System.values:
        return str(Round.System(value).label)
    if key in ("disputed_by", "confirmed_by") and isinstance(value, str):  # in the reader's language (trust)
        return actor_label(value)
    if key == "reason" and action == AuditAction.ARBITER_CALLED and value in ArbiterCall.Reason.values:
        return str(ArbiterCall.Reason(value).label)  # a table's call: "carta mancante", not "card"
    if key == "method" and value in Tournament.GroupSplit.values:
        return str(Tournament.GroupSplit(value).label)
    if key == "kind" and action != AuditAction.TOURNAMENT_UPDATED and value in CorrectionKind.values:
        return str(CorrectionKind(value).label)
    if key == "pairs" and (text := _line_up(value)) is not None:
        return text
    if key == "members" and (text := _groups(value)) is not None:
        return text
    if key == "prizes" and isinstance(value, list):  # as typed on the prize page: "1° assoluto | assoluto"
        return "; ".join(prize_rules.prize_line(p, (get_language() or "it")[:2]) for p in value)
    if key == "clubs" and isinstance(value, list):  # a pair's players' clubs, "—" for none
        return ", ".join(_plain(v) or "—" for v in value)
    if key == "membership_numbers" and isinstance(value, list):
        return ", ".join(_membership(v) for v in value)
    if key in ("vp", "mp") and isinstance(value, (int, str)):
        return _num(value)
    if action == AuditAction.TOURNAMENT_UPDATED or key in ("kind", "rule_set", "first_round"):
        field = _tournament_field(key)
        if field is not None and field.choices and value in dict(field.choices):
            return str(dict(field.choices)[value])
    return _plain(value)


def _membership(value) -> str:
    """One membership number of a pair's entry: "—" for none (a player without a card, or
    an erased member's, blanked by ``services.member_erasure``); an older entry whose number
    was overwritten with the erased member's label («Socio cancellato #73») shows "—" too:
    that field holds numbers, never a name."""
    text = _plain(value).strip()
    return "—" if not text or text.startswith(ERASED_LAST_NAME) else text


@register.filter
def audit_action(code: str) -> str:
    """The Italian (translated) name of an audit action code."""
    return str(ACTIONS.get(code, code))


@register.filter
def audit_kind(entry) -> str:
    """The correction kind of an audit entry (rules.md §3, art. 31), translated, or ""."""
    new = entry.new if isinstance(entry.new, dict) else {}
    kind = new.get("kind")
    return str(CorrectionKind(kind).label) if kind in CorrectionKind.values else ""


def _num(value) -> str:
    """A number with a true minus sign, so "295 – −215" reads as two scores."""
    text = str(value)
    return "−" + text[1:] if text.startswith("-") else text


def _pairs(a, b) -> str:
    return f"{_num(a)} – {_num(b)}"


def _sheet(value: dict) -> str:
    parts = []
    if value.get("mp"):
        parts.append(f"MP {_pairs(*value['mp'])}")
    if value.get("vp"):
        parts.append(f"VP {_pairs(*(format_vp(v) for v in value['vp']))}")
    declared = value.get("declared") or [None, None]
    if any(d is not None for d in declared):
        parts.append(f"{_('dichiarato')} {_pairs(*['—' if d is None else d for d in declared])}")
    if value.get("hands"):
        parts.append(f"{_('smazzate')} " + ", ".join(_pairs(*h) for h in value["hands"]))
    if value.get("state"):
        parts.append(str(ScoreSheet.State(value["state"]).label) if value["state"] in ScoreSheet.State.values
                     else value["state"])
    for key in ("dispute_note", "disputed_by"):  # the dispute a correction answered (trust)
        if value.get(key):
            parts.append(f"{KEYS[key]}: {_label(key, value[key])}")
    return " · ".join(parts)


# A draft's cells (``services.sheet_drafts``: the grid's field names) by the labels the grid
# gives them (templates/arbiter/sheet.html).
_DRAFT_HAND = re.compile(r"^h(\d+)_(ns|ew)(?:_(base|cards))?$")
_DRAFT_LABELS = {
    ("ns", None): _("Smazzata %(h)s N/S"), ("ew", None): _("Smazzata %(h)s E/O"),
    ("ns", "base"): _("Smazzata %(h)s base N/S"), ("ew", "base"): _("Smazzata %(h)s base E/O"),
    ("ns", "cards"): _("Smazzata %(h)s carte N/S"), ("ew", "cards"): _("Smazzata %(h)s carte E/O"),
}
_DRAFT_DECLARED = {"declared_ns": _("Totale dichiarato N/S"), "declared_ew": _("Totale dichiarato E/O")}


def _is_draft(value: dict) -> bool:
    """The arbiter's half-typed grid (``services.sheet_drafts``): ``{"cells": {…}, "parts": bool}``."""
    return set(value) == {"cells", "parts"} and isinstance(value["cells"], dict)


def _draft(value: dict) -> str:
    """A draft's typed cells as the grid labels them: "Smazzata 1 N/S 600, Totale dichiarato
    E/O 845", then "base + carte" when it was typed in parts; "—" for no cell typed."""
    cells = []
    for key, typed in value["cells"].items():
        match = _DRAFT_HAND.match(str(key))
        if match:
            label = str(_DRAFT_LABELS[(match.group(2), match.group(3))]) % {"h": match.group(1)}
        else:
            label = str(_DRAFT_DECLARED.get(key, key))
        cells.append(f"{label} {_num(_plain(typed))}")
    text = ", ".join(cells) or "—"
    return f"{text}; {_('base + carte')}" if value.get("parts") else text


def _side(value) -> str:
    """A line of a table's sides: a pair number, or the player numbers of an individual table."""
    if isinstance(value, (list, tuple)):
        return "+".join(_plain(v) for v in value) or "—"
    return _plain(value) or "—"


def _plain(value) -> str:
    if isinstance(value, dict) and "code" in value and "text" in value:  # a checker message
        return stored_text(value)
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, dict) and "table" in v for v in value):
            return ", ".join(f"T{v['table']} {_side(v.get('ns'))}–{_side(v.get('ew'))}" for v in value)
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, bool):
        return str(_("sì") if value else _("no"))
    if isinstance(value, str) and value[:1].isdigit() and (_ISO_DATETIME.match(value) or _ISO_DATE.match(value)):
        return _when(value)
    return "" if value is None else str(value)


def _signed(value) -> str:
    """An MP difference with its sign: "+305", "−705", "0"."""
    number = int(value)
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"


def _lateness(value: dict) -> str:
    """A lateness (``services.lateness``, rules.md §22) in words: «ritardo di 12 minuti;
    coppia 3; partita persa a tavolino: tavolo 1 N/S 12 VP, scarto +305; E/O 6 VP, scarto
    −705», or «…; penalità di 100 MP». The entrant is the pair, the player or the team; a
    team match scored by the summed margin adds the match's VP and margins."""
    words = {"pair": _("coppia %(n)s"), "player": _("giocatore %(n)s"), "team": _("squadra %(n)s")}
    parts = [_("ritardo di %(m)s minuti") % {"m": _plain(value.get("minutes"))}]
    parts += [words[key] % {"n": _plain(value[key])} for key in words if value.get(key) is not None]
    if value.get("kind") == "penalty":
        parts.append(_("penalità di %(mp)s MP") % {"mp": _num(value.get("mp", 0))})
        return "; ".join(parts)
    tables = []
    for table in value.get("forfeits") or ():
        vp, difference = table.get("vp") or ["", ""], table.get("difference") or [0, 0]
        tables.append(_("tavolo %(t)s: N/S %(vp_ns)s VP, scarto %(d_ns)s; E/O %(vp_ew)s VP, scarto %(d_ew)s")
                      % {"t": table.get("table"), "vp_ns": _num(vp[0]), "vp_ew": _num(vp[1]),
                         "d_ns": _signed(difference[0]), "d_ew": _signed(difference[1])})
    match = value.get("match")
    if isinstance(match, dict) and match.get("vp") and match.get("margin"):  # summed margin (§15, §22)
        tables.append(_("incontro (scarto sommato): squadra presente %(vp_p)s VP, scarto %(d_p)s; squadra in "
                        "ritardo %(vp_l)s VP, scarto %(d_l)s")
                      % {"vp_p": _num(match["vp"][0]), "vp_l": _num(match["vp"][1]),
                         "d_p": _signed(match["margin"][0]), "d_l": _signed(match["margin"][1])})
    if not tables and value.get("table"):  # an entry written before the differences were kept
        tables.append(_("tavolo %(t)s") % {"t": value["table"]})
    return "; ".join(parts) + "; " + str(_("partita persa a tavolino")) + (": " + " · ".join(tables) if tables else "")


def _is_sheet(value: dict, action: str = "") -> bool:
    """A score sheet's snapshot (``services.sheets._sheet_snapshot``): MP as a pair, or hands,
    or a sheet's state alone (not a call's: ``services.calls`` writes ``{"state": "taken"}``)."""
    if action.startswith("arbiter_call"):
        return False
    return "hands" in value or isinstance(value.get("mp"), (list, tuple)) or set(value) == {"state"}


def _part(key: str, value, action: str) -> str:
    """One "label: value" of a dict value; a line-up reads by itself ("coppia 1: …; coppia 2: …")."""
    if key == "pairs" and (text := _line_up(value)) is not None:
        return text
    if key in CLOCK_SECONDS and isinstance(value, int) and not isinstance(value, bool):
        if key == "remaining":  # "41:35 rimasti", never a count of seconds
            return wording.clock_left_text(value)
        return f"{_key_label(key, action)}: {format_mmss(value)}"
    return f"{_key_label(key, action)}: {_label(key, value, action)}"


@register.filter
def audit_value(value, action: str = "") -> str:
    """An audit ``old``/``new`` value as one readable line in the reader's language.

    ``value``: the entry's JSON (a score sheet's snapshot → "MP 1230 – 870 · VP 12 – 8 ·
    …"; another dict → "label: value; …" with every key's label from :data:`KEYS` or, for
    ``tournament_updated``, the setting's name); ``action``: the entry's action code, which
    decides what a key means. Booleans read sì/no, ISO datetimes local ``d/m H:i:s``, a
    line-up "coppia 1: A – B; coppia 2: C – D", an arbiter's sheet draft by the grid's labels
    ("Smazzata 1 N/S 600"), a call's state by its label ("l'arbitro arriva"), a prize list
    "1° assoluto | assoluto; …"; the confirming device's hashes are hidden behind one phrase
    ("dispositivo registrato")."""
    if value in (None, "", {}, []):
        return ""
    if isinstance(value, dict):
        if action in (AuditAction.LATENESS, AuditAction.LATENESS_UNDONE) and "kind" in value:
            return _lateness(value)
        if _is_draft(value):
            return _draft(value)
        if _is_sheet(value, action):
            return _sheet(value)
        parts = [_part(k, v, action) for k, v in value.items() if v not in (None, "", []) and k not in DEVICE_KEYS]
        if any(value.get(k) for k in DEVICE_KEYS):
            parts.append(str(_("dispositivo registrato")))
        return "; ".join(parts)
    return _plain(value)


# --------------------------------------------------------------------------- why (software reasons)

def _reason_pattern(text: str) -> re.Pattern:
    """A stored reason format ("… %(version)s …") as a regular expression with named groups."""
    parts = re.split(r"%\((\w+)\)s", text)
    return re.compile("^" + "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
                                   for i, p in enumerate(parts)) + "$")


@register.filter
def audit_reason(reason: str) -> str:
    """An entry's reason in the reader's language when the software wrote it
    (``services.audit.SOFTWARE_REASONS``, stored in Italian, or an older English form in
    ``LEGACY_REASONS``); a reason the arbiter typed is shown as stored."""
    reason = reason or ""
    if reason.startswith(ART32_PREFIX):  # a played pair's changes, "; " between (services.entrants)
        return ART32_PREFIX + "; ".join(_software_reason(part) for part in reason[len(ART32_PREFIX):].split("; "))
    return _software_reason(reason)


def _software_reason(reason: str) -> str:
    for stored, source in [(r, r) for r in SOFTWARE_REASONS] + list(LEGACY_REASONS.items()):
        match = _reason_pattern(stored).match(reason)
        if match:
            return gettext(source) % match.groupdict() if match.groupdict() else gettext(source)
    return reason


# --------------------------------------------------------------------------- who, in the reader's language

LINE_NAMES = {"ns": _("N/S"), "ew": _("E/O")}


def actor_text(code: str, params: dict | None, fallback: str = "") -> str:
    """The label of an actor in machine form (``services.audit.actor_form``) in the active
    language: ``("captain", {"line": "ns", "table": 5})`` → "capitano N/S tavolo 5" /
    "N/S captain, table 5"; ``("arbiter", {"name": "rossi"})`` → "rossi (arbitro)" /
    "rossi (arbiter)"; ``("system", {})`` → "sistema" / "system"; ``("table", {"table": 5})`` →
    "tavolo 5" / "table 5". Unknown codes or
    parameters: ``fallback`` (the stored text)."""
    params = params or {}
    try:
        if code == "captain":
            return str(_("capitano %(line)s tavolo %(table)s")
                       % {"line": LINE_NAMES[params["line"]], "table": int(params["table"])})
        if code == "arbiter":
            return str(_("%(name)s (arbitro)") % {"name": params["name"]})
        if code == "system":
            return str(_("sistema"))
        if code == "table":
            return str(_("tavolo %(t)s") % {"t": int(params["table"])})
    except (KeyError, TypeError, ValueError):
        pass
    return fallback


@register.filter
def audit_actor(entry) -> str:
    """Who wrote an audit entry, in the reader's language (its ``actor_code`` and
    ``actor_params``; an entry stored without them is read from its text, as
    ``services.audit.actor_form`` reads a new one; an unrecognised text is shown as stored)."""
    if not entry.actor_code:
        return actor_label(entry.actor)
    return actor_text(entry.actor_code, entry.actor_params, entry.actor)


@register.filter
def actor_label(label: str) -> str:
    """A stored actor text (e.g. a sheet's ``entered_by``) in the reader's language, when it
    is one the audit trail recognises; otherwise as stored."""
    code, params = actor_form(label or "")
    return actor_text(code, params, label or "")
