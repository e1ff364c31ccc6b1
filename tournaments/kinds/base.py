"""The protocol every tournament kind implements (pairs, individual, teams).

A kind answers what differs between kinds of tournament: who the entrants are, the pairing
request of a round and how its answer becomes tables, the standings and the names, the
sentences that name the entrants. Callers ask ``kind_of(tournament)`` (one lookup) instead
of testing ``Tournament.kind``; a fourth kind is one more module implementing this protocol.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from django.db.models import QuerySet
from django.utils.functional import Promise

from ..models import Round, Tournament


@dataclass(frozen=True)
class PageTexts:
    """The words and sentences the templates use where kinds differ, each a lazy translation
    (``gettext_lazy``, marked safe like ``{% trans %}`` output: the sentences hold
    apostrophes) of the msgid the template used, so the catalogues still apply. The counted
    ones are ``ngettext_lazy(…, "n")`` and the ones with placeholders are written with the
    ``{% kind_text %}`` tag (``tournaments/templatetags/kinds.py``). "" where a kind has no
    such sentence (an individual tournament has no groups, no rest moved by hand)."""

    #: the entrant as a column heading: "Coppia", "Giocatore", "Squadra"
    entrant_title: Promise
    #: the entrants as a tab or button: "Coppie", "Giocatori", "Squadre"
    entrants_title: Promise
    #: the entrants after a number: "coppie", "giocatori", "squadre"
    entrants_word: Promise
    #: the column of the public standings and the projector (teams: "Coppia" there, as before)
    standings_column: Promise
    #: a withdrawn entrant, agreeing with its noun: "ritirata", "ritirato"
    withdrawn: Promise
    #: "%(n)s coppia" / "%(n)s coppie" (counted)
    count: Promise
    #: "%(n)s coppia pronta" / "%(n)s coppie pronte" (counted): a registration file's preview
    ready: Promise
    #: the label of the public search box
    search_label: Promise
    #: the columns of a registration file
    import_columns: Promise
    #: the draft's swap by hand: "Scambia la coppia" … "con la coppia"
    swap_label: Promise
    swap_with_label: Promise
    #: the draft's rest by hand: "Fai riposare la coppia" ("" without it)
    rest_label: Promise
    #: the round page's link to the entrants' page for withdrawals and late entries ("": the
    #: round page has its own links)
    entrant_actions: Promise
    #: why the standings order differs, after the tie-breaks' names ("" for none)
    tiebreak_note: Promise
    #: a pending penalty: "Coppia %(n)s: %(amount)s, turno %(r)s"
    pending_penalty: Promise
    #: the penalties page's two introductory sentences (VP, then MP)
    penalties_vp: Promise
    penalties_mp: Promise
    #: the groups page (rules.md §19; "" for a kind without groups)
    groups_intro: Promise
    groups_danish: Promise
    groups_single: Promise
    groups_split: Promise
    groups_by_hand: Promise
    #: "Girone della coppia %(n)s"
    group_of: Promise


class Kind(Protocol):
    """One kind of tournament (``Tournament.Kind``). Implementations are stateless
    singletons registered in :mod:`tournaments.kinds`."""

    #: the ``Tournament.Kind`` value ("pairs", "individual", "teams")
    name: str
    #: the entrant in the player page's address ("coppia", "giocatore", "squadra")
    url_word: str
    #: the key naming one entrant in audit entries and penalties ("pair", "player", "team")
    audit_key: str
    #: the fewest entrants in play a round is drawn with
    minimum_to_draw: int
    #: whether the field may be split into groups (rules.md §19: not an individual one)
    has_groups: bool
    #: whether the arbiter may write round 1 by hand as "1+2 v 3+4" lines (rules.md §9)
    first_round_by_hand: bool
    #: whether a resting and a forced-resting entrant may be seated at one table (rules.md §5)
    idle_entrants_share_a_table: bool

    def entrants(self, tournament: Tournament) -> QuerySet:
        """The registered entrants (pairs, numbered players or teams): a queryset with
        ``number``, ``status``, ``withdrawn_from_round`` and (pairs, teams) ``group``."""
        ...

    def group_entrants(self, tournament: Tournament) -> QuerySet:
        """The rows that carry a group (``group`` 1..G or null) for the groups' checks."""
        ...

    def active_numbers(self, tournament: Tournament, round_number: int) -> list[int]:
        """Numbers of the entrants in play in round ``round_number``, ascending."""
        ...

    def too_few_to_draw(self) -> str:
        """The refusal (active language) when fewer than ``minimum_to_draw`` are in play."""
        ...

    def group_lists(self, tournament: Tournament) -> list[list[int]]:
        """Entrant numbers of each group, group 1 first (``[[all]]`` unsplit; rules.md §14)."""
        ...

    def groups_sentence(self, key: str) -> str:
        """A groups refusal naming the entrants, with %-placeholders; ``key`` one of
        ``no_group``, ``too_small``, ``too_many``, ``hand_missing``, ``hand_range``,
        ``hand_small``. Raises KeyError for another key (or a kind without groups)."""
        ...

    def pairing_request(self, tournament: Tournament, number: int, *, seed: int | None = None) -> dict:
        """The pairing request (pairing-io.md) of round ``number``. Raises ``ArbiterError``
        for a plan letter the kind cannot play (teams: ``M``)."""
        ...

    def round_system(self, tournament: Tournament, number: int, request: dict) -> str:
        """The ``Round.system`` stored on round ``number`` drawn from ``request``."""
        ...

    def write_tables(self, rnd: Round, response: dict) -> None:
        """Create the round's tables, seats (and formed pairs, matches) from a pairing
        ``response`` (pairing-io.md)."""
        ...

    def response_from_round(self, rnd: Round) -> dict:
        """The round's current tables in the pairing response shape (for the checker)."""
        ...

    def keep_engine_findings(self, response: dict, engine: dict) -> None:
        """Copy into ``response`` (the current tables) what the engine's own answer
        ``engine`` found and still holds for them (repeated meetings or partners, second-rest
        exchanges), so a re-check after a hand change reports only the new problems."""
        ...

    def seated_numbers(self, rnd: Round) -> list[int]:
        """Entrant numbers with a table, a rest or a match in ``rnd``."""
        ...

    def swap_in_draft(self, rnd: Round, a: int, b: int) -> dict:
        """Exchange the places of entrants ``a`` and ``b`` (numbers) in the draft ``rnd``;
        returns the audit entry's ``new``. Raises ``ArbiterError`` (or ``DoesNotExist`` for a
        pair not seated) for a number not in the round."""
        ...

    def resting_number(self, rnd: Round) -> int:
        """The number of the entrant resting in ``rnd``. Raises ``ArbiterError`` when none
        rests (an even field)."""
        ...

    def entrants_changed_sentences(self, gone: list[int], added: list[int]) -> list[str]:
        """Why a draft is outdated (rules.md §12), in the active language: the entrants no
        longer in play (``gone``, withdrawn) and those entered (``added``); empty for none."""
        ...

    def standings_changed_sentence(self, round_number: int, changed: list[int]) -> str:
        """Why a draft is outdated (rules.md §12): the standings rows of entrants ``changed``
        after round ``round_number`` differ from those it was drawn from."""
        ...

    def penalty_refusal(self, target: str) -> str | None:
        """Why a penalty cannot go to a ``target`` ("pair", "player" or "team") in this kind,
        in the active language, or None when it can (rules.md §3 art. 23, §9, §15: the
        standings count a penalty only on the rows they rank)."""
        ...

    def registration_refusal(self, entrant: str) -> str | None:
        """Why an entrant registered as ``entrant`` ("player": one player alone, "team")
        is refused in this kind, in the active language, or None when it is its entrant."""
        ...

    # ----- pages, documents and files

    #: the URL name of the arbiter's page listing the entrants ("pairs", "players", "teams")
    entrants_page: str
    #: whether a round is played as matches of two tables between teams (rules.md §15)
    has_matches: bool
    #: whether a plan's ``M`` is a (pair) Mitchell movement (individual: the individual
    #: movement, rules.md §9; teams: refused, rules.md §15)
    plan_m_is_mitchell: bool
    #: whether the draft's swap by hand exchanges single players (rules.md §9)
    swaps_players: bool
    #: the tie-break keys that have no meaning for this kind (rules.md §9: head-to-head per player)
    excluded_tiebreaks: tuple[str, ...]
    #: the name of the ``tournaments.services`` function importing a parsed registration file
    #: (``tournament=``, ``rows=``, ``by=``; the kinds sit below the services)
    import_service: str
    #: the extra fields of a round on the entrant's page and its JSON: ``"partner"``
    #: (individual: the round's partner), ``"tables"`` (teams: the match's two tables)
    page_round_fields: tuple[str, ...]
    #: the standings document's fields ``{"individual": bool, "teams": bool}``: printed
    #: words are chosen from them (``spreadsheets.py``, the PDF templates)
    document_flags: dict
    #: whether the partners change every round (rules.md §9): an entrant's page names the
    #: round's partner and the opponents are two players
    rotates_partners: bool
    #: whether the arbiter may move the rest to another entrant in a draft
    moves_rest_by_hand: bool
    #: whether the round page carries the withdrawal and late-entry links (pairs); otherwise
    #: it links to the entrants' page (:attr:`entrants_page`), where they are
    withdraws_on_round_page: bool
    #: whether penalties are given on the entrants' page rather than on the penalties page
    penalties_on_entrants_page: bool
    #: the URL name of the page where a late entrant is added by hand (rules.md §5 art. 33)
    late_entry_page: str
    #: the template listing a registration file's rows in the preview
    import_preview_template: str
    #: the words and sentences of the pages (templates get the kind as ``kind``)
    texts: PageTexts

    def entrant_map(self, tournament: Tournament) -> dict:
        """Number → entrant (Pair with its members, numbered Player, Team) for the public
        standings."""
        ...

    def entrant_players(self, tournament: Tournament) -> QuerySet:
        """The players of every entrant (a pair's two, an individual player, a team's
        registered players) annotated with ``entrant_number``, in entrant order then seat
        (or registration) order; ``member`` loaded. Federation results, prize categories."""
        ...

    def print_names(self, tournament: Tournament) -> dict[int, tuple[str, ...]]:
        """Number → the names printed for the entrant (documents): a pair's "Surname Name" in
        seat order, a player's, a team's name."""
        ...

    def formed_line_names(self, table) -> dict:
        """The lines of ``table`` formed for the round (individual partnerships, a team's
        pairs) as the captain's page names them: ``{line: {"number", "display_number",
        "name", …}}``; empty for a kind whose lines are the registered pairs."""
        ...

    def seats_of_entrant(self, seats: QuerySet, number: int) -> QuerySet:
        """``seats`` (a Seat queryset) narrowed to those where entrant ``number`` sat."""
        ...

    def hand_numbers(self, rnd: Round) -> set[int]:
        """The numbers the arbiter types to move entrants by hand in the draft ``rnd`` (swap,
        rest): pair numbers (the round's formed pairs in an individual round), team numbers."""
        ...

    def search(self, tournament: Tournament, query: str, digits: bool) -> list[tuple[int, str]]:
        """Entrants whose number is ``query`` (``digits``) or whose names contain it:
        ``[(number, names)]``, at most 20, by number (the public search)."""
        ...

    def find_entrant(self, tournament: Tournament, number: int):
        """The entrant numbered ``number`` (Pair with members, Player, Team), or None."""
        ...

    def display_name(self, entrant) -> str:
        """The names shown for ``entrant`` on its page."""
        ...

    def parse_registrations(self, tournament: Tournament, filename: str, data: bytes):
        """``registrations.ParsedFile`` of a registration file (CSV/XLSX bytes ``data``) read
        against the numbers and memberships ``tournament`` already has."""
        ...

    def registered_numbers(self, tournament: Tournament) -> set[int]:
        """The entrant numbers taken, for the preview's second check."""
        ...

    def row_players(self, row) -> list:
        """The ``PlayerData`` of a parsed registration row."""
        ...

    def row_json(self, row) -> dict:
        """A parsed registration row as the preview's JSON (``row``, ``number``, ``players``,
        teams: ``name``); the players as dicts."""
        ...

    def row_from_json(self, doc: dict, players: list):
        """The parsed registration row back from :meth:`row_json` (``players`` rebuilt)."""
        ...

    def playable_plan(self, plan: str) -> tuple[str, str | None]:
        """``(plan, None)`` when the kind plays every letter of ``plan``; else ``(the same
        rounds with letters it plays, the refusal naming them)`` (rules.md §15: no Mitchell
        for teams)."""
        ...

    def check_new_settings(self, fields: dict) -> None:
        """Adjust and check the settings ``fields`` of a new tournament of this kind in place
        (individual: the per-player tie-break order, rules.md §9; teams: the team tie-breaks
        by default, R or D rounds, a team scale for the margin mode, team sizes, §15).
        Raises ``ArbiterError``."""
        ...

    def normal_tiebreaks(self, tiebreaks: str | None) -> str | None:
        """The stored tie-break order for this kind from ``tiebreaks`` (a comma list; None or
        the pairs' default become the kind's default). Raises ``ArbiterError`` for an order
        naming an excluded criterion (:attr:`excluded_tiebreaks`)."""
        ...
