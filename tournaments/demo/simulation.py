"""Play a whole tournament with random hands through the same services the views use.

Used by ``python manage.py simulate`` (print packs and ``results.json`` to look at), by
``seed_demo`` (the demo tournament, stopped after round 2) and by the tests. Every write is
a service call: ``import_pairs`` → per round ``generate_round`` → ``publish_round`` →
``save_score_sheet(validate=True)`` per table → ``close_round``; so the audit trail of a
simulated tournament looks like a real one.

Hands are drawn by :mod:`scoring.random_hands` (rules.md §2) from a ``random.Random`` seeded
per table and round, so the same seed gives the same results whatever else changes.
"""
from __future__ import annotations

import datetime
import json
import random
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.text import slugify

from clubs.models import ClubRole
from scoring import vp as vp_rules
from scoring.random_hands import random_hand

from .. import pages, selectors, services
from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import Round, Table, Tournament
from ..printing import documents, spreadsheets, worker

SIMULATOR_USERNAME = "simulatore"


def simulator_user():
    """The 'simulatore' user that signs simulated writes when no user is given."""
    User = get_user_model()
    user, _created = User.objects.get_or_create(username=SIMULATOR_USERNAME)
    return user


def unique_slug(base: str) -> str:
    """``base`` (slugified), or ``base-2``, ``base-3``… when taken."""
    base = slugify(base)[:70] or "torneo"
    slug, k = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        k += 1
        slug = f"{base}-{k}"
    return slug


def table_hands(*, seed: int, round_number: int, table_number: int, hands: int,
                rule_set: str = "fibur") -> list[services.HandInput]:
    """The random hands of one table: ``hands`` :class:`services.HandInput` with base, cards
    and total per line (MP), reproducible from (seed, round, table)."""
    rng = random.Random(seed * 1_000_003 + round_number * 10_007 + table_number)
    out = []
    for _ in range(hands):
        ns, ew = random_hand(rng, rule_set)
        out.append(services.HandInput(ns=ns.score, ew=ew.score, ns_base=ns.base, ns_cards=ns.cards,
                                      ew_base=ew.base, ew_cards=ew.cards))
    return out


def play_round(tournament: Tournament, *, by, seed: int) -> Round:
    """Generate, publish, fill every sheet (validated) and close the next round.

    Raises :class:`ArbiterError` when a service refuses (e.g. the checker reports a
    violation on the draft: a simulation never acknowledges one).
    """
    rnd = services.generate_round(tournament=tournament, by=by)
    rnd = services.publish_round(round=rnd, by=by)
    for table in rnd.tables.filter(bye="").order_by("number"):
        hands = table_hands(seed=seed, round_number=rnd.number, table_number=table.number,
                            hands=tournament.hands_per_round, rule_set=tournament.rule_set)
        services.save_score_sheet(table=table, hands=hands, by=by, validate=True)
    return services.close_round(round=rnd, by=by)


def _standings_rows(tournament: Tournament, after_round: int) -> list[dict]:
    key = kind_of(tournament).data.audit_key  # "pair", or "player" in an individual tournament
    return [
        {"position": r.position, key: r.pair, "vp": documents.vp_number(r.vp),
         "mp_difference": r.mp_difference, "tied": r.tied}
        for r in selectors.standings_after(tournament, after_round).rows
    ]


def _individual_round_results(tournament: Tournament, rnd: Round) -> dict:
    """One round of an individual tournament's ``results.json`` (rules.md §9): tables
    with ``"ns": [p, q]``, ``"ew": [r, s]`` (player numbers, seat order), MP and VP; ``rest``:
    the resting players with their VP and MP (``"forced": true`` for a forced rest)."""
    rest_vp, rest_mp = selectors.scales.rest_values(tournament)
    tables, rest = [], []
    for t in selectors.round_tables(rnd):
        if t.bye:
            for p in t.resting_pair.players:
                entry = {"player": p.number, "vp": documents.vp_number(rest_vp), "mp": rest_mp}
                if t.bye == Table.Bye.FORCED:
                    entry["forced"] = True
                rest.append(entry)
            continue
        sheet = t.sheet
        tables.append({"table": t.number, "ns": [p.number for p in t.ns.players],
                       "ew": [p.number for p in t.ew.players],
                       "mp_ns": sheet.mp_ns, "mp_ew": sheet.mp_ew,
                       "vp_ns": documents.vp_number(sheet.vp_ns), "vp_ew": documents.vp_number(sheet.vp_ew)})
    return {"number": rnd.number, "system": rnd.system, "session": tournament.session_of_round(rnd.number),
            "tables": tables, "rest": rest, "standings_after": _standings_rows(tournament, rnd.number)}


def _team_round_results(tournament: Tournament, rnd: Round) -> dict:
    """One round of a team tournament's ``results.json`` (rules.md §15): ``tables`` with
    ``table``, ``ns_team``/``ew_team`` (team numbers), ``ns``/``ew`` (the two players'
    membership numbers, seat order), MP and VP; ``matches`` ``{"teams": [A, B], "tables":
    [t1, t2], "vp": [vA, vB]}``; ``bye`` ``{"team": T, "vp": v}`` or null; ``standings_after``
    ``[{"team": T, "vp": v, "position": k}, …]``. A forfeit is a match with no tables, the
    forfeiting team 0 VP and its opponent the rest VP."""

    tables = []
    for t in selectors.round_tables(rnd).select_related("sheet").prefetch_related("seats__pair__team"):
        if t.bye:
            continue
        sheet = t.sheet
        tables.append({"table": t.number, "ns_team": t.ns.team.number, "ew_team": t.ew.team.number,
                       "ns": [p.membership_number for p in t.ns.players],
                       "ew": [p.membership_number for p in t.ew.players],
                       "mp_ns": sheet.mp_ns, "mp_ew": sheet.mp_ew,
                       "vp_ns": documents.vp_number(sheet.vp_ns), "vp_ew": documents.vp_number(sheet.vp_ew)})
    rest = documents.vp_number(selectors.teams.team_rest_vp(tournament))
    matches, byes = [], []
    for m in selectors.teams.round_matches(rnd):
        if m["team_b"] is None:
            byes.append({"team": m["team_a"]["number"], "vp": rest})
            continue
        teams = [m["team_a"]["number"], m["team_b"]["number"]]
        if m["bye"] == "forfeit":
            vp = [0, rest] if m["forfeit_by"] == teams[0] else [rest, 0]
        else:
            vp = [documents.vp_number(v) for v in m["vp"]] if m["vp"] else None
        matches.append({"teams": teams, "tables": m["tables"], "vp": vp})
    out = {"number": rnd.number, "system": rnd.system, "session": tournament.session_of_round(rnd.number),
           "tables": tables, "matches": matches, "bye": byes[0] if byes else None,
           "standings_after": _team_standings_rows(tournament, rnd.number)}
    if tournament.groups > 1:
        out["byes"] = byes
    return out


def _team_standings_rows(tournament: Tournament, after_round: int) -> list[dict]:
    return [{"team": r.pair, "vp": documents.vp_number(r.vp), "position": r.position,
             "mp_difference": r.mp_difference, "tied": r.tied}
            for r in selectors.standings_after(tournament, after_round).rows]


def round_results(tournament: Tournament, rnd: Round) -> dict:
    """One round of ``results.json`` in the shape of the tournament's kind
    (:data:`ROUND_RESULTS`)."""
    return ROUND_RESULTS[kind_of(tournament).data.name](tournament, rnd)


def _pair_round_results(tournament: Tournament, rnd: Round) -> dict:
    """One round of a pair tournament's ``results.json``: its number, system, session
    (1-based, the plan's ``|`` splitting sessions), Mitchell step, tables (pair numbers, MP,
    VP), the bye, the standings after (across sessions)."""
    rest_vp, rest_mp = selectors.scales.rest_values(tournament)
    tables, byes = [], []
    for t in selectors.round_tables(rnd):
        if t.bye:
            if t.bye == Table.Bye.REST:
                byes.append({"pair": t.resting_pair.number, "vp": documents.vp_number(rest_vp), "mp": rest_mp})
            continue
        sheet = t.sheet
        tables.append({"table": t.number, "ns": t.ns.number, "ew": t.ew.number,
                       "mp_ns": sheet.mp_ns, "mp_ew": sheet.mp_ew,
                       "vp_ns": documents.vp_number(sheet.vp_ns), "vp_ew": documents.vp_number(sheet.vp_ew)})
    out = {"number": rnd.number, "system": rnd.system, "session": tournament.session_of_round(rnd.number),
           "step": rnd.step, "tables": tables, "bye": byes[0] if byes else None,
           "standings_after": _standings_rows(tournament, rnd.number)}
    if tournament.groups > 1:  # round robin in groups (rules.md §14): one rest per odd group
        out["byes"] = byes
    return out


def results(tournament: Tournament) -> dict:
    """The ``results.json`` document of the closed rounds of ``tournament``."""
    closed = list(tournament.rounds.filter(state=Round.State.CLOSED).order_by("number"))
    kind = kind_of(tournament)
    data = {
        "tournament": {"name": tournament.name, "kind": tournament.kind, "hands": tournament.hands_per_round,
                       "plan": tournament.plan, "sessions": tournament.sessions_planned,
                       "vp_scale": tournament.vp_scale, "date": tournament.date.isoformat()},
        "rounds": [round_results(tournament, r) for r in closed],
        "standings": STANDINGS_ROWS[kind.data.name](tournament, closed[-1].number) if closed else [],
    }
    data.update(ENTRANTS_SECTION[kind.data.name](tournament))
    if tournament.groups > 1:  # rules.md §14: the groups and the standings per group
        data["tournament"]["groups"] = services.group_lists(tournament)
        data["tournament"]["group_split"] = tournament.group_split
        view = selectors.standings_after(tournament)
        data["group_standings"] = [
            {"group": g.group, "rows": [{"position": r.position,
                                         kind.data.audit_key: r.pair,
                                         "vp": documents.vp_number(r.vp), "tied": r.tied}
                                        for r in g.rows]}
            for g in pages.groups.standings_by_group(tournament, view)]
    return data


def _team_list(tournament: Tournament) -> dict:
    """The ``teams`` of a team tournament's ``results.json``: each team by its squadra number,
    name and players' membership numbers."""
    return {"teams": [{"team": t.number, "name": t.name,
                       "players": [p.membership_number for p in t.members.order_by("pk")]}
                      for t in tournament.teams.order_by("number")]}


def _no_section(tournament: Tournament) -> dict:
    return {}


#: ``results.json`` per kind (``Tournament.Kind`` value → function). These writers use the
#: documents' formatting, which the kinds (below the services) cannot import; a new kind adds
#: its entries here (tests/architecture/test_kinds.py checks every kind has them).
ROUND_RESULTS = {Tournament.Kind.PAIRS: _pair_round_results, Tournament.Kind.INDIVIDUAL: _individual_round_results,
                 Tournament.Kind.TEAMS: _team_round_results}
STANDINGS_ROWS = {Tournament.Kind.PAIRS: _standings_rows, Tournament.Kind.INDIVIDUAL: _standings_rows,
                  Tournament.Kind.TEAMS: _team_standings_rows}
ENTRANTS_SECTION = {Tournament.Kind.PAIRS: _no_section, Tournament.Kind.INDIVIDUAL: _no_section,
                    Tournament.Kind.TEAMS: _team_list}


def write_outputs(tournament: Tournament, out: Path) -> list[Path]:
    """Write the print pack of every closed round, the standings and ``results.json`` into ``out``.

    Files: ``standings.pdf``, ``standings.xlsx``, ``results.json``, and per round K
    ``scoresheets-round-K.pdf`` and ``tablelist-round-K.pdf``. Returns the paths written.
    """
    out.mkdir(parents=True, exist_ok=True)
    written = []

    def put(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        written.append(path)

    for rnd in tournament.rounds.filter(state=Round.State.CLOSED).order_by("number"):
        doc = documents.round_document(rnd)
        # stamped on one rendered form, as the print pack does (printing.stamp): a sheet laid
        # out whole costs about 95 ms of CPU, a 60-table round several seconds
        sheets_pdf, _cpu = worker.render_sheets_timed(documents.scoresheets_html(doc))
        put(f"scoresheets-round-{rnd.number}.pdf", sheets_pdf)
        put(f"tablelist-round-{rnd.number}.pdf", documents.tablelist_pdf(doc))
    standings = documents.standings_document(tournament)
    put("standings.pdf", documents.standings_pdf(standings))
    put("standings.xlsx", spreadsheets.standings_xlsx(standings))
    data = json.dumps(results(tournament), ensure_ascii=False, indent=2)
    put("results.json", (data + "\n").encode())
    return written


def simulate(
    *,
    registrations: Path,
    plan: str,
    hands: int,
    seed: int,
    by=None,
    name: str = "Torneo simulato",
    slug: str | None = None,
    stop_after: int | None = None,
    out: Path | None = None,
    kind: str = Tournament.Kind.PAIRS,
    groups: int = 1,
    group_split: str = "snake",
    date: datetime.date | None = None,
    club=None,
) -> Tournament:
    """Create a fresh tournament, import ``registrations`` (CSV/XLSX) and play it.

    ``plan``: one letter per round (M Mitchell by pair number, step 1; D Danish, no rematch
    with any earlier opponent; R round robin, rules.md §14), ``|`` between two sessions (``"MMD|DD"``); ``hands``: hands per round, the VP scale is the published one
    for that count (``scoring.vp.scale_for_hands``); ``seed``: makes the hands reproducible;
    ``by``: the user signing the writes (default: the 'simulatore' user); ``slug``: made
    unique by a suffix when taken (default from ``name``); ``stop_after``: play only that many
    rounds and leave the next one generated as a draft, so the tournament is in progress;
    ``out``: a folder for the print pack and ``results.json`` (nothing written when None).
    ``kind``: ``"individual"`` plays an individual tournament (rules.md §9: the file has the
    columns ``giocatore,cognome,nome,tessera,circolo``; ``D`` is Danish individual, ``M`` the
    individual movement; ``results.json`` tables carry player lists and rounds ``rest``).
    ``"teams"`` plays a team tournament (rules.md §15: columns
    ``squadra,nome_squadra,cognome,nome,tessera,circolo``; ``R`` round robin of the teams, ``D``
    Danish on the team standings; matches of two tables; see :func:`_team_round_results`).
    ``groups``/``group_split``: split the pairs (teams) into that many groups (rules.md §14,
    §19) by ``"snake"`` or ``"lot"`` (seeded with ``seed``) after the import: ``R`` rounds are
    a round robin per group, ``D`` and ``M`` rounds are paired within each group (§19).
    ``date``: the tournament's date, the evening it is played (default today).
    ``club``: the club that owns it (rules.md §20; None: the server's only club); the default
    'simulatore' user is made an arbiter of it, a named ``by`` must already be one.

    Raises :class:`scoring.vp.UnknownScaleError` for a hand count without a published scale
    (nothing created); :class:`ArbiterError` for a bad plan, an unreadable or invalid
    registration file, or any refusal of the services (everything rolled back).
    """
    if by is None:
        by = simulator_user()
        if club is not None:
            ClubRole.objects.get_or_create(user=by, club=club)
    scale = vp_rules.scale_for_hands(hands)
    with transaction.atomic():  # a refusal half-way leaves no half-played tournament behind
        tournament = _play(by=by, scale=scale, registrations=Path(registrations), plan=plan, hands=hands,
                           seed=seed, name=name, slug=slug, stop_after=stop_after, kind=kind,
                           groups=groups, group_split=group_split, date=date, club=club)
    if out is not None:
        write_outputs(tournament, Path(out))
    return tournament


def _play(*, by, scale, registrations: Path, plan: str, hands: int, seed: int, name: str,
          slug: str | None, stop_after: int | None, kind: str = Tournament.Kind.PAIRS,
          groups: int = 1, group_split: str = "snake", date: datetime.date | None = None,
          club=None) -> Tournament:
    tournament = services.create_tournament(
        by=by, club=club, name=name, slug=unique_slug(slug or name), date=date or datetime.date.today(), venue="Circolo del Ponte",
        hands_per_round=hands, vp_scale=scale.id, plan=plan.upper(), mitchell_step=1,
        rematch_window=Tournament.RematchWindow.ALL, first_round=Tournament.FirstRound.NUMBER, kind=kind,
    )
    parsed = _parse(tournament, registrations)
    # the kind's import: import_pairs, import_players or import_teams
    services.ENTRANT_IMPORTERS[tournament.kind](tournament=tournament, rows=parsed.rows, by=by)
    if groups > 1:
        services.split_groups(tournament=tournament, by=by, count=groups, method=group_split,
                              seed=seed if group_split == Tournament.GroupSplit.LOT else None)
        tournament.refresh_from_db()
    rounds = tournament.rounds_planned if stop_after is None else min(stop_after, tournament.rounds_planned)
    for _ in range(rounds):
        play_round(tournament, by=by, seed=seed)
    if rounds < tournament.rounds_planned:
        services.generate_round(tournament=tournament, by=by)
    return tournament


def _parse(tournament: Tournament, path: Path):
    parsed = kind_of(tournament).parse_registrations(tournament, path.name, path.read_bytes())
    if not parsed.ok:
        raise ArbiterError(f"Iscrizioni non valide in {path.name}.", details=parsed.errors)
    return parsed
