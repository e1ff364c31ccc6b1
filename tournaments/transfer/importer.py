"""Import: a tournament file back into the database (issue 13 item 4).

The whole file is read and checked first (format, version, every value, every reference
between rows); only then is everything created in ONE transaction with one audit entry
``tournament_imported``. A refusal creates nothing.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import vp as vp_rules

from ..errors import ArbiterError
from ..models import (
    AuditEntry, CustomScale, HandRow, Pair, Penalty, Player, Round, ScoreSheet, Seat, Table, Tournament,
    new_token,
)
from ..services.audit import audit
from ..services.guard import refuse_integrity_errors
from .schema import FIELDS, FORMAT, VERSION, from_json

MAX_DETAILS = 30

#: The keys each object of the file has beyond its model's ``FIELDS``.
EXTRA_KEYS = {
    "tournament": ("created_by", "arbiters"),
    "players": ("pair",),
    "tables": ("ns", "ew", "sheet"),
    "sheet": ("hands",),
    "rounds": ("tables",),
    "penalties": ("pair", "created_by"),
    "audit": ("user",),
}


@dataclass
class ImportResult:
    """What :func:`import_tournament` did: the new tournament and sentences for the arbiter
    (a renamed VP scale, new captain links, users created inactive)."""

    tournament: Tournament
    messages: list[str] = field(default_factory=list)


class _Checker:
    """Collects every problem of a file with where it is (``rounds[2].tables[1].pin``)."""

    def __init__(self):
        self.errors: list[str] = []

    def add(self, where: str, problem) -> None:
        self.errors.append(f"{where}: {problem}")

    def obj(self, where: str, raw, model, extra=()) -> dict | None:
        """``raw`` checked as one object of ``model``: the converted field values, or None."""
        if not isinstance(raw, dict):
            self.add(where, _("atteso un oggetto"))
            return None
        expected = set(FIELDS[model]) | set(extra)
        for key in sorted(expected - raw.keys()):
            self.add(where, _("manca «%(key)s»") % {"key": key})
        for key in sorted(raw.keys() - expected):
            self.add(where, _("campo sconosciuto «%(key)s»") % {"key": key})
        values = {}
        for name in FIELDS[model]:
            if name not in raw:
                continue
            try:
                values[name] = from_json(model._meta.get_field(name), raw[name])
            except ValidationError as exc:
                self.add(f"{where}.{name}", " ".join(exc.messages))
        return values

    def items(self, where: str, raw) -> list:
        if not isinstance(raw, list):
            self.add(where, _("attesa una lista"))
            return []
        return raw

    def username(self, where: str, raw, *, null=True) -> str | None:
        if raw is None and null:
            return None
        if not isinstance(raw, str) or not raw or len(raw) > 150:
            self.add(where, _("nome utente non valido"))
            return None
        return raw


def parse_file(data: bytes) -> dict:
    """The JSON object of a file, refusing what is not an Arbitro tournament file of a known
    version. Raises :class:`ArbiterError`."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ArbiterError(_("Il file non è un torneo di Arbitro: non è un JSON leggibile.")) from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArbiterError(_("Il file non è un torneo di Arbitro (manca «format»: «%(format)s»).")
                           % {"format": FORMAT})
    if doc.get("version") != VERSION:
        raise ArbiterError(_("Versione del file sconosciuta (%(version)s): questo Arbitro legge la versione "
                             "%(known)s. Nulla è stato importato.")
                           % {"version": doc.get("version"), "known": VERSION})
    return doc


def _check(doc: dict) -> dict:
    """Every value and reference of ``doc`` checked; the converted plan of what to create.
    Raises :class:`ArbiterError` listing every problem (``details``)."""
    c = _Checker()
    head = c.obj("tournament", doc.get("tournament"), Tournament, EXTRA_KEYS["tournament"]) or {}
    raw_head = doc.get("tournament") if isinstance(doc.get("tournament"), dict) else {}
    users = set()
    created_by = c.username("tournament.created_by", raw_head.get("created_by"))
    arbiters = [c.username(f"tournament.arbiters[{i}]", u, null=False)
                for i, u in enumerate(c.items("tournament.arbiters", raw_head.get("arbiters", [])))]
    users |= {u for u in [created_by, *arbiters] if u}

    scale = None
    if doc.get("custom_scale") is not None:
        scale = c.obj("custom_scale", doc["custom_scale"], CustomScale)
        if scale:
            try:
                vp_rules.scale_from_dict(scale.get("data") or {})
            except (vp_rules.ScaleError, TypeError, AttributeError) as exc:
                c.add("custom_scale.data", " ".join(getattr(exc, "messages", [str(exc)])))
            if scale.get("scale_id") != head.get("vp_scale"):
                c.add("custom_scale.scale_id", _("non è la tabella VP del torneo"))

    pairs = []
    numbers = set()
    for i, raw in enumerate(c.items("pairs", doc.get("pairs"))):
        values = c.obj(f"pairs[{i}]", raw, Pair)
        if values is None:
            continue
        if values.get("number") in numbers:
            c.add(f"pairs[{i}].number", _("coppia ripetuta"))
        numbers.add(values.get("number"))
        pairs.append(values)

    def pair_ref(where, raw, null=True):
        if raw is None and null:
            return None
        if raw not in numbers or isinstance(raw, bool):
            c.add(where, _("la coppia %(n)s non è nel file") % {"n": raw})
        return raw

    players = []
    for i, raw in enumerate(c.items("players", doc.get("players"))):
        values = c.obj(f"players[{i}]", raw, Player, EXTRA_KEYS["players"])
        if values is not None:
            players.append((values, pair_ref(f"players[{i}].pair", raw.get("pair"))))

    rounds = []
    round_numbers = set()
    for i, raw in enumerate(c.items("rounds", doc.get("rounds"))):
        values = c.obj(f"rounds[{i}]", raw, Round, EXTRA_KEYS["rounds"])
        if values is None:
            continue
        if values.get("number") in round_numbers:
            c.add(f"rounds[{i}].number", _("turno ripetuto"))
        round_numbers.add(values.get("number"))
        tables = []
        for j, raw_t in enumerate(c.items(f"rounds[{i}].tables", raw.get("tables", []))):
            where = f"rounds[{i}].tables[{j}]"
            t = c.obj(where, raw_t, Table, EXTRA_KEYS["tables"])
            if t is None:
                continue
            seats = {line: pair_ref(f"{where}.{line}", raw_t.get(line)) for line in ("ns", "ew")}
            sheet = None
            if raw_t.get("sheet") is not None:
                sheet = c.obj(f"{where}.sheet", raw_t["sheet"], ScoreSheet, EXTRA_KEYS["sheet"])
                hands = [c.obj(f"{where}.sheet.hands[{k}]", h, HandRow)
                         for k, h in enumerate(c.items(f"{where}.sheet.hands",
                                                       (raw_t["sheet"] or {}).get("hands", [])))]
                if sheet is not None:
                    sheet = (sheet, [h for h in hands if h is not None])
            tables.append((t, seats, sheet))
        rounds.append((values, tables))

    penalties = []
    for i, raw in enumerate(c.items("penalties", doc.get("penalties"))):
        values = c.obj(f"penalties[{i}]", raw, Penalty, EXTRA_KEYS["penalties"])
        if values is None:
            continue
        by = c.username(f"penalties[{i}].created_by", raw.get("created_by"))
        users |= {by} if by else set()
        penalties.append((values, pair_ref(f"penalties[{i}].pair", raw.get("pair"), null=False), by))

    entries = []
    for i, raw in enumerate(c.items("audit", doc.get("audit"))):
        values = c.obj(f"audit[{i}]", raw, AuditEntry, EXTRA_KEYS["audit"])
        if values is None:
            continue
        user = c.username(f"audit[{i}].user", raw.get("user"))
        users |= {user} if user else set()
        entries.append((values, user))

    if c.errors:
        details = c.errors[:MAX_DETAILS]
        if len(c.errors) > MAX_DETAILS:
            details.append(_("… e altri %(n)s errori.") % {"n": len(c.errors) - MAX_DETAILS})
        raise ArbiterError(_("Il file del torneo contiene errori: nulla è stato importato."), details=details)
    return {"head": head, "created_by": created_by, "arbiters": arbiters, "scale": scale, "pairs": pairs,
            "players": players, "rounds": rounds, "penalties": penalties, "audit": entries,
            "users": sorted(users)}


def _bulk(model, rows: list[dict]) -> list:
    """Create ``rows`` (field values) of ``model`` in file order (so ids keep that order),
    then put back the ``auto_now``/``auto_now_add`` times the database would have replaced."""
    objs = [model(**row) for row in rows]
    model.objects.bulk_create(objs, batch_size=500)
    stamped = [f.name for f in model._meta.concrete_fields
               if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
    if stamped and objs:
        for obj, row in zip(objs, rows):
            for name in stamped:
                setattr(obj, name, row[name])
        model.objects.bulk_update(objs, stamped, batch_size=500)
    return objs


def _scale_id_free(scale_id: str) -> bool:
    return scale_id not in vp_rules.builtin_scales() and not CustomScale.objects.filter(scale_id=scale_id).exists()


def _place_scale(plan: dict, messages: list[str]) -> str:
    """The VP scale id the imported tournament uses: the file's custom scale created, reused
    when the same scale (name and bands) is already here, or created under a new id when
    that id is taken by another scale."""
    scale = plan["scale"]
    scale_id = plan["head"]["vp_scale"]
    if scale is None:
        if scale_id in vp_rules.builtin_scales() or CustomScale.objects.filter(scale_id=scale_id).exists():
            return scale_id
        raise ArbiterError(_("La tabella VP «%(code)s» del torneo non esiste su questo server e il file non "
                             "la contiene: nulla è stato importato.") % {"code": scale_id})
    here = CustomScale.objects.filter(scale_id=scale_id).first()
    if here is not None and here.name == scale["name"] and here.data == scale["data"]:
        return scale_id
    new_id = scale_id
    if not _scale_id_free(new_id):
        k = 2
        while not _scale_id_free(new_id := f"{scale_id[:54]}-{k}"):
            k += 1
        messages.append(_("Esiste già una tabella VP con codice «%(old)s»: quella del file è importata come "
                          "«%(new)s».") % {"old": scale_id, "new": new_id})
    data = dict(scale["data"])
    if "id" in data:
        data["id"] = new_id
    _bulk(CustomScale, [{**scale, "scale_id": new_id, "data": data}])
    return new_id


def _users(names: list[str], messages: list[str]) -> dict:
    User = get_user_model()
    found = {u.get_username(): u for u in User.objects.filter(**{f"{User.USERNAME_FIELD}__in": names})}
    missing = [n for n in names if n not in found]
    for name in missing:
        user = User(**{User.USERNAME_FIELD: name}, is_active=False)
        user.set_unusable_password()
        user.save()
        found[name] = user
    if missing:
        messages.append(_("Utenti creati disattivati (nessuna password): %(names)s.") % {"names": ", ".join(missing)})
    return found


def check_slug(slug: str) -> str:
    """``slug`` if a new tournament may take it. Raises :class:`ArbiterError`."""
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise ArbiterError(_("Sigla «%(slug)s» non valida: solo lettere, numeri, - e _.") % {"slug": slug}) from exc
    if len(slug) > Tournament._meta.get_field("slug").max_length:
        raise ArbiterError(_("Sigla «%(slug)s» troppo lunga.") % {"slug": slug})
    if Tournament.objects.filter(slug=slug).exists():
        raise ArbiterError(_("Esiste già un torneo con sigla «%(slug)s»: importalo con un'altra sigla "
                             "(--slug NUOVA, o il campo «nuova sigla»). Nulla è stato importato.") % {"slug": slug})
    return slug


@refuse_integrity_errors
@transaction.atomic
def import_tournament(*, data: bytes, by=None, slug: str | None = None, owner=None) -> ImportResult:
    """Create the tournament of file ``data`` (bytes of :func:`~tournaments.transfer.export_tournament`).

    ``slug``: the new tournament's slug instead of the file's (required when the file's is
    taken); ``owner``: a user added to the tournament's arbiters (the uploader on the page,
    ``--owner`` on the command line); ``by``: who imports, for the audit entry.

    Users are matched by username; missing ones are created inactive with no password. A
    custom VP scale whose id exists here with other bands is created under a new id. When
    the file's captain tokens are already used here (the same tournament imported twice),
    every table gets a new token (printed QR codes then open the first copy only). Wrong-PIN
    counters start at zero. One audit entry ``tournament_imported``.

    Raises :class:`ArbiterError`: not a tournament file, unknown version, invalid values
    (``details`` lists each with its place in the file), slug taken or invalid, unknown
    VP scale. Nothing is created then.
    """
    doc = parse_file(data)
    plan = _check(doc)
    head = dict(plan["head"])
    file_slug = head["slug"]
    head["slug"] = check_slug(slug or file_slug)
    messages: list[str] = []
    head["vp_scale"] = _place_scale(plan, messages)
    users = _users(plan["users"], messages)

    tournament = _bulk(Tournament, [{**head, "created_by": users.get(plan["created_by"])}])[0]
    arbiters = [users[u] for u in plan["arbiters"]]
    if owner is not None and owner not in arbiters:
        arbiters.append(owner)
    tournament.arbiters.set(arbiters)

    pairs = {p.number: p for p in _bulk(Pair, [{**p, "tournament": tournament} for p in plan["pairs"]])}
    _bulk(Player, [{**values, "tournament": tournament, "pair": pairs.get(number)}
                   for values, number in plan["players"]])

    round_objs = _bulk(Round, [{**values, "tournament": tournament} for values, _t in plan["rounds"]])
    tokens = [t["token"] for _v, tables in plan["rounds"] for t, _s, _sh in tables]
    renew = len(set(tokens)) != len(tokens) or Table.objects.filter(token__in=tokens).exists()
    if renew:
        messages.append(_("I link dei capitani del file sono già in uso su questo server (torneo già "
                          "importato?): i tavoli hanno link nuovi e i QR stampati non aprono questa copia."))
    table_rows, placed = [], []
    for rnd, (_values, tables) in zip(round_objs, plan["rounds"]):
        for t, seats, sheet in tables:
            table_rows.append({**t, "round": rnd, **({"token": new_token()} if renew else {})})
            placed.append((rnd, seats, sheet))
    table_objs = _bulk(Table, table_rows)
    _bulk(Seat, [{"round": rnd, "table": table, "pair": pairs[number], "line": line}
                 for table, (rnd, seats, _sheet) in zip(table_objs, placed)
                 for line, number in seats.items() if number is not None])
    with_sheet = [(table, sheet) for table, (_r, _s, sheet) in zip(table_objs, placed) if sheet is not None]
    sheet_objs = _bulk(ScoreSheet, [{**values, "table": table} for table, (values, _h) in with_sheet])
    _bulk(HandRow, [{**hand, "sheet": sheet} for sheet, (_t, (_v, hands)) in zip(sheet_objs, with_sheet)
                    for hand in hands])
    _bulk(Penalty, [{**values, "tournament": tournament, "pair": pairs[number], "created_by": users.get(by_name)}
                    for values, number, by_name in plan["penalties"]])
    _bulk(AuditEntry, [{**values, "tournament": tournament, "user": users.get(name)}
                       for values, name in plan["audit"]])
    audit(tournament=tournament, by=by, action="tournament_imported",
          new={"version": VERSION, "file_slug": file_slug, "slug": tournament.slug,
               "vp_scale": tournament.vp_scale, "tokens_renewed": renew,
               "owner": owner.get_username() if owner is not None else None},
          reason=f"imported from file (version {VERSION})")
    return ImportResult(tournament=tournament, messages=messages)
