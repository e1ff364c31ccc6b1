"""Writes of the money of an evening (rules.md §21): rates and pool, payments, waivers,
refunds. Every write is audited in the tournament's audit trail (who, when, old → new) and
runs under the tournament's row lock, so two desks recording fees at once are serialised by
the database.
"""
from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from tournaments.errors import ArbiterError
from tournaments.models import AuditAction, Player, Tournament
from tournaments.services.audit import audit
from tournaments.services.guard import write

from .models import FeeSchedule, PlayerFee, Refund
from .selectors import entrant_players, money, player_rates

#: Largest fee, pool or refund accepted, in euro (a typo guard).
MAX_MONEY = Decimal("100000.00")
METHODS = tuple(PlayerFee.Method.values)


def parse_money(raw, *, what: str, allow_zero: bool = True) -> Decimal:
    """``raw`` (``"10"``, ``"10.50"``, a Decimal; a comma is read as the decimal point) as a
    Decimal with two decimals, from 0 (or 0.01) to :data:`MAX_MONEY`. Raises ``ArbiterError``
    naming ``what`` for anything else (never float)."""
    text = str(raw).strip().replace(",", ".")
    try:
        value = Decimal(text)
    except InvalidOperation:
        value = None
    if (value is None or not value.is_finite() or value != value.quantize(Decimal("0.01"))
            or value < 0 or (value == 0 and not allow_zero) or value > MAX_MONEY):
        raise ArbiterError(_("%(what)s: «%(raw)s» non è un importo valido (es. 10.00, al più due decimali, "
                             "fino a %(max)s).") % {"what": what, "raw": str(raw)[:20], "max": MAX_MONEY})
    return value.quantize(Decimal("0.01"))


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _schedule(tournament: Tournament) -> FeeSchedule:
    fees = FeeSchedule.objects.filter(tournament=tournament).first()
    if fees is None:
        raise ArbiterError(_("Prima indica le quote del torneo (soci e ospiti)."))
    return fees


@write(retry=False)
def set_fees(*, tournament: Tournament, by, member_rate, guest_rate, category_rates: dict | None = None,
             pool_amount=None, pool_percent=None, pool_cap=None) -> FeeSchedule:
    """Set the tournament's rates (euro per player) and prize pool (rules.md §21):
    ``pool_amount`` (a fixed sum) or ``pool_percent`` (0–100, of the collected fees), not both;
    ``pool_cap`` optional. Amounts as strings or Decimals. Fees already paid keep their amount.
    Audited as ``fees_set`` (old → new). Raises ``ArbiterError`` for a bad amount."""
    tournament = _locked(tournament)
    new = {"member_rate": parse_money(member_rate, what=_("quota soci")),
           "guest_rate": parse_money(guest_rate, what=_("quota ospiti")),
           "category_rates": {str(k).strip()[:60]: money(parse_money(v, what=str(k)[:60]))
                              for k, v in (category_rates or {}).items()},
           "pool_amount": None, "pool_percent": None, "pool_cap": None}
    if pool_amount not in (None, "") and pool_percent not in (None, ""):
        raise ArbiterError(_("Il montepremi è una somma fissa oppure una percentuale, non entrambi."))
    if pool_amount not in (None, ""):
        new["pool_amount"] = parse_money(pool_amount, what=_("montepremi"))
    if pool_percent not in (None, ""):
        pct = parse_money(pool_percent, what=_("percentuale del montepremi"))
        if pct > 100:
            raise ArbiterError(_("La percentuale del montepremi va da 0 a 100."))
        new["pool_percent"] = pct
    if pool_cap not in (None, ""):
        new["pool_cap"] = parse_money(pool_cap, what=_("tetto del montepremi"))
    fees, _created = FeeSchedule.objects.get_or_create(tournament=tournament)
    old = _fees_dict(fees) if not _created else None
    for key, value in new.items():
        setattr(fees, key, value)
    fees.save()
    fees.refresh_from_db()
    if old != _fees_dict(fees):
        audit(tournament=tournament, by=by, action=AuditAction.FEES_SET, old=old, new=_fees_dict(fees))
    return fees


def _fees_dict(fees: FeeSchedule) -> dict:
    def opt(v):
        return None if v is None else money(v)
    return {"member_rate": money(fees.member_rate), "guest_rate": money(fees.guest_rate),
            "category_rates": dict(fees.category_rates or {}), "pool_amount": opt(fees.pool_amount),
            "pool_percent": opt(fees.pool_percent), "pool_cap": opt(fees.pool_cap)}


def _players_of(tournament: Tournament, entrant) -> list:
    """The players of entrant number ``entrant`` (``"all"``: every entrant's) of this
    tournament; raises ``ArbiterError`` when the tournament has no such entrant."""
    players = entrant_players(tournament)
    if entrant == "all":
        return players
    try:
        number = int(str(entrant).strip())
    except ValueError:
        number = None
    chosen = [p for p in players if p.entrant_number == number]
    if not chosen:
        raise ArbiterError(_("Il torneo non ha il concorrente n. %(n)s.") % {"n": str(entrant)[:12]})
    return chosen


def _fee_state(fee: PlayerFee | None) -> dict | None:
    if fee is None:
        return None
    return {"state": fee.state, "rate": fee.rate, "amount": money(fee.amount), "method": fee.method,
            "reason": fee.reason}


def _pay(tournament: Tournament, fees: FeeSchedule, players: list, by, method: str) -> int:
    if method not in METHODS:
        raise ArbiterError(_("Metodo di pagamento sconosciuto: usa cash, card oppure other."))
    rates = player_rates(tournament, fees, players)
    existing = {f.player_id: f for f in PlayerFee.objects.filter(player__in=[p.id for p in players])}
    count = 0
    for p in players:
        if p.id in existing:  # paid already, or waived: «pay all» skips waived players
            continue
        rate, amount = rates[p.id]
        fee = PlayerFee.objects.create(tournament=tournament, player_id=p.id, state=PlayerFee.State.PAID,
                                       rate=rate, amount=amount, method=method)
        audit(tournament=tournament, by=by, action=AuditAction.FEE_PAID, old=None,
              new={"player": p.display_name, "entrant": p.entrant_number, **_fee_state(fee)})
        count += 1
    return count


@write(retry=False)
def pay(*, tournament: Tournament, by, entrant, method: str = "cash") -> int:
    """Record the fee of every player of ``entrant`` (its number, or ``"all"``) as paid with
    ``method`` (cash/card/other) at the player's rate (rules.md §21); players already paid or
    waived are skipped. Returns how many fees were recorded. Raises ``ArbiterError`` without
    rates, for an unknown entrant or method."""
    tournament = _locked(tournament)
    return _pay(tournament, _schedule(tournament), _players_of(tournament, entrant), by, method)


@write(retry=False)
def pay_player(*, tournament: Tournament, by, player_id, method: str = "cash") -> int:
    """Record one player's fee as paid (the check-in page). A player of another tournament
    is refused with ``ArbiterError`` (never paid into this evening's cash)."""
    tournament = _locked(tournament)
    fees = _schedule(tournament)
    players = [p for p in entrant_players(tournament) if str(p.id) == str(player_id).strip()]
    if not players:
        raise ArbiterError(_("Il giocatore non è iscritto a questo torneo: pagamento rifiutato."))
    return _pay(tournament, fees, players, by, method)


def paid_fee_refusal(players: list) -> str | None:
    """Why ``players`` (about to be deleted with their pair, or alone) cannot be: one of them
    paid his fee (rules.md §21: every payment stays on the treasurer's sheet until the arbiter
    cancels it, giving the money back). ``None`` when none paid (a waiver holds no money).
    Registered with ``tournaments.services.removal`` by ``MoneyConfig.ready``."""
    fee = (PlayerFee.objects.filter(player__in=[p.pk for p in players], state=PlayerFee.State.PAID)
           .select_related("player").first())
    if fee is None:
        return None
    return _("%(name)s ha già pagato la quota: annulla il pagamento dalla Cassa (restituendo i soldi) "
             "prima di cancellare l'iscrizione.") % {"name": fee.player.display_name}


def _refunds_stay_covered(tournament: Tournament, losing: list) -> None:
    """Refuse a waiver or a cancelled payment that would leave an entrant refunded more than
    its players paid (rules.md §21: collected = paid − refunds; a refund gives back money
    received, so the collected sum never goes below zero). ``losing``: the players whose paid
    fee is about to stop counting."""
    ids = {p.id for p in losing}
    for number in sorted({p.entrant_number for p in losing}):
        given = sum((r.amount for r in Refund.objects.filter(tournament=tournament, entrant=number)), Decimal("0.00"))
        if not given:
            continue
        others = [p.id for p in _players_of(tournament, number) if p.id not in ids]
        left = sum((f.amount for f in PlayerFee.objects.filter(player__in=others, state=PlayerFee.State.PAID)),
                   Decimal("0.00"))
        if given > left:
            raise ArbiterError(_("Il concorrente n. %(n)s ha già ricevuto %(given)s di rimborso: gli resterebbero "
                                 "versati solo %(left)s. Rimborsa il resto invece di togliere la quota.")
                               % {"n": number, "given": money(given), "left": money(left)})


@write(retry=False)
def waive(*, tournament: Tournament, by, entrant, reason: str, player_id=None) -> int:
    """Waive the fee of every player of ``entrant`` (or only ``player_id`` among them) with a
    ``reason`` (required): the player owes nothing and pays nothing; a fee paid already is
    turned into a waiver (its money leaves the collected sum). Returns how many fees changed.
    Audited as ``fee_waived``. Raises ``ArbiterError`` without a reason or rates, or when the
    entrant was refunded more than would stay paid."""
    reason = (reason or "").strip()
    if not reason:
        raise ArbiterError(_("Indica il motivo dell'esonero."))
    tournament = _locked(tournament)
    fees = _schedule(tournament)
    players = _players_of(tournament, entrant)
    if player_id is not None:
        players = [p for p in players if str(p.id) == str(player_id)]
        if not players:
            raise ArbiterError(_("Il giocatore non è iscritto a questo torneo."))
    rates = player_rates(tournament, fees, players)
    _refunds_stay_covered(tournament, [p for p in players if PlayerFee.objects.filter(
        player_id=p.id, state=PlayerFee.State.PAID).exists()])
    count = 0
    for p in players:
        fee = PlayerFee.objects.filter(player_id=p.id).first()
        if fee is not None and fee.state == PlayerFee.State.WAIVED:
            continue
        old = _fee_state(fee)
        rate, amount = rates[p.id]
        fee, _created = PlayerFee.objects.update_or_create(
            player_id=p.id, defaults={"tournament": tournament, "state": PlayerFee.State.WAIVED, "rate": rate,
                                      "amount": amount, "method": "", "reason": reason[:200]})
        audit(tournament=tournament, by=by, action=AuditAction.FEE_WAIVED, old=old,
              new={"player": p.display_name, "entrant": p.entrant_number, **_fee_state(fee)}, reason=reason)
        count += 1
    return count


@write(retry=False)
def cancel_fee(*, tournament: Tournament, by, player_id) -> None:
    """Undo a player's payment or waiver (a mistake at the desk): the player owes his fee
    again. Audited as ``fee_cancelled``. Raises ``ArbiterError`` for a player of another
    tournament, one with nothing recorded, or a payment a refund already gave back."""
    tournament = _locked(tournament)
    pid = str(player_id).strip()
    fee = PlayerFee.objects.filter(tournament=tournament, player_id=int(pid)).first() if pid.isdecimal() else None
    if fee is None:
        raise ArbiterError(_("Nessuna quota registrata per questo giocatore in questo torneo."))
    if fee.state == PlayerFee.State.PAID:
        _refunds_stay_covered(tournament, [p for p in entrant_players(tournament) if p.id == fee.player_id])
    old = _fee_state(fee)
    player = Player.objects.get(pk=fee.player_id)
    fee.delete()
    audit(tournament=tournament, by=by, action=AuditAction.FEE_CANCELLED, old={"player": player.display_name, **old},
          new=None)


@write(retry=False)
def refund(*, tournament: Tournament, by, entrant, amount, reason: str = "") -> Refund:
    """Give ``amount`` (euro) back to ``entrant`` (its number): at most what its players paid
    less what was refunded already (rules.md §21: collected = paid − refunds). Audited as
    ``fee_refund``. Raises ``ArbiterError`` for an unknown entrant or a bad amount."""
    tournament = _locked(tournament)
    players = _players_of(tournament, entrant)
    number = players[0].entrant_number
    value = parse_money(amount, what=_("rimborso"), allow_zero=False)
    paid = sum((f.amount for f in PlayerFee.objects.filter(player__in=[p.id for p in players],
                                                            state=PlayerFee.State.PAID)), Decimal("0.00"))
    given = sum((r.amount for r in Refund.objects.filter(tournament=tournament, entrant=number)), Decimal("0.00"))
    if value > paid - given:
        raise ArbiterError(_("Il concorrente n. %(n)s ha versato %(paid)s e ricevuto %(given)s di rimborso: "
                             "non si possono rimborsare %(amount)s.")
                           % {"n": number, "paid": money(paid), "given": money(given), "amount": money(value)})
    row = Refund.objects.create(tournament=tournament, entrant=number, amount=value, reason=(reason or "").strip()[:200])
    audit(tournament=tournament, by=by, action=AuditAction.FEE_REFUND, old={"refunded": money(given)},
          new={"entrant": number, "amount": money(value), "refunded": money(given + value)}, reason=reason or "")
    return row
