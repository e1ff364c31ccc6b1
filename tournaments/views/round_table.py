"""The rows of the round page's table list as HTML, written in Python (for speed).

A 250-table round page spent most of its time in the template engine (about 35 template
nodes a row: 9,000 node renders a request). Here a row is a few string joins with every
value escaped (:func:`escape`, as ``django.utils.html.escape``), about 20 times faster, so the arbiter's page
stays within its target while 500 phones poll (``bench/round_page.py``). The markup is the
one the template had (``templates/arbiter/round.html`` keeps the header and the rest of
the page); the texts are the template's, translated here with the same message ids.

Input: the rows of :func:`tournaments.views.rounds.round_rows`.
"""
from __future__ import annotations

from html import escape as _html_escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def escape(value) -> str:
    """``django.utils.html.escape`` of ``value`` without its lazy-text wrapper and SafeString:
    the same characters escaped (``html.escape`` of ``str(value)``), as a plain str. A round
    page escapes some 28,000 values, and the wrapper was a quarter of the rows' time."""
    return _html_escape(str(value))


def _texts() -> dict[str, str]:
    return {key: escape(value) for key, value in {
        "enter": _("Inserisci"), "edit": _("Modifica"), "validate": _("Valida"), "corrections": _("Correzioni"),
        "log": _("Registro"), "sum_error": _("Errore di somma"),
        "arbitral": _("arbitrale"), "validate_disputed": _("Decidi e valida…"),
        "corrected": _("corretto dopo la chiusura"), "corrected_title": _("Vedi le correzioni nel Registro"),
    }.items()}


def _pair(pair: dict | None) -> str:
    if pair is None:
        return '<td><span class="pairname"><b></b> <span class="hide-phone"></span></span></td>'
    name = escape(pair["name"])
    return (f'<td><span class="pairname" title="{name}"><b>{escape(pair["display_number"])}</b> '
            f'<span class="hide-phone">{name}</span></span></td>')


def _state_cell(row: dict, t: dict) -> str:
    status = escape(row["status"] or "")
    parts = [f'<td><span class="badge {status}">{escape(row["status_label"])}</span>']
    if row["sum_error_mark"]:
        parts.append(f' <span class="badge sum_error sum-error-mark">{t["sum_error"]}</span>')
    if row["dispute_note"]:
        parts.append(f' <small class="dispute-note">«{escape(row["dispute_note"])}»</small>')
    if row["arbitral"]:
        parts.append(f' <span class="badge">{t["arbitral"]}</span>')
    if row.get("corrected"):  # a correction of the closed round (rules.md §13), linked to its audit
        parts.append(f' <a class="badge corrected" href="{escape(row["audit_url"])}" '
                     f'title="{t["corrected_title"]}">{t["corrected"]}</a>')
    if row["entered_at"]:
        parts.append(f' <small class="muted entered-at">{escape(row["entered_at"])}</small>')
    if row["extra_seconds"]:
        extra = escape(_("+%(m)s min al tavolo") % {"m": row["extra_minutes"]})
        parts.append(f' <small class="muted extra-time">{extra}</small>')
    parts.append("</td>")
    return "".join(parts)


def _actions_cell(row: dict, t: dict) -> str:
    empty = row["status"] == "empty"
    parts = ['<td class="no-print row-actions">\n',
             f'<a href="{escape(row["sheet_url"])}">{t["enter"] if empty else t["edit"]}</a>\n']
    if row["can_validate"] and row.get("decide_url"):
        # trust: a disputed sheet is validated on its decision page, with the arbiter's decision
        parts.append(f'<a class="button validate-disputed" href="{escape(row["decide_url"])}">'
                     f'{t["validate_disputed"]}</a>\n')
    elif row["can_validate"]:
        # One form for the page (id validate-row, with the CSRF token); the button names the table.
        parts.append(f'<button class="validate" form="validate-row" formaction="{escape(row["validate_url"])}">'
                     f'{t["validate"]}</button>\n')
    if not empty:
        parts.append(f'<a href="{escape(row["corrections_url"])}">{t["corrections"]}</a>\n')
    parts.append(f'<a class="muted hide-phone" href="{escape(row["audit_url"])}">{t["log"]}</a>\n</td>')
    return "".join(parts)


def rows_html(rows: list[dict], *, in_play: bool) -> SafeString:
    """The ``<tr>`` of every table. ``in_play``: the round is published or closed (score,
    MP, VP and action columns); a draft shows the tables and pairs only. A round drawn in
    groups (some row's ``group``) has a group column after the table's number (the page's
    header adds its heading: ``grouped`` in the round page's context)."""
    t = _texts()
    out = []
    # a round drawn in groups (rules.md §14, §19): a "Girone" column after the table number
    # (the rest tables come after every group's tables, so a heading per group would repeat)
    grouped = any(row.get("group") for row in rows)
    for row in rows:
        status = escape(row["status"] or "")
        in_group = f' data-group="{row["group"]}"' if row.get("group") else ""
        cells = [f'<tr id="table-{row["number"]}" data-status="{status}"{in_group}>\n'
                 f'<td class="num">{row["number"]}</td>\n']
        if grouped:
            cells.append(f'<td class="num group">{row.get("group") or ""}</td>\n')
        if row["bye"]:
            # The resting pair stays in its own line's column (an E/W pair under E/O, as the
            # board and the public pages show it); the empty line's cell says "Riposo".
            rest = f'<td class="rest-label"><em>{escape(row["bye_label"])}</em></td>'
            pair = _pair(row["resting"])
            cells.append(f'{rest}{pair}\n' if row.get("resting_line") == "ew" else f'{pair}{rest}\n')
            if in_play:
                cells.append(f'<td></td><td class="hide-phone"></td><td class="hide-phone"></td>'
                             f'<td class="num">{escape(row["vp"])}</td><td class="no-print"></td>\n')
        else:
            cells.append(f'{_pair(row["ns"])}\n{_pair(row["ew"])}\n')
            if in_play:
                mp = row["mp"] or ("", "")
                cells.append(f'{_state_cell(row, t)}\n<td class="num hide-phone">{mp[0]}</td>\n'
                             f'<td class="num hide-phone">{mp[1]}</td>\n<td class="num">{escape(row["vp"])}</td>\n'
                             f'{_actions_cell(row, t)}\n')
        cells.append("</tr>\n")
        out.append("".join(cells))
    return mark_safe("".join(out))  # every value above is escaped
