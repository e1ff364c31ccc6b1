"""The rows of the live board's table as HTML, written in Python (for speed), as
:mod:`.round_table` writes the round page's.

The board's fragment is asked every 3 s by each arbiter window and rendered whenever a sheet
changed: in the busiest minute, every few seconds. Its template spent about 80 % of the
request in the row loop (some 40 template nodes a row, 10,000 node renders for 250 tables,
about 45 ms of CPU); here a row is a few string joins with every value escaped
(:func:`escape`, as ``django.utils.html.escape``). The markup is byte for byte the template's (the rest of the
fragment, ``templates/arbiter/board_rows.html``, is still a template); the texts are the
template's, translated here with the same message ids.

The rows are written once per round version (``board.board_rows_context``, kept in
``round_cache``) with :data:`CSRF_MARK` where each form's CSRF token goes;
:func:`with_csrf_token` puts the reader's token in, so the written rows are shared by every
request of that version without sharing anybody's token.

Input: the rows of :func:`tournaments.views.board.build_board_rows_context`.
"""
from __future__ import annotations

from django.template.defaultfilters import time as time_filter
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import gettext as _

from .round_table import escape
from .rounds import table_url

#: Where a form's CSRF token goes in the written rows (no escaped text holds a NUL).
CSRF_MARK = "\x00csrf-token\x00"
_CSRF_INPUT = f'<input type="hidden" name="csrfmiddlewaretoken" value="{CSRF_MARK}">'


def _texts() -> dict[str, str]:
    return {key: escape(value) for key, value in {
        "sum_error_title": _("I totali scritti non corrispondono alla somma delle smazzate"),
        "sum_error": _("Errore di somma"),
        "same_browser_title": _("Confermato forse dallo stesso telefono che l’ha inserito"),
        "same_browser": _("stesso browser?"), "pin_locked": _("PIN bloccato"),
        "corrected_title": _("Vedi le correzioni nel Registro"), "corrected": _("corretto dopo la chiusura"),
        "confirmed_by": _("confermato da"), "late": _("tempo scaduto"), "open": _("Apri"),
        "unlock_pin": _("Sblocca PIN"), "validate_disputed": _("Decidi e valida…"), "validate": _("Valida"),
    }.items()}


def _pair(pair: dict | None) -> str:
    if not pair:
        return '<td class="pair"></td>'
    return (f'<td class="pair"><b>{escape(pair["display_number"])}</b> '
            f'<span class="hide-phone">{escape(pair["name"])}</span></td>')


def _state_cell(r: dict, t: dict) -> str:
    if r["state"] == "bye":
        parts = [f'<td><span class="muted">{escape(r["bye"])}</span>']
    else:
        title = escape(r["state_title"]) if r["state_title"] else ""
        parts = [f'<td><span class="badge {escape(r["state"])}{" sum_error" if title else ""}"'
                 f'{f" title={chr(34)}{title}{chr(34)}" if title else ""}>{escape(r["state_label"])}</span>']
        if r["sum_error_mark"]:
            parts.append(f' <span class="badge sum_error" title="{t["sum_error_title"]}">{t["sum_error"]}</span>')
    if r.get("same_browser"):
        parts.append(f' <span class="badge same_browser" title="{t["same_browser_title"]}">{t["same_browser"]}</span>')
    if r["pin_locked"]:
        parts.append(f' <span class="badge pin_locked">{t["pin_locked"]}</span>')
    if r.get("corrected"):
        parts.append(f' <a class="badge corrected" href="{escape(r["audit_url"])}" '
                     f'title="{t["corrected_title"]}">{t["corrected"]}</a>')
    parts.append("</td>")
    return "".join(parts)


def _score_cells(r: dict) -> str:
    shown = r["state"] != "empty"
    mp, vp = r.get("mp"), r.get("vp")
    mp_text = f"{escape(mp[0])}–{escape(mp[1])}" if mp and shown else ""
    vp_text = f"{escape(vp[0])}–{escape(vp[1])}" if vp and shown else ""
    return f'<td class="num">{mp_text}</td>\n<td class="num">{vp_text}</td>'


def _who_cell(r: dict, t: dict) -> str:
    entered = escape(r.get("entered_by", ""))
    parts = ['<td class="hide-phone muted who">']
    if r.get("confirmed_by"):
        parts.append(f'{entered} · {t["confirmed_by"]} {escape(r["confirmed_by"])}')
    else:
        parts.append(entered)
    if r.get("updated_at") and r["state"] != "empty":
        parts.append(f' · {escape(time_filter(template_localtime(r["updated_at"]), "H:i"))}')
    if r.get("entered_at"):
        parts.append(f' · <span class="entered-at">{escape(r["entered_at"])}</span>')
    if r["extra_minutes"]:
        extra = escape(_("+%(m)s min al tavolo") % {"m": r["extra_minutes"]})
        parts.append(f' · <span class="extra-time">{extra}</span>')
    if r["late"]:
        parts.append(f' <span class="badge late">{t["late"]}</span>')
    parts.append("</td>")
    return "".join(parts)


def _actions_cell(r: dict, t: dict, urls: dict) -> str:
    number, url = r["number"], r.get("url")
    parts = ['<td class="no-print">']
    if url:
        parts.append(f'<a class="button" href="{escape(url)}">{t["open"]}</a>')
    parts.append("\n")
    if r["pin_locked"]:
        parts.append(f'<form method="post" action="{escape(urls["unlock_pin"](number))}" class="inline">'
                     f'{_CSRF_INPUT}<button>{t["unlock_pin"]}</button></form>')
    parts.append("\n")
    if r.get("can_validate") and r["state"] == "disputed":
        # trust: a disputed sheet is validated on its decision page, with the arbiter's decision
        parts.append(f'<a class="button primary validate-disputed" href="{escape(urls["decide"](number))}'
                     f'?da=tabellone&amp;versione={escape(r["version"])}">{t["validate_disputed"]}</a>\n')
    elif r.get("can_validate"):
        parts.append(f'<form method="post" action="{escape(urls["validate"](number))}" class="inline">'
                     f'{_CSRF_INPUT}<input type="hidden" name="version" value="{escape(r["version"])}">'
                     f'<button class="primary">{t["validate"]}</button></form>')
    parts.append("</td>")
    return "".join(parts)


def rows_html(rows: list[dict], *, slug: str, round_number: int) -> str:
    """The ``<tr>`` of every table of the board (each preceded by a new line, as the
    template's loop wrote them), with :data:`CSRF_MARK` in place of each form's token
    (:func:`with_csrf_token`). ``slug``/``round_number``: the tournament's and the round's,
    for the forms' addresses."""
    t = _texts()
    urls = {"unlock_pin": table_url("board_unlock_pin", slug, round_number),
            "decide": table_url("sheet_validate_disputed", slug, round_number),
            "validate": table_url("board_validate", slug, round_number)}
    out = []
    for r in rows:
        number, url = r["number"], r.get("url")
        shown_number = f'<a href="{escape(url)}">{number}</a>' if url else f"{number}"
        out.append(
            f'\n<tr id="t{number}" data-state="{escape(r["state"])}" data-version="{escape(r["version"])}"'
            f'{" class=" + chr(34) + "late" + chr(34) if r["late"] else ""}>\n'
            f'<td class="num"><b>{shown_number}</b></td>\n'
            f'{_pair(r["ns"])}\n{_pair(r["ew"])}\n{_state_cell(r, t)}\n{_score_cells(r)}\n'
            f'{_who_cell(r, t)}\n{_actions_cell(r, t, urls)}\n</tr>')
    return "".join(out)


def with_csrf_token(html: str, token: str) -> SafeString:
    """``html`` of :func:`rows_html` with the reader's CSRF ``token`` in every form."""
    return mark_safe(html.replace(CSRF_MARK, escape(token)))  # every value in html is escaped
