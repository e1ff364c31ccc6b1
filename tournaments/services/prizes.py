"""The prize list of a tournament (rules.md §18): set it, copy it from another tournament.

Who wins is never stored: ``tournaments.pages.prizes.prize_awards`` computes it from the
current standings, so a correction moves the prizes too.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from scoring import prizes as prize_rules

from ..errors import ArbiterError
from ..models import AuditAction, Tournament
from ..text import clean_line
from .audit import PRIZES_COPIED_REASON, audit
from .guard import write


def _clean_item(item, index: int):
    """One prize of a list as it came (``{"prize": …, "scope": …}``, from a file or the page)
    with its name and scope made storable and printable (``text.clean_line``: control
    characters and bidirectional overrides removed); anything else is left to the rule's
    checks. Raises ``ArbiterError`` naming the prize for a NUL."""
    if not isinstance(item, dict):
        return item
    label = _("Premio %(n)s") % {"n": index}
    item = dict(item)
    for key in ("prize", "scope"):
        if isinstance(item.get(key), str):
            # the rule (scoring.prizes) checks the lengths, with its own sentence
            item[key] = clean_line(item[key], label=label, max_length=len(item[key]))
    return item


def normal_prize_list(data) -> list[dict]:
    """``data`` (parsed JSON) as the stored list ``[{"prize": …, "scope": …}, …]`` (with
    ``"amount"`` or ``"share"`` as a string with two decimals when given, rules.md §21), names
    and scopes cleaned (:func:`_clean_item`), names trimmed and scopes written the standard
    way (``group:2``). Raises ``ArbiterError`` with the rule's sentence
    (``scoring.prizes.parse_prize_list``), or naming the prize for a NUL."""
    if isinstance(data, list) and len(data) <= prize_rules.MAX_PRIZES:
        data = [_clean_item(item, i) for i, item in enumerate(data, start=1)]
    try:
        specs = prize_rules.parse_prize_list(data)
    except prize_rules.PrizeError as exc:
        raise ArbiterError(str(exc)) from None
    out = []
    for s in specs:
        item = {"prize": s.name, "scope": s.scope.text}
        # money (rules.md §21): kept as strings with two decimals, never float
        if s.amount is not None:
            item["amount"] = str(s.amount)
        if s.share is not None:
            item["share"] = str(s.share)
        out.append(item)
    return out


@write(retry=False)
def set_prize_list(*, tournament: Tournament, by, prizes, reason: str = "") -> Tournament:
    """Replace the tournament's prize list with ``prizes`` (a list of ``{"prize", "scope"}``,
    see :func:`normal_prize_list`); allowed at any time (a prize list changes no result).
    Audited as ``prize_list`` (old → new). Raises ``ArbiterError`` for a bad list."""
    new = normal_prize_list(prizes)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    old = tournament.prize_list
    if old != new:
        tournament.prize_list = new
        tournament.save(update_fields=["prize_list"])
        audit(tournament=tournament, by=by, action=AuditAction.PRIZE_LIST, old={"prizes": old}, new={"prizes": new},
              reason=reason)
    return tournament


@write(retry=False)
def copy_prize_list(*, tournament: Tournament, source: Tournament, by) -> Tournament:
    """Give ``tournament`` the prize list (and the cumulative setting) of ``source``; the
    caller checks that ``by`` may read ``source``. Raises ``ArbiterError`` when ``source``
    has no prizes or is the same tournament."""
    if source.pk == tournament.pk:
        raise ArbiterError(_("Scegli un altro torneo da cui copiare i premi."))
    if not source.prize_list:
        raise ArbiterError(_("Il torneo «%(name)s» non ha premi da copiare.") % {"name": source.name})
    tournament = set_prize_list(tournament=tournament, by=by, prizes=source.prize_list,
                                reason=PRIZES_COPIED_REASON % {"slug": source.slug})  # stored in Italian
    if tournament.prizes_cumulative != source.prizes_cumulative:
        Tournament.objects.filter(pk=tournament.pk).update(prizes_cumulative=source.prizes_cumulative)
        tournament.prizes_cumulative = source.prizes_cumulative
    return tournament
