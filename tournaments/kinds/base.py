"""A tournament kind: its data (:class:`KindData`) and its behaviour (:class:`Kind`).

A kind answers what differs between kinds of tournament. What is a value — the template
flags, the URL and template names, the words and sentences — is one frozen
:class:`KindData` per kind, read as attributes (like Tabbycat's presets). What needs the
database is a method of :class:`Kind`, whose defaults are the pair tournament's (rules.md
§1–§8): the pair kind is a plain ``Kind``, the individual and team kinds override only what
differs (``kinds/individual/``, ``kinds/teams/``). Callers ask ``kind_of(tournament)`` (one
lookup) instead of testing ``Tournament.kind``; a fourth kind is one more package with its
data and its overrides.

The pair defaults use the helpers shared by the kinds (``_pair_requests``, ``_pair_tables``,
``_groups``): the individual kind seats its formed partnerships as pairs, the team kind
keeps the pairs' engine findings.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import F, Prefetch, Q, QuerySet
from django.utils.functional import Promise

from ..models import Pair, Player, Round, Tournament
from ..registrations import reading
from ._groups import pair_group_lists
from ._pair_requests import active_pair_numbers, build_pair_request
from ._pair_tables import (
    keep_pair_findings,
    pair_response_from_round,
    player_json,
    resting_pair_number,
    swap_pair_seats,
    write_pair_tables,
)

#: a text of the pages: a lazy translation (``gettext_lazy``, marked safe like ``{% trans %}``
#: output), or "" where a kind has no such text
Text = Promise | str


# eq=False: each kind's data is one instance, equal only to itself (and hashable although
# its refusals are mappings)
@dataclass(frozen=True, eq=False)
class KindData:
    """What a kind of tournament is, as values: flags, names and texts (no behaviour).

    Templates read it as ``kind_data`` (``{% if kind_data.has_groups %}``, ``{{
    kind_data.entrant_title }}``; the print documents as ``doc.kind_data``); Python reads it
    as ``kind_of(tournament).data``. The texts are lazy translations of the msgids the
    templates used, so the catalogues still apply; the counted ones are ``ngettext_lazy(…,
    "n")`` and those with placeholders are written with ``{% kind_text %}``
    (``tournaments/templatetags/kinds.py``) or ``%`` in Python."""

    # ----- identity
    #: the ``Tournament.Kind`` value ("pairs", "individual", "teams")
    name: str
    #: the entrant in the player page's address ("coppia", "giocatore", "squadra")
    url_word: str
    #: the key naming one entrant in audit entries and penalties ("pair", "player", "team")
    audit_key: str

    # ----- the round cycle
    #: the fewest entrants in play a round is drawn with
    minimum_to_draw: int
    #: whether the field may be split into groups (rules.md §19: not an individual one)
    has_groups: bool
    #: whether the arbiter may write round 1 by hand as "1+2 v 3+4" lines (rules.md §9)
    first_round_by_hand: bool
    #: whether a resting and a forced-resting entrant may be seated at one table (rules.md §5)
    idle_entrants_share_a_table: bool
    #: whether a round is played as matches of two tables between teams (rules.md §15)
    has_matches: bool
    #: whether a plan's ``M`` is a (pair) Mitchell movement (individual: the individual
    #: movement, rules.md §9; teams: refused, rules.md §15)
    plan_m_is_mitchell: bool
    #: the plan letters the kind does not play and the letter each becomes (teams: M → R,
    #: rules.md §15); empty when it plays every letter
    plan_replacements: tuple[tuple[str, str], ...]
    #: whether the draft's swap by hand exchanges single players (rules.md §9)
    swaps_players: bool
    #: whether the arbiter may move the rest to another entrant in a draft
    moves_rest_by_hand: bool
    #: whether the partners change every round (rules.md §9): an entrant's page names the
    #: round's partner and the opponents are two players
    rotates_partners: bool
    #: the tie-break keys that have no meaning for this kind (rules.md §9: head-to-head per player)
    excluded_tiebreaks: tuple[str, ...]

    # ----- pages and files
    #: the URL name of the arbiter's page listing the entrants ("pairs", "players", "teams")
    entrants_page: str
    #: the URL name of the page where a late entrant is added by hand (rules.md §5 art. 33)
    late_entry_page: str
    #: the template listing a registration file's rows in the preview
    import_preview_template: str
    #: whether the round page carries the withdrawal and late-entry links (pairs); otherwise
    #: it links to the entrants' page (:attr:`entrants_page`), where they are
    withdraws_on_round_page: bool
    #: whether penalties are given on the entrants' page rather than on the penalties page
    penalties_on_entrants_page: bool
    #: the extra fields of a round on the entrant's page and its JSON: ``"partner"``
    #: (individual: the round's partner), ``"tables"`` (teams: the match's two tables)
    page_round_fields: tuple[str, ...]

    # ----- words of the pages
    #: the entrant as a column heading: "Coppia", "Giocatore", "Squadra"
    entrant_title: Text
    #: the entrants as a tab or button: "Coppie", "Giocatori", "Squadre"
    entrants_title: Text
    #: the entrants after a number: "coppie", "giocatori", "squadre"
    entrants_word: Text
    #: the column of the public standings and the projector
    standings_column: Text
    #: the printed standings' number and names columns: "Coppia" / "Giocatori", "N." /
    #: "Giocatore", "N." / "Squadra"
    number_heading: Text
    names_heading: Text
    #: a withdrawn entrant, agreeing with its noun: "ritirata", "ritirato"
    withdrawn: Text
    #: "%(n)s coppia" / "%(n)s coppie" (counted)
    count: Text
    #: "%(n)s coppia pronta" / "%(n)s coppie pronte" (counted): a registration file's preview
    ready: Text
    #: the label of the public search box
    search_label: Text
    #: the columns of a registration file
    import_columns: Text
    #: the draft's swap by hand: "Scambia la coppia" … "con la coppia"
    swap_label: Text
    swap_with_label: Text
    #: the draft's rest by hand: "Fai riposare la coppia" ("" without it)
    rest_label: Text
    #: the round page's link to the entrants' page for withdrawals and late entries ("": the
    #: round page has its own links)
    entrant_actions: Text
    #: why the standings order differs, after the tie-breaks' names ("" for none)
    tiebreak_note: Text
    #: a pending penalty: "Coppia %(n)s: %(amount)s, turno %(r)s"
    pending_penalty: Text
    #: the penalties page's two introductory sentences (VP, then MP), and the printed
    #: standings' note on penalties
    penalties_vp: Text
    penalties_mp: Text
    penalties_note: Text
    #: the groups page (rules.md §19; "" for a kind without groups)
    groups_intro: Text
    groups_danish: Text
    groups_single: Text
    groups_split: Text
    groups_by_hand: Text
    #: "Girone della coppia %(n)s"
    group_of: Text

    # ----- sentences of the services (active language when formatted with ``%``)
    #: the refusal when fewer than :attr:`minimum_to_draw` are in play
    too_few_to_draw: Text
    #: why a draft is outdated (rules.md §12), counted (``n``) with ``%(numbers)s``: the
    #: entrants no longer in play (withdrawn), those entered
    gone_from_play: Text
    entered_play: Text
    #: why a draft is outdated (rules.md §12): ``%(round)s``, ``%(numbers)s`` of the
    #: entrants whose standings row changed
    standings_changed: Text
    #: the groups' refusals naming the entrants, by key: ``no_group``, ``too_small``,
    #: ``too_many``, ``hand_missing``, ``hand_range``, ``hand_small`` (%-placeholders)
    groups_refusals: Mapping[str, Text]
    #: why a penalty cannot go to a "pair", "player" or "team" in this kind, "" when it can
    #: (rules.md §3 art. 23, §9, §15: the standings count a penalty only on the rows they rank)
    penalty_refusals: Mapping[str, Text]
    #: why an entrant registered as "player" (one player alone) or "team" is refused, ""
    #: when it is this kind's entrant
    registration_refusals: Mapping[str, Text]
    #: why a plan's letters were replaced (:attr:`plan_replacements`), with ``%(plan)s``
    plan_refusal: Text


class Kind:
    """One kind of tournament (``Tournament.Kind``) with the pair tournament's behaviour.

    Instances are stateless singletons registered in :mod:`tournaments.kinds`; ``data`` is
    the kind's :class:`KindData`. The methods are grouped by who asks: the round cycle
    (services drawing, checking and changing a round), the entrants (pages, documents,
    prizes) and the files (registration files, new tournaments' settings)."""

    #: the kind's flags, names and texts
    data: KindData

    def __init__(self, data: KindData):
        self.data = data

    def __repr__(self) -> str:
        return f"<Kind {self.data.name}>"

    # ----- the round cycle

    def entrants(self, tournament: Tournament) -> QuerySet:
        """The registered entrants (pairs, numbered players or teams): a queryset with
        ``number``, ``status``, ``withdrawn_from_round`` and (pairs, teams) ``group``; a
        pair's (a team's) players prefetched as ``members`` in seat order."""
        return tournament.pairs.filter(round__isnull=True).prefetch_related(
            Prefetch("members", queryset=Player.objects.order_by("seat")))

    def active_numbers(self, tournament: Tournament, round_number: int) -> list[int]:
        """Numbers of the entrants in play in round ``round_number``, ascending."""
        return active_pair_numbers(tournament, round_number)

    def group_lists(self, tournament: Tournament) -> list[list[int]]:
        """Entrant numbers of each group, group 1 first (``[[all]]`` unsplit; rules.md §14)."""
        return pair_group_lists(tournament)

    def pairing_request(self, tournament: Tournament, number: int, *, seed: int | None = None) -> dict:
        """The pairing request (pairing-io.md) of round ``number``. Raises ``ArbiterError``
        for a plan letter the kind cannot play (teams: ``M``)."""
        return build_pair_request(tournament, number, seed=seed)

    def round_system(self, tournament: Tournament, number: int, request: dict) -> str:
        """The ``Round.system`` stored on round ``number`` drawn from ``request``."""
        return request["system"]

    def write_tables(self, rnd: Round, response: dict) -> None:
        """Create the round's tables, seats (and formed pairs, matches) from a pairing
        ``response`` (pairing-io.md)."""
        write_pair_tables(rnd, response)

    def response_from_round(self, rnd: Round) -> dict:
        """The round's current tables in the pairing response shape (for the checker)."""
        return pair_response_from_round(rnd)

    def keep_engine_findings(self, response: dict, engine: dict) -> None:
        """Copy into ``response`` (the current tables) what the engine's own answer
        ``engine`` found and still holds for them (repeated meetings or partners, second-rest
        exchanges), so a re-check after a hand change reports only the new problems."""
        keep_pair_findings(response, engine)

    def seated_numbers(self, rnd: Round) -> list[int]:
        """Entrant numbers with a table, a rest or a match in ``rnd``."""
        return list(rnd.seats.values_list("pair__number", flat=True))

    def hand_numbers(self, rnd: Round) -> set[int]:
        """The numbers the arbiter types to move entrants by hand in the draft ``rnd`` (swap,
        rest): pair numbers (the round's formed pairs in an individual round), team numbers."""
        return set(rnd.seats.values_list("pair__number", flat=True))

    def swap_in_draft(self, rnd: Round, a: int, b: int) -> dict:
        """Exchange the places of entrants ``a`` and ``b`` (numbers) in the draft ``rnd``;
        returns the audit entry's ``new``. Raises ``ArbiterError`` (or ``DoesNotExist`` for a
        pair not seated) for a number not in the round."""
        return swap_pair_seats(rnd, a, b)

    def resting_number(self, rnd: Round) -> int:
        """The number of the entrant resting in ``rnd``. Raises ``ArbiterError`` when none
        rests (an even field)."""
        return resting_pair_number(rnd)

    # ----- the entrants

    def entrants_by_number(self, tournament: Tournament, numbers=None) -> dict:
        """Number → entrant (Pair with its members, numbered Player, Team) for the public
        standings; only ``numbers`` (an iterable of ints) when given — ``{}`` for a number
        not registered. Each entrant's ``full_name`` is the names shown on its page."""
        rows = tournament.pairs.filter(round__isnull=True)
        if numbers is not None:
            rows = rows.filter(number__in=list(numbers))
        return {p.number: p for p in rows.prefetch_related("members")}

    def entrant_players(self, tournament: Tournament) -> QuerySet:
        """The players of every entrant (a pair's two, an individual player, a team's
        registered players) annotated with ``entrant_number``, in entrant order then seat
        (or registration) order; ``member`` loaded. Federation results, prize categories."""
        return (Player.objects.filter(tournament=tournament, pair__isnull=False, pair__round__isnull=True)
                .select_related("member", "pair").annotate(entrant_number=F("pair__number"))
                .order_by("pair__number", "seat"))

    def print_names(self, tournament: Tournament) -> dict[int, tuple[str, ...]]:
        """Number → the names printed for the entrant (documents): a pair's "Surname Name" in
        seat order, a player's, a team's name."""
        players: dict[int, list[tuple[int, str]]] = {}
        rows = Player.objects.filter(tournament=tournament, pair__isnull=False).values_list(
            "pair__number", "seat", "last_name", "first_name"
        )
        for number, seat, last, first in rows:
            players.setdefault(number, []).append((seat or 0, f"{last} {first}"))
        return {n: tuple(name for _s, name in sorted(names)) for n, names in players.items()}

    def formed_line_names(self, table) -> dict:
        """The lines of ``table`` formed for the round (individual partnerships, a team's
        pairs) as the captain's page names them: ``{line: {"number", "display_number",
        "name", …}}``; empty for a kind whose lines are the registered pairs."""
        return {}

    def seats_of_entrant(self, seats: QuerySet, number: int) -> QuerySet:
        """``seats`` (a Seat queryset) narrowed to those where entrant ``number`` sat."""
        return seats.filter(pair__number=number, pair__round__isnull=True)

    def search(self, tournament: Tournament, query: str, digits: bool) -> list[tuple[int, str]]:
        """Entrants whose number is ``query`` (``digits``) or whose names contain it:
        ``[(number, names)]``, at most 20, by number (the public search)."""
        rows = Pair.objects.filter(tournament=tournament, round__isnull=True)
        rows = rows.filter(number=int(query)) if digits else rows.filter(
            Q(members__last_name__icontains=query) | Q(members__first_name__icontains=query)).distinct()
        return [(p.number, p.full_name) for p in rows.order_by("number").prefetch_related("members")[:20]]

    # ----- the files and the settings

    def parse_registrations(self, tournament: Tournament, filename: str, data: bytes):
        """``registrations.ParsedFile`` of a registration file (CSV/XLSX bytes ``data``) read
        against the numbers and memberships ``tournament`` already has."""
        return reading.parse(
            filename,
            data,
            existing_numbers=tournament.pairs.values_list("number", flat=True),
            existing_memberships=Player.objects.filter(tournament=tournament)
            .exclude(membership_number="")
            .values_list("membership_number", flat=True),
        )

    def registered_numbers(self, tournament: Tournament) -> set[int]:
        """The entrant numbers taken, for the preview's second check."""
        return set(tournament.pairs.values_list("number", flat=True))

    def row_json(self, row) -> dict:
        """A parsed registration row as the preview's JSON (``row``, ``number``, ``players``
        as dicts of ``PlayerData``'s fields, teams: ``name``)."""
        return {"row": row.row, "number": row.number, "players": [player_json(p) for p in row.players]}

    def row_from_json(self, doc: dict, players: list):
        """The parsed registration row back from :meth:`row_json` (``players``: the
        ``PlayerData`` rebuilt from ``doc["players"]``)."""
        return reading.RegistrationRow(row=doc["row"], number=doc["number"], players=(players[0], players[1]))

    def check_new_settings(self, fields: dict) -> None:
        """Adjust and check the settings ``fields`` of a new tournament of this kind in place
        (individual: the per-player tie-break order, rules.md §9; teams: the team tie-breaks
        by default, R or D rounds, a team scale for the margin mode, team sizes, §15).
        Raises ``ArbiterError``. Nothing to do for pairs."""

    def normal_tiebreaks(self, tiebreaks: str | None) -> str | None:
        """The stored tie-break order for this kind from ``tiebreaks`` (a comma list; None or
        the pairs' default become the kind's default). Raises ``ArbiterError`` for an order
        naming an excluded criterion (:attr:`KindData.excluded_tiebreaks`). Pairs: as given."""
        return tiebreaks
