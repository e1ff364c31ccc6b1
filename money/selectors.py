"""The treasurer's sheet of an evening (*rendiconto della serata*, rules.md §21): reads only.

Collected = paid − refunds (waived fees are not collected). The pool is a fixed sum or a
percentage of the collected fees, optionally capped. Each prize is its ``amount`` or its
``share`` of the pool rounded down to the cent; the cents the shares leave go to the first
prize. Club's share = collected − pool; balance = pool − prizes awarded (a prize that found
nobody entitled stays in the balance and the sheet names it).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from members.selectors import membership_flags
from scoring import prizes as prize_rules
from tournaments.kinds import kind_of
from tournaments.models import Tournament
from tournaments.pages.prizes import prize_awards

from .models import FeeSchedule, PlayerFee, Refund

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
MEMBER, GUEST = "member", "guest"


def cents(value: Decimal) -> Decimal:
    """``value`` rounded down to the cent (rules.md §21: prizes and the pool never round up)."""
    return Decimal(value).quantize(CENT, rounding=ROUND_DOWN)


def schedule(tournament: Tournament) -> FeeSchedule | None:
    """The tournament's rates and pool, None before the arbiter sets them."""
    return FeeSchedule.objects.filter(tournament=tournament).first()


def entrant_players(tournament: Tournament) -> list:
    """The players of every entrant (``entrant_number`` annotated, ``member`` loaded), in
    entrant order: a pair's two, an individual player, a team's registered players."""
    return list(kind_of(tournament).entrant_players(tournament))


def player_rates(tournament: Tournament, fees: FeeSchedule, players: list) -> dict[int, tuple[str, Decimal]]:
    """Player id → (rate key, fee) by rules.md §21: a category with its own rate (the member's
    category, case-blind) pays it; else a player with no membership number, or one the
    membership check (§16, ``members.selectors.membership_flags``) reports unknown or expired
    on the tournament's date, pays the guest rate — whatever the check's setting —; else the
    member rate. Rate keys: ``member``, ``guest``, ``category:NAME``."""
    by_category = {prize_rules.category_key(k): (k, Decimal(v)) for k, v in (fees.category_rates or {}).items()}
    flags = membership_flags([p.membership_number for p in players], tournament.date,
                             club=tournament.club_id)
    out = {}
    for p in players:
        category = prize_rules.category_key(p.member.category) if p.member_id and p.member.category else ""
        number = (p.membership_number or "").strip()
        if category and category in by_category:
            name, rate = by_category[category]
            out[p.id] = (f"category:{name}", rate)
        elif not number or number in flags:
            out[p.id] = (GUEST, fees.guest_rate)
        else:
            out[p.id] = (MEMBER, fees.member_rate)
    return out


@dataclass(frozen=True)
class PrizeMoney:
    """One prize in money: ``prize`` (name), ``amount`` (Decimal), ``entrant`` (None when nobody
    is entitled), ``names``."""

    prize: str
    amount: Decimal
    entrant: int | None
    names: str | None


@dataclass
class Sheet:
    """The treasurer's sheet (every amount a ``Decimal`` with two decimals).

    ``by_rate``: rate key → collected at that rate (paid, before refunds); ``by_method``:
    method → paid; ``waived``: fees not charged; ``refunds``: given back; ``total``: collected
    (paid − refunds); ``pool``; ``prizes`` (in list order, money prizes only); ``club_share``;
    ``balance``; ``unpaid``: players neither paid nor waived as (entrant, name, fee);
    ``waivers``: (entrant, name, fee, reason); ``refund_rows``: (entrant, names, amount, reason), names
    the entrant's players joined by « – » (empty for an entrant no longer registered)."""

    by_rate: dict = field(default_factory=dict)
    by_method: dict = field(default_factory=dict)
    waived: Decimal = ZERO
    refunds: Decimal = ZERO
    total: Decimal = ZERO
    pool: Decimal = ZERO
    prizes: list = field(default_factory=list)
    club_share: Decimal = ZERO
    balance: Decimal = ZERO
    unpaid: list = field(default_factory=list)
    waivers: list = field(default_factory=list)
    refund_rows: list = field(default_factory=list)

    @property
    def paid(self) -> Decimal:
        return sum(self.by_rate.values(), ZERO)

    @property
    def unawarded(self) -> list:
        """The money prizes nobody was entitled to (their amount stays in the balance)."""
        return [p for p in self.prizes if p.entrant is None]


def pool_of(fees: FeeSchedule | None, collected: Decimal) -> Decimal:
    """The prize pool (rules.md §21): ``pool_amount``, or ``pool_percent`` % of ``collected``
    rounded down to the cent; never above ``pool_cap``; 0.00 without either."""
    if fees is None:
        return ZERO
    if fees.pool_amount is not None:
        pool = Decimal(fees.pool_amount)
    elif fees.pool_percent is not None:
        pool = cents(collected * Decimal(fees.pool_percent) / 100)
    else:
        return ZERO
    if fees.pool_cap is not None:
        pool = min(pool, Decimal(fees.pool_cap))
    return max(cents(pool), ZERO)


def prize_amounts(specs: list, pool: Decimal) -> list[Decimal | None]:
    """Each prize's money (None for a prize in kind), rules.md §21: an ``amount`` as given, a
    ``share`` % of ``pool`` rounded down to the cent; the cents the shares leave (their total
    share of the pool, rounded down, minus the rounded prizes) go to the first prize."""
    out: list[Decimal | None] = []
    shares = ZERO
    for s in specs:
        if s.amount is not None:
            out.append(s.amount)
        elif s.share is not None:
            shares += s.share
            out.append(cents(pool * s.share / 100))
        else:
            out.append(None)
    given = sum((a for s, a in zip(specs, out, strict=True) if s.share is not None), ZERO)
    left = cents(pool * shares / 100) - given
    if left > 0 and out and out[0] is not None:
        out[0] += left
    return out


def treasurer_sheet(tournament: Tournament) -> Sheet:
    """The tournament's sheet from its fees, refunds, prize list and current standings (a
    correction that moves a prize moves it here too)."""
    fees = schedule(tournament)
    sheet = Sheet()
    players = entrant_players(tournament)
    rates = player_rates(tournament, fees, players) if fees is not None else {}
    paid = {f.player_id: f for f in PlayerFee.objects.filter(tournament=tournament)}
    by_rate, by_method = defaultdict(lambda: ZERO), defaultdict(lambda: ZERO)
    for rate in (MEMBER, GUEST):
        by_rate[rate] = ZERO
    for p in players:
        f = paid.get(p.id)
        if f is None:
            if fees is not None:
                sheet.unpaid.append((p.entrant_number, p.display_name, rates[p.id][1]))
        elif f.state == PlayerFee.State.WAIVED:
            sheet.waived += f.amount
            sheet.waivers.append((p.entrant_number, p.display_name, f.amount, f.reason))
        else:
            by_rate[f.rate] += f.amount
            by_method[f.method] += f.amount
    sheet.by_rate, sheet.by_method = dict(by_rate), dict(by_method)
    # the treasurer reads who got the money back, as for the waivers
    names = defaultdict(list)
    for p in players:
        names[p.entrant_number].append(p.display_name)
    names = {number: " – ".join(people) for number, people in names.items()}
    for r in Refund.objects.filter(tournament=tournament):
        sheet.refunds += r.amount
        sheet.refund_rows.append((r.entrant, names.get(r.entrant, ""), r.amount, r.reason))
    sheet.total = sheet.paid - sheet.refunds
    sheet.pool = pool_of(fees, sheet.total)
    if tournament.prize_list:
        specs = prize_rules.parse_prize_list(tournament.prize_list)
        amounts = prize_amounts(specs, sheet.pool)
        awards = prize_awards(tournament)
        sheet.prizes = [PrizeMoney(a.prize, amount, a.entrant, a.names)
                        for a, amount in zip(awards, amounts, strict=False) if amount is not None]
    awarded = sum((p.amount for p in sheet.prizes if p.entrant is not None), ZERO)
    sheet.club_share = sheet.total - sheet.pool
    sheet.balance = sheet.pool - awarded
    return sheet


def money(value: Decimal) -> str:
    """``value`` as a string with two decimals (``"40.00"``)."""
    return str(Decimal(value).quantize(CENT))


def sheet_json(sheet: Sheet) -> dict:
    """The sheet as ``manage.py treasury SLUG --json`` prints it (issue's shape): ``{"income":
    {"member", "guest", "waived", "refunds", "total"}, "pool", "prizes": [{"prize", "amount",
    "names"}], "club_share", "balance"}``, amounts as strings with two decimals; fees at a
    category's rate, when the tournament has some, under ``income["categories"]``."""
    income = {"member": money(sheet.by_rate.get(MEMBER, ZERO)), "guest": money(sheet.by_rate.get(GUEST, ZERO)),
              "waived": money(sheet.waived), "refunds": money(sheet.refunds), "total": money(sheet.total)}
    categories = {k.split(":", 1)[1]: money(v) for k, v in sheet.by_rate.items() if k.startswith("category:")}
    if categories:
        income["categories"] = categories
    return {"income": income, "pool": money(sheet.pool),
            "prizes": [{"prize": p.prize, "amount": money(p.amount), "names": p.names} for p in sheet.prizes],
            "club_share": money(sheet.club_share), "balance": money(sheet.balance)}
