"""Messages of the pure modules (``scoring.sheets``, ``pairing.check``) in the reader's
language (issue 14 item 8): the one place mapping their codes to gettext templates.

The pure modules give each message a ``code`` and ``params`` (``scoring.messages.Message``,
``pairing.messages.Message``: a ``str`` holding the Italian text). Each template below is
that Italian text's pattern, so it is the msgid of the English catalogue. A message without a
known code is shown as it is (Italian).
"""
from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

_LINES = {"ns": N_("N/S"), "ew": N_("E/O")}

TEMPLATES = {
    # scoring/sheets.py
    "sheet.hand_count": N_("Lo score ha %(got)s smazzate, ne sono previste %(expected)s"),
    "sheet.no_hands": N_("Lo score non ha smazzate"),
    "sheet.hand_not_integer": N_("Smazzata %(hand)s, linea %(line)s: %(value)s non è un numero intero"),
    "sheet.hand_not_multiple": N_("Smazzata %(hand)s, linea %(line)s: %(value)s non è multiplo di 5"),
    "sheet.hand_out_of_bounds": N_("Smazzata %(hand)s, linea %(line)s: %(value)s è fuori dai limiti "
                                   "(al massimo %(bound)s MP in valore assoluto)"),
    "sheet.declared_not_integer": N_("Totale dichiarato, linea %(line)s: %(value)s non è un numero intero"),
    "sheet.declared_out_of_bounds": N_("Totale dichiarato, linea %(line)s: %(value)s è fuori dai limiti "
                                       "(al massimo %(bound)s MP in valore assoluto)"),
    "sheet.sum_error": N_("Errore di somma, linea %(line)s: dichiarato %(declared)s, somma delle smazzate %(sum)s"),
    # pairing/check.py
    "check.second_rest": N_("la coppia %(pair)s riposa di nuovo mentre la coppia %(other)s non ha ancora "
                            "riposato (art. 33)"),
    "check.unlisted_rematch_round": N_("incontro ripetuto non segnalato al tavolo %(table)s: %(ns)s–%(ew)s "
                                       "(già incontrate al turno %(round)s)"),
    "check.unlisted_rematch": N_("incontro ripetuto non segnalato al tavolo %(table)s: %(ns)s–%(ew)s "
                                 "(già incontrate)"),
    "check.mitchell_table": N_("Mitchell: al tavolo %(table)s il movimento prevede %(want)s, non %(got)s"),
    "check.mitchell_bye": N_("Mitchell: riposa %(want)s secondo il movimento, non %(got)s"),
    "check.better_ns": N_("tavolo %(table)s: la coppia meglio classificata (%(pair)s) deve sedere in N/S"),
    "check.table_order": N_("i tavoli non seguono la classifica (il tavolo 1 ha la coppia migliore, ...)"),
    "check.rematch_no_warning": N_("incontri ripetuti senza avviso all'arbitro"),
    "check.avoidable_rematch": N_("incontro ripetuto evitabile: %(names)s (bastano %(k)s ripetizioni)"),
    "check.even_bye": N_("numero pari di coppie: nessuno deve riposare (riposa %(pair)s)"),
    "check.odd_no_bye": N_("numero dispari di coppie: una coppia deve riposare"),
    "check.top_down": N_("tavolo %(table)s: %(pair)s doveva giocare contro %(other)s (scelta dall'alto non "
                         "ottimale)"),
    "check.all_rested": N_("tutte hanno già riposato: deve riposare l'ultima (%(want)s), non %(got)s"),
    "check.rested_already": N_("la coppia %(pair)s ha già riposato (art. 33)"),
    "check.bye_belongs": N_("il riposo spetta a %(want)s (più in basso in classifica e non ha ancora "
                            "riposato), non a %(got)s (art. 33)"),
    "check.bye_avoids_rematch": N_("il riposo a %(pair)s eviterebbe incontri ripetuti"),
}


def translate(code: str, params: dict | None, fallback: str = "") -> str:
    """The message ``code`` with ``params`` in the active language; ``fallback`` (the
    Italian text) for an unknown code or parameters that do not fit."""
    template = TEMPLATES.get(code or "")
    if template is None:
        return fallback
    shown = dict(params or {})
    if shown.get("line") in _LINES:
        shown["line"] = gettext(_LINES[shown["line"]])
    try:
        return gettext(template) % shown
    except (KeyError, TypeError, ValueError):
        return fallback


def message_text(message) -> str:
    """A pure module's message (a ``Message`` or a plain ``str``) in the active language."""
    return translate(getattr(message, "code", ""), getattr(message, "params", None), str(message))


def stored(message) -> str | dict:
    """How a message is kept in JSON (``Round.check_report``): ``{"code", "params", "text"}``
    when it has a code, else its text."""
    code = getattr(message, "code", "")
    if code:
        return {"code": code, "params": message.params, "text": str(message)}
    return str(message)


def stored_text(item) -> str:
    """A stored item of :func:`stored` (or an old plain string) in the active language."""
    if isinstance(item, dict):
        return translate(item.get("code", ""), item.get("params"), item.get("text", ""))
    return str(item)
