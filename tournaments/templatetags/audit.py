"""Template filters that make the audit trail readable: action names and old → new values."""
from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

from scoring.vp import format_vp

from ..models import CorrectionKind, Round, ScoreSheet

register = template.Library()

ACTIONS = {
    "tournament_created": _("Torneo creato"),
    "tournament_updated": _("Impostazioni modificate"),
    "pair_added": _("Coppia aggiunta"),
    "pair_updated": _("Coppia modificata"),
    "pair_removed": _("Coppia cancellata"),
    "registrations_imported": _("Iscrizioni importate"),
    "round_generated": _("Turno generato"),
    "round_redrawn": _("Bozza ridisegnata (era superata)"),
    "draft_swap": _("Bozza modificata a mano"),
    "idle_pairs_seated": _("Coppie a riposo fatte giocare insieme"),
    "round_published": _("Turno pubblicato"),
    "round_closed": _("Turno chiuso"),
    "round_reopened": _("Turno riaperto"),
    "sheet_saved": _("Score inserito"),
    "sheet_corrected": _("Score corretto"),
    "sheet_confirmed": _("Score confermato"),
    "sheet_disputed": _("Score contestato"),
    "sheet_validated": _("Score validato"),
    "sheet_validated_unconfirmed": _("Score validato senza la conferma dell'altra linea"),
    "sheet_draft_saved": _("Bozza di score salvata (incompleta)"),
    "sheet_draft_discarded": _("Bozza di score scartata"),
    "sheet_unvalidated": _("Validazione annullata"),
    "sheet_lines_swapped": _("Linee invertite"),
    "arbitral_score": _("Punteggio arbitrale"),
    "pair_withdrawn": _("Coppia ritirata"),
    "late_pair_added": _("Coppia tardiva"),
    "penalty_added": _("Penalità assegnata"),
    "penalty_removed": _("Penalità tolta"),
    # individual tournaments (issue 11)
    "player_added": _("Giocatore aggiunto"),
    "player_removed": _("Giocatore cancellato"),
    "player_withdrawn": _("Giocatore ritirato"),
    "late_player_added": _("Giocatore tardivo"),
    "groups_split": _("Coppie divise nei gironi"),
    # the round clock (issue 12 item 4: the audit trail records clock actions)
    "clock_started": _("Orologio del turno avviato"),
    "clock_paused": _("Orologio del turno in pausa"),
    "clock_resumed": _("Orologio del turno ripartito"),
    "clock_minutes_added": _("Minuti dati a tutta la sala"),
    "clock_table_extra": _("Tempo in più a un tavolo"),
}

KEYS = {
    "name": _("nome"), "number": _("numero"), "players": _("giocatori"), "pairs": _("coppie"),
    "pair": _("coppia"), "system": _("sistema"), "seed": _("seme"), "bye": _("riposo"),
    "from_round": _("dal turno"), "opponent": _("avversari"), "vp": _("VP"), "reason": _("motivo"),
    "state": _("stato"), "draft_discarded": _("bozza scartata"), "acknowledged": _("avvisi accettati"),
    "confirmed_by": _("confermato da"), "dispute_note": _("nota"), "tables": _("tavoli"),
    "reasons": _("motivi"),
    "membership_numbers": _("tessere"), "kind": _("tipo di correzione"),
    "forced_rest": _("riposo forzato"), "rest": _("riposo"),
    "hands_per_round": _("smazzate per turno"), "vp_scale": _("tabella VP"), "plan": _("piano"),
    "remaining": _("secondi rimasti"), "duration": _("durata in secondi"), "minutes": _("minuti"),
    "extra_seconds": _("secondi in più al tavolo"), "at": _("alle"),
    "minutes_per_round": _("minuti per turno"),
    "team": _("squadra"),  # a team's penalty (rules.md §15)
    "disputed_by": _("contestato da"),
}


def _label(key: str, value) -> str:
    """Stored codes shown with their labels: sheet states, pairing systems."""
    if key == "state" and value in ScoreSheet.State.values:
        return str(ScoreSheet.State(value).label)
    if key == "system" and value in Round.System.values:
        return str(Round.System(value).label)
    if key == "disputed_by":  # who disputed, in the reader's language (trust)
        return actor_label(value)
    return _plain(value)


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


def _plain(value) -> str:
    if isinstance(value, dict) and "code" in value and "text" in value:  # a checker message (issue 14)
        from ..i18n_messages import stored_text

        return stored_text(value)
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, dict) and "table" in v for v in value):
            return ", ".join(f"T{v['table']} {v.get('ns') or '—'}–{v.get('ew') or '—'}" for v in value)
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, bool):
        return str(_("sì") if value else _("no"))
    return "" if value is None else str(value)


@register.filter
def audit_value(value) -> str:
    """An audit ``old``/``new`` value as one readable line (score sheets: MP, VP, declared,
    hands, state; other dicts: ``key: value`` pairs)."""
    if value in (None, "", {}, []):
        return ""
    if isinstance(value, dict):
        if "mp" in value or "hands" in value:
            return _sheet(value)
        if set(value) == {"state"}:
            return _sheet(value)
        return "; ".join(f"{KEYS.get(k, k)}: {_label(k, v)}" for k, v in value.items() if v not in (None, "", []))
    return _plain(value)


# --------------------------------------------------------------------------- who (issue 14 item 8)

LINE_NAMES = {"ns": _("N/S"), "ew": _("E/O")}


def actor_text(code: str, params: dict | None, fallback: str = "") -> str:
    """The label of an actor in machine form (``services.audit.actor_form``) in the active
    language: ``("captain", {"line": "ns", "table": 5})`` → "capitano N/S tavolo 5" /
    "N/S captain, table 5"; ``("arbiter", {"name": "rossi"})`` → "rossi (arbitro)" /
    "rossi (arbiter)"; ``("system", {})`` → "sistema" / "system". Unknown codes or
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
    except (KeyError, TypeError, ValueError):
        pass
    return fallback


@register.filter
def audit_actor(entry) -> str:
    """Who wrote an audit entry, in the reader's language (its ``actor_code`` and
    ``actor_params``; entries the migration could not read keep their stored text)."""
    return actor_text(entry.actor_code, entry.actor_params, entry.actor)


@register.filter
def actor_label(label: str) -> str:
    """A stored actor text (e.g. a sheet's ``entered_by``) in the reader's language, when it
    is one the audit trail recognises; otherwise as stored."""
    from ..services.audit import actor_form

    code, params = actor_form(label or "")
    return actor_text(code, params, label or "")
