"""Builders and helpers shared by the tournament tests (rounds played by hand, sessions, the creation form, audit constants, page headings)."""
from __future__ import annotations

import ast
import re

from django.urls import reverse

from tournaments import selectors, services
from tournaments.models import AuditAction, Table
from tournaments.services import HandInput


def audit_constants(node) -> set[str]:
    """Action codes an expression may evaluate to: ``AuditAction.A`` (its value) or "a", or
    either of ``x if c else y``. A name ``AuditAction`` does not have gives a code no label
    has, so the tests that read the labels fail on it."""
    if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "AuditAction":
        member = getattr(AuditAction, node.attr, None)
        return {member.value if member is not None else f"AuditAction.{node.attr}?"}
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return audit_constants(node.body) | audit_constants(node.orelse)
    return set()


TOURNAMENT = {
    "name": "Coppa", "slug": "coppa", "date": "2026-12-01", "venue": "", "kind": "pairs", "plan": "MMMD",
    "hands_per_round": "4", "vp_scale": "vp20-4h", "mitchell_step": "1", "first_round": "number",
    "rematch_window": "all", "bye_percent": "70", "bye_mp": "zero",
    "tiebreaks": "vp,mp_difference,head_to_head,mp_scored", "rule_set": "fibur",
}


def seating(rnd):
    """{table: (ns, ew)} and the resting pair, as pair numbers."""
    out, rest, forced = {}, None, []
    for t in selectors.round_tables(rnd):
        if t.bye == Table.Bye.REST:
            rest = t.resting_pair.number
        elif t.bye == Table.Bye.FORCED:
            forced.append(t.resting_pair.number)
        else:
            out[t.number] = (t.ns.number, t.ew.number)
    return out, rest, forced


def hands(ns, ew, n=4):
    """A sheet whose first hand carries the whole score, the others 0–0."""
    return [HandInput(ns, ew)] + [HandInput(0, 0)] * (n - 1)


def play(rnd, arbiter, scores=None, default=(0, 0)):
    """Enter and validate every sheet; scores: {table: (mp_ns, mp_ew)}; then close."""
    scores = scores or {}
    rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True) if rnd.state == "draft" else rnd
    for t in rnd.tables.filter(bye=""):
        ns, ew = scores.get(t.number, default)
        services.save_score_sheet(table=t, hands=hands(ns, ew), by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


def play_round(rnd, arbiter, score=lambda ns, ew: (0, 0)):
    """Publish ``rnd`` if a draft, enter every sheet with ``score(ns_pair, ew_pair)`` →
    (MP N/S, MP E/W) as pair numbers, validate and close."""
    if rnd.state == "draft":
        rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    for t in rnd.tables.filter(bye=""):
        ns, ew = score(t.ns.number, t.ew.number)
        services.save_score_sheet(table=t, hands=hands(ns, ew), by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


def crush(loser):
    """Scores where ``loser`` loses 0–2005 (0 VP, its opponent 20) and other tables draw."""
    def score(ns, ew):
        if ns == loser:
            return 0, 2005
        if ew == loser:
            return 2005, 0
        return 0, 0
    return score


def with_plan(tournament, arbiter, plan):
    services.update_tournament(tournament=tournament, by=arbiter, plan=plan)
    tournament.refresh_from_db()
    return tournament


BASE = {
    "date": "2026-12-01", "venue": "", "kind": "pairs", "plan": "MMMD", "hands_per_round": 4,
    "vp_scale": "vp20-4h", "mitchell_step": 1, "first_round": "number", "rematch_window": "all",
    "bye_percent": "70", "bye_mp": "zero", "rule_set": "fibur",
    "tiebreaks_0": "vp", "tiebreaks_1": "mp_difference", "tiebreaks_2": "head_to_head", "tiebreaks_3": "mp_scored",
}


def create(client, **changes):
    return client.post(reverse("tournament_create"), {**BASE, **changes})


def headings(html: str, table_id: str = "standings") -> list[str]:
    """The text of the <th> cells of the table with ``id``, tags and spaces stripped."""
    table = re.search(rf'<table[^>]*id="{table_id}".*?</thead>', html, re.S).group(0)
    return [re.sub(r"<[^>]+>|\s+", " ", th).strip() for th in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
