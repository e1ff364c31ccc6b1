"""The money of a tournament in its file (rules.md §21): the ``"money"`` section of
``tournaments.transfer`` (registered by ``MoneyConfig.ready``), so exports and backups carry
it and a restored tournament has the same treasurer's sheet.

Shape::

    {"fees": {"member_rate": "10.00", "guest_rate": "15.00", "category_rates": {…},
              "pool_amount": null | "…", "pool_percent": null | "…", "pool_cap": null | "…"} | null,
     "player_fees": [{"entrant": 3, "place": 1, "state": "paid", "rate": "member",
                      "amount": "10.00", "method": "cash", "reason": ""}, …],
     "refunds": [{"entrant": 7, "amount": "10.00", "reason": "…"}, …]}

A player is named by his entrant's number and his place among its players (1, 2…, in the
order ``kind.entrant_players`` gives: seat for a pair, registration for a team).
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.errors import ArbiterError

from .models import FeeSchedule, PlayerFee, Refund
from .selectors import entrant_players, money
from .services import METHODS, parse_money

MAX_ROWS = 20_000


def _opt(value):
    return None if value is None else money(value)


def _places(tournament) -> dict:
    """Player id → (entrant number, place 1..) and back."""
    ids, places, seen = {}, {}, {}
    for p in entrant_players(tournament):
        seen[p.entrant_number] = seen.get(p.entrant_number, 0) + 1
        ids[p.id] = (p.entrant_number, seen[p.entrant_number])
        places[(p.entrant_number, seen[p.entrant_number])] = p.id
    return {"ids": ids, "places": places}


def export_money(tournament) -> dict | None:
    """The section's value, None for a tournament without fees, payments or refunds."""
    fees = FeeSchedule.objects.filter(tournament=tournament).first()
    rows = list(PlayerFee.objects.filter(tournament=tournament))
    refunds = list(Refund.objects.filter(tournament=tournament).order_by("id"))
    if fees is None and not rows and not refunds:
        return None
    ids = _places(tournament)["ids"]
    player_fees = sorted(({"entrant": ids[f.player_id][0], "place": ids[f.player_id][1], "state": f.state,
                           "rate": f.rate, "amount": money(f.amount), "method": f.method, "reason": f.reason}
                          for f in rows if f.player_id in ids), key=lambda r: (r["entrant"], r["place"]))
    return {"fees": None if fees is None else {
                "member_rate": money(fees.member_rate), "guest_rate": money(fees.guest_rate),
                "category_rates": dict(fees.category_rates or {}), "pool_amount": _opt(fees.pool_amount),
                "pool_percent": _opt(fees.pool_percent), "pool_cap": _opt(fees.pool_cap)},
            "player_fees": player_fees,
            "refunds": [{"entrant": r.entrant, "amount": money(r.amount), "reason": r.reason} for r in refunds]}


def _bad(where: str) -> ArbiterError:
    return ArbiterError(_("Il file non è valido: cassa, %(where)s.") % {"where": where})


def _int(raw, where) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= 100_000:
        raise _bad(where)
    return raw


def _text(raw, where, limit) -> str:
    if not isinstance(raw, str) or len(raw) > limit:
        raise _bad(where)
    return raw


def _amount(raw, where, *, null=False):
    if raw is None and null:
        return None
    if not isinstance(raw, str):
        raise _bad(where)
    try:
        return parse_money(raw, what=where)
    except ArbiterError:
        raise _bad(where) from None


def check_money(value) -> dict:
    """The section checked and converted (Decimals); raises ``ArbiterError`` naming the place."""
    if not isinstance(value, dict) or set(value) - {"fees", "player_fees", "refunds"}:
        raise _bad("money")
    fees = value.get("fees")
    plan = {"fees": None, "player_fees": [], "refunds": []}
    if fees is not None:
        if not isinstance(fees, dict) or not isinstance(fees.get("category_rates", {}), dict):
            raise _bad("fees")
        plan["fees"] = {
            "member_rate": _amount(fees.get("member_rate"), "fees.member_rate"),
            "guest_rate": _amount(fees.get("guest_rate"), "fees.guest_rate"),
            "category_rates": {_text(k, "fees.category_rates", 60): money(_amount(v, "fees.category_rates"))
                               for k, v in fees.get("category_rates", {}).items()},
            **{k: _amount(fees.get(k), f"fees.{k}", null=True) for k in ("pool_amount", "pool_percent", "pool_cap")}}
        if plan["fees"]["pool_amount"] is not None and plan["fees"]["pool_percent"] is not None:
            raise _bad("fees.pool_percent")
    for key in ("player_fees", "refunds"):
        if not isinstance(value.get(key, []), list) or len(value.get(key, [])) > MAX_ROWS:
            raise _bad(key)
    seen = set()
    for i, row in enumerate(value.get("player_fees", [])):
        where = f"player_fees[{i}]"
        if not isinstance(row, dict):
            raise _bad(where)
        item = {"entrant": _int(row.get("entrant"), where + ".entrant"), "place": _int(row.get("place"), where + ".place"),
                "state": row.get("state"), "rate": _text(row.get("rate"), where + ".rate", 80),
                "amount": _amount(row.get("amount"), where + ".amount"),
                "method": row.get("method", ""), "reason": _text(row.get("reason", ""), where + ".reason", 200)}
        if item["state"] not in PlayerFee.State.values or item["method"] not in ("", *METHODS):
            raise _bad(where)
        if (item["entrant"], item["place"]) in seen:
            raise _bad(where)
        seen.add((item["entrant"], item["place"]))
        plan["player_fees"].append(item)
    for i, row in enumerate(value.get("refunds", [])):
        where = f"refunds[{i}]"
        if not isinstance(row, dict):
            raise _bad(where)
        plan["refunds"].append({"entrant": _int(row.get("entrant"), where + ".entrant"),
                                "amount": _amount(row.get("amount"), where + ".amount"),
                                "reason": _text(row.get("reason", ""), where + ".reason", 200)})
    return plan


def write_money(tournament, plan: dict) -> None:
    """Write the checked section into the imported ``tournament``; a fee naming a player the
    tournament lacks is refused (``ArbiterError``: the import's transaction rolls back)."""
    if plan["fees"] is not None:
        FeeSchedule.objects.create(tournament=tournament, **plan["fees"])
    places = _places(tournament)["places"]
    rows = []
    for i, row in enumerate(plan["player_fees"]):
        player = places.get((row["entrant"], row["place"]))
        if player is None:
            raise _bad(f"player_fees[{i}]")
        rows.append(PlayerFee(tournament=tournament, player_id=player, state=row["state"], rate=row["rate"],
                              amount=row["amount"], method=row["method"], reason=row["reason"]))
    PlayerFee.objects.bulk_create(rows)
    Refund.objects.bulk_create([Refund(tournament=tournament, **r) for r in plan["refunds"]])
