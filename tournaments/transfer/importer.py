"""Import: a tournament file back into the database.

The whole file is read and checked first, outside any transaction (format, version, nesting
and sizes against :mod:`tournaments.registrations.limits`, every value, every reference between rows, and
every setting, sheet and state as the services check them: :mod:`.consistency`); only then
is everything created in ONE short transaction of bulk inserts with one audit entry
``tournament_imported``. A refusal creates nothing. The copy belongs to whoever imports it:
no account of the file is applied or created.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import connections
from django.db import models as dj_models
from django.utils import timezone
from django.utils.translation import gettext as _

from members.models import Member
from scoring import vp as vp_rules

from .. import selectors
from ..errors import ArbiterError
from ..models import (
    AuditAction,
    AuditEntry,
    CustomScale,
    HandRow,
    LineMember,
    LineUp,
    Match,
    Pair,
    Penalty,
    Player,
    Round,
    ScoreSheet,
    Seat,
    Table,
    Team,
    Tournament,
    new_token,
)
from ..services import as_actor, member_links
from ..services.audit import IMPORTED_REASON, audit
from ..services.guard import write
from . import sections
from .consistency import check_consistency, scale_of_file
from .reader import parse_file, read_plan, upgrade_v1  # noqa: F401  (parse_file: re-exported)


@dataclass
class ImportResult:
    """What :func:`import_tournament` did: the new tournament and sentences for the arbiter
    (a renamed VP scale, new captain links)."""

    tournament: Tournament
    messages: list[str] = field(default_factory=list)
    file_slug: str = ""   # the file's short address (the tournament's differs when it was taken)


#: Fields whose values the database adapter cannot take as they are.
_CONVERTED = (dj_models.DateField, dj_models.DecimalField, dj_models.JSONField, dj_models.UUIDField,
              dj_models.DurationField, dj_models.BinaryField)


def _bulk(model, rows: list[dict]) -> list:
    """Create ``rows`` (field values) of ``model`` in file order (so ids keep that order),
    with the ``auto_now``/``auto_now_add`` times of the file, not the database's.

    Under SQLite's write lock (the import's IMMEDIATE transaction) every row is written by
    one prepared ``INSERT`` run for all rows (``executemany``), ids given from the table's
    sequence: Django's ``bulk_create`` compiles each row's SQL, seconds for a 2000-pair
    file, while every captain's save waits. Other databases lock rows, not the database:
    ``bulk_create`` there, then the times put back."""
    objs = [model(**row) for row in rows]
    return _insert(model, objs, rows)


def _insert(model, objs: list, rows: list[dict] | None = None) -> list:
    """:func:`_bulk` for model instances built by the caller (``rows``: their field values,
    for the file's ``auto_now`` times on databases other than SQLite; None when the
    instances carry their times themselves)."""
    if not objs:
        return objs
    connection = connections[model.objects.db]
    fields = model._meta.concrete_fields
    stamped = [f for f in fields if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
    quote = connection.ops.quote_name
    table, pk = model._meta.db_table, model._meta.pk
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COALESCE(MAX({quote(pk.column)}), 0) FROM {quote(table)}")
            top = cursor.fetchone()[0]
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
            seq = cursor.fetchone()
            top = max(top, seq[0] if seq else 0)
            for k, obj in enumerate(objs, start=1):
                obj.pk = top + k
            sql = "INSERT INTO {} ({}) VALUES ({})".format(
                quote(table), ", ".join(quote(f.column) for f in fields), ", ".join(["%s"] * len(fields)))
            # only dates, decimals and JSON need the field's conversion; ints, texts, booleans
            # and foreign keys' ids go as they are
            convert = [(f.attname, f.get_db_prep_save if isinstance(f, _CONVERTED) else None) for f in fields]
            cursor.executemany(sql, [[getattr(obj, name) if prep is None else prep(getattr(obj, name), connection)
                                      for name, prep in convert] for obj in objs])
        for obj in objs:
            obj._state.adding, obj._state.db = False, connection.alias
        return objs
    model.objects.bulk_create(objs, batch_size=500)
    if stamped and rows is not None:
        # one prepared UPDATE for every row (Django's bulk_update builds a CASE a batch)
        sql = "UPDATE {} SET {} WHERE {} = %s".format(
            quote(table), ", ".join(f"{quote(f.column)} = %s" for f in stamped), quote(pk.column))
        params = []
        for obj, row in zip(objs, rows, strict=True):
            for f in stamped:
                setattr(obj, f.name, row[f.name])
            params.append([f.get_db_prep_value(row[f.name], connection) for f in stamped] + [obj.pk])
        with connection.cursor() as cursor:
            cursor.executemany(sql, params)
    return objs


def _scale_id_free(scale_id: str) -> bool:
    return scale_id not in vp_rules.builtin_scales() and not CustomScale.objects.filter(scale_id=scale_id).exists()


def _may_create_scales(by) -> bool:
    """Custom VP scales are shared by every tournament: only staff create them, as on the
    scale pages. ``by`` None or a system actor (the command line) may."""
    user = as_actor(by).user
    return user is None or user.is_staff or user.is_superuser


def _same_bands(data: dict) -> str | None:
    """The id of a scale here (built-in first, then custom by code) that gives the same VP as
    the scale ``data`` (same total and bands; name and hand count aside), or None."""
    wanted = vp_rules.scale_from_dict(data)
    key = (wanted.total, wanted.bands)
    for scale_id, scale in sorted(vp_rules.builtin_scales().items()):
        if (scale.total, scale.bands) == key:
            return scale_id
    for custom in CustomScale.objects.order_by("scale_id"):
        try:
            scale = vp_rules.scale_from_dict(custom.data)
        except (vp_rules.ScaleError, TypeError, AttributeError):
            continue
        if (scale.total, scale.bands) == key:
            return custom.scale_id
    return None


def _place_scale(scale: dict | None, scale_id: str, messages: list[str], may_create: bool, club=None) -> str:
    """The id of VP scale ``scale_id`` (the tournament's, or its team scale) on this server:
    the file's custom scale ``scale`` created, reused
    when the same scale (name and bands) is already here, or created under a new id when
    that id is taken by another scale. Without ``may_create`` (only staff create custom
    scales), a scale here with the same bands is used instead, with a message; without one
    the import is refused (:class:`ArbiterError`)."""
    if scale is None:
        if scale_id in vp_rules.builtin_scales() or CustomScale.objects.filter(scale_id=scale_id).exists():
            return scale_id
        raise ArbiterError(_("La tabella VP «%(code)s» del torneo non esiste su questo server e il file non "
                             "la contiene: nulla è stato importato.") % {"code": scale_id})
    here = CustomScale.objects.filter(scale_id=scale_id).first()
    if here is not None and here.name == scale["name"] and here.data == scale["data"]:
        return scale_id
    if not may_create:
        same = _same_bands(scale["data"])
        if same is None:
            raise ArbiterError(_("La tabella VP personalizzata «%(code)s» del file non c'è su questo server e solo "
                                 "lo staff può crearla: chiedi a un membro dello staff di importare il file o di "
                                 "creare la tabella. Nulla è stato importato.") % {"code": scale_id})
        messages.append(_("La tabella VP personalizzata «%(old)s» del file non c'è su questo server e solo lo "
                          "staff può crearla: il torneo usa «%(new)s», che ha le stesse fasce.")
                        % {"old": scale_id, "new": same})
        return same
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
    # the importing club's scale (rules.md §20; None: the default club)
    _bulk(CustomScale, [{**scale, "scale_id": new_id, "data": data} | ({"club": club} if club is not None else {})])
    return new_id


class SlugTakenError(ArbiterError):
    """The file's (or the given) short address is already a tournament's here. ``slug``: that
    address; each caller says how to give another (the page's field, the command's --slug)."""

    def __init__(self, message: str, *, slug: str):
        super().__init__(message)
        self.slug = slug


def check_slug(slug: str) -> str:
    """``slug`` if a new tournament may take it as its short address (*indirizzo breve*).
    Raises :class:`ArbiterError` (not a slug, too long) or :class:`SlugTakenError`."""
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise ArbiterError(_("Indirizzo breve «%(slug)s» non valido: solo lettere, numeri, - e _.")
                           % {"slug": slug}) from exc
    if len(slug) > Tournament._meta.get_field("slug").max_length:
        raise ArbiterError(_("Indirizzo breve «%(slug)s» troppo lungo.") % {"slug": slug})
    if Tournament.objects.filter(slug=slug).exists():
        raise SlugTakenError(_("Esiste già un torneo con l'indirizzo breve «%(slug)s»: importalo con un altro "
                               "indirizzo breve. Nulla è stato importato.") % {"slug": slug}, slug=slug)
    return slug


def copy_name(name: str) -> str:
    """The name of an imported tournament: ``name`` when no tournament here has it, else
    "``name`` (copia)", then "``name`` (copia 2)", … (translated), the first one free, so
    the tournaments list never shows two identical rows. Cut to the field's 200 characters."""
    limit = Tournament._meta.get_field("name").max_length
    candidate, n = name, 1
    while Tournament.objects.filter(name=candidate).exists():
        pattern = _("%(name)s (copia)") if n == 1 else _("%(name)s (copia %(n)s)")
        room = limit - len(pattern % {"name": "", "n": n})
        candidate = pattern % {"name": name[:room].rstrip(), "n": n}
        n += 1
    return candidate


def copy_slug(slug: str) -> str:
    """The short address of an imported tournament: ``slug`` when no tournament here has it,
    else ``slug-copia``, then ``slug-copia-2``, ``slug-copia-3``, …, the first one free (the
    same idea as :func:`copy_name`; the suffix is not translated: addresses stay as they are).
    The file's part is cut so that the result fits the field's 80 characters."""
    limit = Tournament._meta.get_field("slug").max_length
    candidate, n = slug, 1
    while Tournament.objects.filter(slug=candidate).exists():
        suffix = "-copia" if n == 1 else f"-copia-{n}"
        candidate = slug[:limit - len(suffix)].rstrip("-") + suffix
        n += 1
    return candidate


def _check_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise ArbiterError(_("Il nome del torneo non può essere vuoto."))
    if len(name) > Tournament._meta.get_field("name").max_length:
        raise ArbiterError(_("Nome del torneo troppo lungo (massimo %(n)s caratteri).")
                           % {"n": Tournament._meta.get_field("name").max_length})
    return name


def import_tournament(*, data: bytes, by=None, slug: str | None = None, owner=None,
                      create_scales: bool | None = None, name: str | None = None,
                      rename_if_taken: bool = False, reslug_if_taken: bool = False, club=None) -> ImportResult:
    """Create the tournament of file ``data`` (bytes of :func:`~tournaments.transfer.export_tournament`).

    ``slug``: the new tournament's slug instead of the file's (refused when taken);
    ``reslug_if_taken`` (the page and the command line): without ``slug``, a file slug already
    used here becomes "slug-copia", "slug-copia-2", … (:func:`copy_slug`; the result's
    ``file_slug`` tells the caller it changed); by default a taken file slug is refused; ``name``: the new tournament's name instead of the file's; ``rename_if_taken``
    (the page and the command line): without ``name``, a file name already used here becomes
    "name (copia)" (:func:`copy_name`); by default the file's name is kept, so a file imported
    into a fresh database exports to the same bytes; ``owner``: the copy's owner
    (``created_by``) and only arbiter (the uploader on the page, ``--owner`` on the command
    line; None: no arbiter, superusers only); ``by``: who imports, for the audit entry;
    ``create_scales``: whether the file's custom VP scale may be created here (None: when
    ``by`` is staff, a system actor or None; the command line passes True). ``club``: the
    club that owns the copy (rules.md §20; None: the default club); the members its players
    are linked to or create are that club's.

    A version-1 file is upgraded first (:func:`~tournaments.transfer.reader.upgrade_v1`:
    missing keys take their defaults; refused for an individual tournament or one in groups,
    whose data version 1 lost).

    The file's ``created_by``, arbiters and the users of its audit entries and penalties are
    never applied: no account is created or attached; the audit entries keep who acted as
    their text (``actor``), and the import's entry lists the file's arbiters. A
    custom VP scale whose id exists here with other bands is created under a new id; only
    staff create custom scales (see ``create_scales``): for another arbiter a scale here
    with the same bands is used, with a message, or the import is refused. When
    the file's captain tokens are already used here (the same tournament imported twice),
    every table gets a new token (printed QR codes then open the first copy only); the same
    for the team captains' links of a team tournament. Wrong-PIN
    counters start at zero. One audit entry ``tournament_imported``.

    Validated like a form (:func:`~.consistency.check_consistency`): settings, plan,
    tie-breaks, groups, sheets recomputed from their hands and the scale, round states,
    tokens and PINs; nesting and list lengths capped (:mod:`tournaments.registrations.limits`).

    Raises :class:`ArbiterError`: not a tournament file, unknown version, a file beyond the
    caps, invalid values (``details`` lists each with its place in the file, e.g.
    ``rounds[2].tables[4].sheet.vp_ns``), slug taken
    (:class:`SlugTakenError`) or invalid, a blank or too long ``name``, unknown
    VP scale, a custom scale a non-staff arbiter may not create, a version-1 file that lost
    data. Nothing is created then.
    """
    doc = parse_file(data)
    version = doc["version"]
    messages: list[str] = []
    if version == 1:
        doc, notes = upgrade_v1(doc)
        messages += notes
    plan = read_plan(doc)
    check_consistency(plan, scale_of_file(plan, selectors.scales.scale_by_id))
    plan["sections"] = sections.checked(doc)  # other apps' data (money, bookings: rules.md §21)
    # Everything is read and checked: only now the write lock (BEGIN IMMEDIATE on SQLite),
    # for the bulk writes alone.
    return _write(plan, version=version, messages=messages, by=by, slug=slug, owner=owner,
                  create_scales=create_scales, name=name, rename_if_taken=rename_if_taken,
                  reslug_if_taken=reslug_if_taken, club=club)


@write
def _write(plan: dict, *, version: int, messages: list[str], by, slug, owner, create_scales, name,
           rename_if_taken, reslug_if_taken, club=None) -> ImportResult:
    """The writes of :func:`import_tournament`, in one short transaction (bulk inserts)."""
    messages = list(messages)
    head = dict(plan["head"])
    file_slug = head["slug"]
    if slug is None and reslug_if_taken:
        head["slug"] = check_slug(copy_slug(file_slug))
    else:
        head["slug"] = check_slug(slug or file_slug)
    file_name = head["name"]
    if name is not None:
        head["name"] = _check_name(name)
    elif rename_if_taken:
        head["name"] = copy_name(file_name)
    may_create = _may_create_scales(by) if create_scales is None else create_scales
    file_scale = head["vp_scale"]
    head["vp_scale"] = _place_scale(plan["scale"], file_scale, messages, may_create, club)
    if head["team_scale"] == file_scale:   # one scale for both: placed once
        head["team_scale"] = head["vp_scale"]
    elif head["team_scale"]:
        head["team_scale"] = _place_scale(plan["team_scale"], head["team_scale"], messages, may_create,
                                          club)

    # The importer's own copy: its owner is the uploader (or --owner), its only arbiter;
    # the file's accounts are never applied nor created (usernames stay text in the audit).
    tournament = _bulk(Tournament, [{**head, "created_by": owner} | ({"club": club} if club is not None else {})])[0]
    if owner is not None:
        tournament.arbiters.set([owner])

    # Rounds first: an individual tournament's partnerships and a team's pairs of a round
    # are pairs formed for one round. Teams before their pairs and players, their captains after.
    round_objs = _bulk(Round, [{**values, "tournament": tournament} for values, *_rest in plan["rounds"]])
    by_round = {rnd.number: rnd for rnd in round_objs}
    team_tokens = [values["token"] for values, _c in plan["teams"]]
    renew_teams = len(set(team_tokens)) != len(team_tokens) or Team.objects.filter(token__in=team_tokens).exists()
    if renew_teams:
        messages.append(_("I link dei capitani di squadra del file sono già in uso su questo server (torneo già "
                          "importato?): le squadre hanno link nuovi."))
    teams = {t.number: t for t in _bulk(Team, [{**values, "tournament": tournament,
                                                **({"token": new_token()} if renew_teams else {})}
                                               for values, _captain in plan["teams"]])}
    pairs = {p.number: p for p in _bulk(Pair, [{**values, "tournament": tournament, "round": by_round.get(rnd),
                                                "team": teams.get(team)}
                                               for values, rnd, team in plan["pairs"]])}
    player_rows = [(values, pair, team, key) for values, pair, team, key in plan["players"]]
    player_objs = [Player(**{**values, "tournament": tournament, "pair": pairs.get(pair), "team": teams.get(team)})
                   for values, pair, team, _key in player_rows]
    # Members are carried by membership number (schema.STRUCTURAL): this server links its own
    # member, or creates it; players without a number are linked by name (rules.md §16). They
    # are chosen before the players are written, and new ones written by one prepared INSERT,
    # so the members cost the write lock milliseconds (no UPDATE per player).
    stamp = timezone.now()

    def create_members(fresh: list) -> None:
        for member in fresh:
            member.created_at = member.updated_at = stamp
        _insert(Member, fresh)

    member_links.link(tournament, player_objs, save=False, create=create_members)
    _insert(Player, player_objs)
    players = {key: p for p, (_v, _p, _t, key) in zip(player_objs, player_rows, strict=True) if key is not None}
    captained = []
    for values, captain in plan["teams"]:
        if captain is not None:
            team = teams[values["number"]]
            team.captain = players[captain]
            captained.append(team)
    Team.objects.bulk_update(captained, ["captain"], batch_size=500)
    _bulk(LineMember, [{**values, "round": rnd, "pair": pairs[pair], "player": players[player]}
                       for rnd, (_v, _t, members, _m) in zip(round_objs, plan["rounds"], strict=True)
                       for values, pair, player in members])
    _bulk(LineUp, [{**values, "team": teams[team],
                    **{name: players[key] for name, key in zip(("first_1", "first_2", "second_1", "second_2"), four, strict=True)}}
                   for values, team, four in plan["lineups"]])

    tokens = [t["token"] for _v, tables, *_rest in plan["rounds"] for t, _s, _sh in tables]
    renew = len(set(tokens)) != len(tokens) or Table.objects.filter(token__in=tokens).exists()
    if renew:
        messages.append(_("I link dei capitani del file sono già in uso su questo server (torneo già "
                          "importato?): i tavoli hanno link nuovi e i QR stampati non aprono questa copia."))
    table_rows, placed = [], []
    for rnd, (_values, tables, *_rest) in zip(round_objs, plan["rounds"], strict=True):
        for t, seats, sheet in tables:
            table_rows.append({**t, "round": rnd, **({"token": new_token()} if renew else {})})
            placed.append((rnd, seats, sheet))
    table_objs = _bulk(Table, table_rows)
    by_table = {(table.round.number, table.number): table for table in table_objs}
    _bulk(Match, [{**values, "round": rnd, **{name: teams.get(number) for name, number in match_teams.items()},
                   **{name: by_table.get((rnd.number, number)) for name, number in match_tables.items()}}
                  for rnd, (_v, _t, _m, matches) in zip(round_objs, plan["rounds"], strict=True)
                  for values, match_teams, match_tables in matches])
    _bulk(Seat, [{"round": rnd, "table": table, "pair": pairs[number], "line": line}
                 for table, (rnd, seats, _sheet) in zip(table_objs, placed, strict=True)
                 for line, number in seats.items() if number is not None])
    with_sheet = [(table, sheet) for table, (_r, _s, sheet) in zip(table_objs, placed, strict=True) if sheet is not None]
    sheet_objs = _bulk(ScoreSheet, [{**values, "table": table} for table, (values, _h) in with_sheet])
    _bulk(HandRow, [{**hand, "sheet": sheet} for sheet, (_t, (_v, hands)) in zip(sheet_objs, with_sheet, strict=True)
                    for hand in hands])
    _bulk(Penalty, [{**values, "tournament": tournament, "pair": pairs.get(pair), "player": players.get(player),
                     "team": teams.get(team), "created_by": None}
                    for values, pair, player, team, by_name in plan["penalties"]])
    _bulk(AuditEntry, [{**values, "tournament": tournament, "user": None}
                       for values, _name in plan["audit"]])
    sections.write(tournament, plan.get("sections", {}))
    audit(tournament=tournament, by=by, action=AuditAction.TOURNAMENT_IMPORTED,
          new={"version": version, "file_slug": file_slug, "slug": tournament.slug,
               **({"file_name": file_name, "name": tournament.name} if tournament.name != file_name else {}),
               "vp_scale": tournament.vp_scale, "tokens_renewed": renew, "team_tokens_renewed": renew_teams,
               "owner": owner.get_username() if owner is not None else None,
               **({"file_arbiters": plan["arbiters"], "file_created_by": plan["created_by"]}
                  if plan["arbiters"] or plan["created_by"] else {})},
          reason=IMPORTED_REASON % {"version": version})  # Italian, shown translated
    return ImportResult(tournament=tournament, messages=messages, file_slug=file_slug)
