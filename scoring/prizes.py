"""Prizes (*premi*, rules.md §18): who wins each prize of a tournament's list. Pure Python.

A prize list is ordered; each prize names who may win it (its *scope*): the overall ranking,
a group's ranking (``group:2``) or a category's ranking (``category:Dame``, the entrants whose
players are all of that category). Not cumulative (the default, "i premi non sono
cumulabili"): prizes are given in the list's order, each to the best-ranked entrant of its
scope who has none yet. Cumulative: the k-th prize of a scope goes to the scope's k-th
entrant, whatever else he won. Withdrawn entrants win nothing. A winner sharing his place
with another entrant of the scope is flagged *ex aequo*.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Sequence

OVERALL = "overall"
GROUP = "group"
CATEGORY = "category"

#: Longest prize list accepted (a typo guard; a club gives a few dozen at most).
MAX_PRIZES = 200


class PrizeError(ValueError):
    """A prize list that cannot be used; the message is a sentence for the user."""


@dataclass(frozen=True)
class Scope:
    """Who may win a prize: ``kind`` ``overall``, ``group`` (``value`` the group number) or
    ``category`` (``value`` the category's text)."""

    kind: str
    value: int | str | None = None

    @property
    def text(self) -> str:
        """The scope as written in a prize file: ``overall``, ``group:2``, ``category:Dame``."""
        return self.kind if self.kind == OVERALL else f"{self.kind}:{self.value}"


#: The words of a scope as the arbiter types them on the prize page, per language: the
#: stored list and the prize files use the English ones; the page's help text teaches the
#: Italian ones (assoluto, girone:2, categoria:Dame); :func:`parse_scope` reads both.
SCOPE_WORDS = {
    "it": {OVERALL: "assoluto", GROUP: "girone", CATEGORY: "categoria"},
    "en": {OVERALL: OVERALL, GROUP: GROUP, CATEGORY: CATEGORY},
}
#: The arbiter's page accepts the scopes in Italian too: assoluto, girone:2, categoria:Dame.
ITALIAN_KINDS = {word: kind for kind, word in SCOPE_WORDS["it"].items() if kind != OVERALL}


def scope_words(scope: Scope, language: str = "it") -> str:
    """``scope`` as the arbiter types it in ``language`` ("it" or "en"; any other reads as
    Italian, the interface's first language): ``assoluto``, ``girone:2``, ``categoria:Dame``
    / ``overall``, ``group:2``, ``category:Dame``. :func:`parse_scope` reads it back."""
    words = SCOPE_WORDS.get(language, SCOPE_WORDS["it"])
    return words[OVERALL] if scope.kind == OVERALL else f"{words[scope.kind]}:{scope.value}"


def parse_scope(text) -> Scope:
    """``"overall"``, ``"group:G"`` (G ≥ 1) or ``"category:NAME"`` → :class:`Scope`; also in
    Italian (``assoluto``, ``girone:G``, ``categoria:NOME``).

    Raises :class:`PrizeError` for anything else.
    """
    if not isinstance(text, str):
        raise PrizeError("«scope» deve essere un testo: overall, group:N o category:NOME.")
    raw = text.strip()
    if raw.lower() in (OVERALL, "assoluto"):
        return Scope(OVERALL)
    kind, sep, value = raw.partition(":")
    kind, value = ITALIAN_KINDS.get(kind.strip().lower(), kind.strip().lower()), value.strip()
    if sep and kind == GROUP:
        if not value.isdecimal() or int(value) < 1 or int(value) > 1000:
            raise PrizeError(f"«{raw}»: il girone va indicato con un numero, es. group:2.")
        return Scope(GROUP, int(value))
    if sep and kind == CATEGORY:
        if not value or len(value) > 60:
            raise PrizeError(f"«{raw}»: indica la categoria (al più 60 caratteri), es. category:Dame.")
        return Scope(CATEGORY, value)
    raise PrizeError(f"«{raw}»: ambito sconosciuto; usa overall, group:N o category:NOME.")


@dataclass(frozen=True)
class PrizeSpec:
    """One prize of the list: ``name`` (``"1° assoluto"``) and ``scope``; in money (rules.md
    §21) an ``amount`` in euro or a ``share`` of the pool in percent (``Decimal``, at most one
    of them, both None for a prize in kind)."""

    name: str
    scope: Scope
    amount: Decimal | None = None
    share: Decimal | None = None


#: Largest prize amount accepted, in euro (a typo guard).
MAX_AMOUNT = Decimal("100000.00")


def _money_value(i: int, key: str, raw, top: Decimal) -> Decimal:
    """``raw`` (a JSON number or a string such as ``"40.00"``) as a Decimal with at most two
    decimals, above 0 and at most ``top``; raises :class:`PrizeError` naming prize ``i``."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise PrizeError(f"Premio {i}: «{key}» va scritto come numero, es. 40.00.")
    try:
        value = Decimal(str(raw).strip())
    except InvalidOperation:
        raise PrizeError(f"Premio {i}: «{key}» va scritto come numero, es. 40.00.") from None
    if not value.is_finite() or value <= 0 or value > top or value != value.quantize(Decimal("0.01")):
        raise PrizeError(f"Premio {i}: «{key}» va da 0.01 a {top} con al più due decimali.")
    return value.quantize(Decimal("0.01"))


def parse_prize_list(data) -> list[PrizeSpec]:
    """A prize list as read from JSON: ``[{"prize": "1° assoluto", "scope": "overall"}, …]``,
    each item optionally with ``"amount": "40.00"`` (euro) or ``"share": 50`` (percent of the
    prize pool, rules.md §21), not both.

    Raises :class:`PrizeError` naming the first bad item (1-based) for a value that is not
    such a list, a missing or over-long name (120 characters), a bad scope, or more than
    :data:`MAX_PRIZES` prizes.
    """
    if not isinstance(data, list):
        raise PrizeError("L'elenco dei premi deve essere una lista JSON: [{\"prize\": …, \"scope\": …}, …].")
    if len(data) > MAX_PRIZES:
        raise PrizeError(f"Al più {MAX_PRIZES} premi.")
    out = []
    for i, item in enumerate(data, start=1):
        if not isinstance(item, dict) or set(item) - {"prize", "scope", "amount", "share"}:
            raise PrizeError(f"Premio {i}: servono solo le chiavi «prize» e «scope» (e «amount» o «share»).")
        if "amount" in item and "share" in item:
            raise PrizeError(f"Premio {i}: indica «amount» (euro) oppure «share» (percentuale del montepremi), "
                             "non entrambi.")
        name = item.get("prize")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > 120:
            raise PrizeError(f"Premio {i}: «prize» è il nome del premio (da 1 a 120 caratteri).")
        try:
            scope = parse_scope(item.get("scope"))
        except PrizeError as exc:
            raise PrizeError(f"Premio {i}: {exc}") from None
        amount = _money_value(i, "amount", item["amount"], MAX_AMOUNT) if "amount" in item else None
        share = _money_value(i, "share", item["share"], Decimal(100)) if "share" in item else None
        out.append(PrizeSpec(name.strip(), scope, amount, share))
    return out


def prize_line(item, language: str = "it") -> str:
    """A stored prize ``{"prize": "1ª coppia Dame", "scope": "category:Dame"}`` as the arbiter
    types it on the prize page, «name | scope» with the scope in ``language``'s words
    (:func:`scope_words`): ``"1ª coppia Dame | categoria:Dame"``; a prize in money (rules.md
    §21) ends with its money as typed, ``" | 50%"`` (``share``, a percentage of the pool) or
    ``" | 40.00"`` (``amount``, euro). A scope that does not parse is kept as stored; a value
    that is not such a mapping is returned as its text."""
    if not isinstance(item, dict):
        return str(item)
    try:
        scope = scope_words(parse_scope(item.get("scope")), language)
    except PrizeError:
        scope = str(item.get("scope", ""))
    money = f" | {item['share']}%" if "share" in item else f" | {item['amount']}" if "amount" in item else ""
    return f"{item.get('prize', '')} | {scope}{money}"


@dataclass(frozen=True)
class Contender:
    """An entrant in the final standings, in standings order: ``entrant`` (number),
    ``position`` (shared by tied entrants), ``withdrawn``, ``group`` (None without groups),
    ``categories`` (the categories every one of its players has, compared case-blind)."""

    entrant: int
    position: int
    withdrawn: bool = False
    group: int | None = None
    categories: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Award:
    """A prize and who wins it: ``entrant`` None when nobody is entitled; ``ex_aequo`` when
    the winner shares his place with another entrant of the prize's scope."""

    prize: PrizeSpec
    entrant: int | None
    ex_aequo: bool


def category_key(text: str) -> str:
    """How categories compare: case and surrounding spaces ignored (``" dame"`` = ``"Dame"``)."""
    return " ".join((text or "").split()).casefold()


def _scope_key(scope: Scope) -> tuple:
    """A scope as compared: categories case-blind (``category:dame`` is ``category:Dame``)."""
    return (scope.kind, category_key(str(scope.value)) if scope.kind == CATEGORY else scope.value)


def _in_scope(c: Contender, scope: Scope) -> bool:
    if scope.kind == GROUP:
        return c.group == scope.value
    if scope.kind == CATEGORY:
        return category_key(str(scope.value)) in c.categories
    return True


def award_prizes(prizes: Sequence[PrizeSpec], standings: Sequence[Contender], *,
                 cumulative: bool = False) -> list[Award]:
    """Who wins each prize (rules.md §18), one :class:`Award` per prize in list order.

    ``standings``: every entrant best first (ties in the standings' order). Not cumulative:
    each prize goes to the best-ranked entrant of its scope without a prize yet; cumulative:
    the k-th prize of a scope (k counted along the list) to the scope's k-th entrant.
    Withdrawn entrants are never entitled. A prize nobody is entitled to has ``entrant`` None.
    """
    eligible = [c for c in standings if not c.withdrawn]
    won: set[int] = set()
    seen_of_scope: dict[tuple, int] = {}
    out = []
    for prize in prizes:
        scope_members = [c for c in eligible if _in_scope(c, prize.scope)]
        if cumulative:
            key = _scope_key(prize.scope)
            k = seen_of_scope.get(key, 0)
            seen_of_scope[key] = k + 1
            winner = scope_members[k] if k < len(scope_members) else None
        else:
            winner = next((c for c in scope_members if c.entrant not in won), None)
        if winner is None:
            out.append(Award(prize, None, False))
            continue
        won.add(winner.entrant)
        shared = any(c.position == winner.position and c.entrant != winner.entrant for c in scope_members)
        out.append(Award(prize, winner.entrant, shared))
    return out
