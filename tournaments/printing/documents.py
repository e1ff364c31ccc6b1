"""Printed documents (rules.md §10): table lists, score sheets, standings; PDF and XLSX.

Two layers:

- *builders* (``round_document``, ``standings_document``) read the database with a few flat
  queries (``selectors.round_tables``, ``selectors.standings_after``) and return plain frozen
  dataclasses;
- *renderers* (``tablelist_html``/``tablelist_pdf``, ``scoresheets_html``/``scoresheets_pdf``,
  ``standings_html``/``standings_pdf``, ``standings_xlsx``, ``scoresheets_xlsx``) take only those
  plain values and return ``str`` (HTML) or ``bytes`` (PDF, XLSX). They never query.

PDFs are A4, Italian, set in DejaVu Sans / Liberation Sans (``scripts/system-deps.sh``) and
rendered by WeasyPrint from the templates in ``templates/print/``. Spreadsheets use openpyxl:
bold header row, column widths, numbers stored as numbers.

Units: MP are ints (multiples of 5), VP are ``Decimal`` (whole or half points), table and
pair numbers are ints.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.dates import MONTHS
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import vp as vp_rules

from .. import pages, selectors
from ..captains import links
from ..forms import TIEBREAK_LABELS
from ..kinds import KindData, kind_named, kind_of
from ..models import HandRow, Round, ScoreSheet, Table, Tournament
from ..selectors.teams import round_matches

# --------------------------------------------------------------------------- plain values


@dataclass(frozen=True)
class PairInfo:
    """A pair as printed: its number and its players as (surname, name), seat 1 first."""

    number: int | str  # "3+7" for a partnership formed in an individual tournament; "3A" a team's pair
    people: tuple[tuple[str, str], ...]
    team: str = ""  # the team's name for a team's pair: its sheets name team and pair (rules.md §15)

    @property
    def players(self) -> tuple[str, ...]:
        """("Surname Name", ...)."""
        return tuple(f"{last} {first}" for last, first in self.people)

    @property
    def names(self) -> str:
        """"Rossi Mario – Bianchi Luca"; a formed partnership (number "3+7") "Rossi Mario + Bianchi Luca";
        a team's pair "Jolly Team: Rossi Mario + Bianchi Luca"."""
        names = (" + " if isinstance(self.number, str) else " – ").join(self.players)
        return f"{self.team}: {names}" if self.team else names


@dataclass(frozen=True)
class LineHand:
    """One line's hand on a sheet (MP): base, cards (None when not entered) and total."""

    base: int | None
    cards: int | None
    score: int


@dataclass(frozen=True)
class SheetHand:
    number: int
    ns: LineHand
    ew: LineHand


@dataclass(frozen=True)
class TableInfo:
    """One table of a round as printed.

    ``bye``: "" (a playing table), "rest" or "forced" (then ``ns`` is the resting pair and
    ``ew`` is None; ``resting_line`` says where it sits, "ns" or "ew", so a resting E/W pair
    is printed under E/O). ``filled``: the sheet has results; then ``hands`` (possibly empty for an
    arbitral score), ``mp_*`` (MP) and ``vp_*`` (VP) are set. ``qr_src``: the captain
    link's QR code as a PNG ``data:`` URI (:func:`captain_qr`), "" when not wanted.
    """

    number: int
    ns: PairInfo | None
    ew: PairInfo | None
    bye: str = ""
    pin: str = ""
    captain_url: str = ""
    qr_src: str = ""
    filled: bool = False
    hands: tuple[SheetHand, ...] = ()
    mp_ns: int | None = None
    mp_ew: int | None = None
    vp_ns: Decimal | None = None
    vp_ew: Decimal | None = None
    arbitral: bool = False
    arbitral_note: str = ""
    state: str = ""
    # The players' own pages of each line (absolute URLs, printed as QR codes on the score
    # sheet): the pair's, each player's of a partnership, the team's; () while the
    # tournament's public pages are off (the page would answer 404).
    ns_pages: tuple[str, ...] = ()
    ew_pages: tuple[str, ...] = ()
    resting_line: str = "ns"

    @property
    def vp_ns_text(self) -> str:
        return fmt_vp(self.vp_ns)

    @property
    def vp_ew_text(self) -> str:
        return fmt_vp(self.vp_ew)

    @property
    def difference(self) -> int | None:
        """|MP N/S − MP E/W|, or None for a blank sheet."""
        if self.mp_ns is None or self.mp_ew is None:
            return None
        return abs(self.mp_ns - self.mp_ew)


@dataclass(frozen=True)
class SeatFinder:
    """One line of the alphabetical part of the table list: where a player sits."""

    last_name: str
    first_name: str
    pair: int
    table: int
    line: str  # "N/S", "E/O" or "riposo"


@dataclass(frozen=True)
class ScaleBand:
    label: str  # "105–300"
    split: str  # "11–9"


@dataclass(frozen=True)
class RoundDocument:
    """Everything the table list and the score sheets of one round print."""

    tournament: str
    date: date | None
    venue: str
    round_number: int
    system: str  # printable: "Mitchell" / "Danese"
    hands_per_round: int
    scale_name: str
    scale_bands: tuple[ScaleBand, ...]
    tables: tuple[TableInfo, ...]
    state: str = ""
    rest_vp: Decimal | None = None  # VP credited to a resting pair (rules.md §5, art. 33)
    session: int = 1  # the round's session (the plan's ``|``, rules.md §11)
    sessions: int = 1  # sessions in the plan: the session is printed only when > 1
    # A team round's matches (rules.md §15), each with its two tables side by side
    # ({"number", "teams", "tables": [(table, ns, ew), …], "bye"}).
    matches: tuple = ()
    # The tournament's PIN page (/t/<slug>/pin/), printed so a captain without a camera can
    # type the table's PIN.
    pin_url: str = ""
    # The players' search page (printed as a QR code on the table list), "" while the
    # tournament's public pages are off.
    players_url: str = ""

    @property
    def session_text(self) -> str:
        """"Sessione 2" when the plan has several sessions, "" otherwise."""
        return session_label(self.session) if self.sessions > 1 else ""

    @property
    def date_text(self) -> str:
        return long_date(self.date)

    @property
    def playing_tables(self) -> tuple[TableInfo, ...]:
        return tuple(t for t in self.tables if not t.bye)

    @property
    def seat_finder(self) -> list[SeatFinder]:
        """Every player, sorted by surname then name (accents ignored), with pair, table, line."""
        rows = []
        for t in self.tables:
            for pair, line in ((t.ns, "N/S"), (t.ew, _("E/O"))):
                if pair is None:
                    continue
                where = _("riposo") if t.bye else line
                for last, first in pair.people:
                    rows.append(SeatFinder(last, first, pair.number, t.number, where))
        rows.sort(key=lambda r: (_sort_key(r.last_name), _sort_key(r.first_name), r.pair))
        return rows

    @property
    def seat_finder_pages(self) -> list[list[list[SeatFinder]]]:
        """:attr:`seat_finder` cut into A4 pages of two columns (:func:`finder_pages`)."""
        return finder_pages(self.seat_finder)


@dataclass(frozen=True)
class StandingLine:
    """One row of printed standings. ``position``: "3" or "3=" (shared). VP after penalties."""

    position: str
    pair: int
    players: tuple[str, ...]
    vp: Decimal
    penalty: Decimal
    mp_difference: int
    mp_scored: int
    played: int
    rests: int
    withdrawn: bool
    penalty_mp: int = 0

    @property
    def names(self) -> str:
        return " – ".join(self.players)

    @property
    def vp_text(self) -> str:
        return fmt_vp(self.vp)

    @property
    def penalty_text(self) -> str:
        """"−1" for a 1-VP penalty, "−100 MP" for a 100-MP one, both joined; "" for none."""
        parts = [f"−{fmt_vp(self.penalty)}"] if self.penalty else []
        if self.penalty_mp:
            parts.append(f"−{self.penalty_mp} MP")
        return " ".join(parts)


@dataclass(frozen=True)
class PenaltyNote:
    """A penalty listed under the standings: VP or MP deducted (the other kind 0)."""

    pair: int
    vp: Decimal
    reason: str
    round_number: int | None
    mp: int = 0

    @property
    def vp_text(self) -> str:
        return fmt_vp(self.vp)

    @property
    def amount_text(self) -> str:
        """"−1 VP" or "−100 MP"."""
        return f"−{self.mp} MP" if self.mp else f"−{fmt_vp(self.vp)} VP"


@dataclass(frozen=True)
class StandingsDocument:
    """Standings after a round (``after_round``), or final (``final``), ready to print."""

    tournament: str
    date: date | None
    venue: str
    after_round: int | None
    final: bool
    rows: tuple[StandingLine, ...]
    penalties: tuple[PenaltyNote, ...] = field(default=())
    session: int = 1  # session of ``after_round`` (rules.md §11)
    sessions: int = 1  # sessions in the plan: the session is printed only when > 1
    # the kind's words for the headings and notes (one row per pair, per player, rules.md §9,
    # or per team, §15)
    kind_data: KindData = kind_named(Tournament.Kind.PAIRS).data
    # Groups (rules.md §14): ((group, rows with the group position), ...); () unsplit.
    groups: tuple = field(default=())
    # The ranking's criteria in order, named as the page names them ("VP totali", "Scarto
    # MP", "Scontro diretto", "MP fatti"): printed above the table, rules.md §8.
    tiebreaks: tuple[str, ...] = field(default=())

    @property
    def has_ties(self) -> bool:
        """True when some position is shared ("3="): only then the legend is printed."""
        return any(r.position.endswith("=") for r in self.rows)

    @property
    def tie_example(self) -> str:
        """The first shared position printed ("1="), for the legend under the table, so the
        legend quotes a tie the reader can find; "" when no position is shared."""
        return next((r.position for r in self.rows if r.position.endswith("=")), "")

    @property
    def session_text(self) -> str:
        """"Sessione 2" (the session of the last round counted) when the plan has several
        sessions, "" otherwise; the standings themselves count every round of every session."""
        return session_label(self.session) if self.sessions > 1 and self.after_round else ""

    @property
    def title(self) -> str:
        if self.final:
            return _("Classifica finale")
        if self.after_round:
            return _("Classifica dopo il turno %(n)s") % {"n": self.after_round}
        return _("Classifica")

    @property
    def date_text(self) -> str:
        return long_date(self.date)


# --------------------------------------------------------------------------- helpers


def session_label(number: int) -> str:
    """"Sessione 2": the printed name of session ``number`` (1-based)."""
    return _("Sessione %(n)s") % {"n": number}


def round_session_text(tournament: Tournament, number: int | None) -> str:
    """"Sessione 2", the session of round ``number`` of ``tournament``, as the PDFs print it
    (:attr:`RoundDocument.session_text`), for the pages and spreadsheets; "" when the plan
    has one session or there is no round (``number`` None or 0), so a one-session
    tournament's pages and files show nothing new (rules.md §11)."""
    if not number or tournament.sessions_planned < 2:
        return ""
    return session_label(tournament.session_of_round(number))


def long_date(value: date | None) -> str:
    """``value`` written out for print in the active language: "30 novembre 2026" (Italian
    writes month names lowercase), "30 November 2026" in English; "" for None."""
    if value is None:
        return ""
    month = str(MONTHS[value.month])
    if (get_language() or "it").startswith("it"):
        month = month.lower()
    return f"{value.day} {month} {value.year}"


_DIRECTORY_IGNORED = frozenset(" '\u2019\u2018`\u00b4-.")


def _sort_key(text: str) -> str:
    """Directory sort key, as a phone book orders surnames: case and accents ignored, and
    apostrophes, spaces, hyphens and dots dropped, so "D'Amico" files as "damico" (after
    "Damiani", before "Danesi") and "Dalla Costa" as "dallacosta"; "Nicolò" as "nicolo"."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(
        c for c in decomposed if not unicodedata.combining(c) and c not in _DIRECTORY_IGNORED
    ).casefold()


#: The seat finder's A4 pages (8 pt rows of about 4.6 mm in 267 mm of page): rows per
#: column under the heading of the first page, and on the following pages; a player whose
#: "Surname Name" is longer than FINDER_WRAP characters may take two lines and counts twice.
FINDER_LINES_FIRST = 52
FINDER_LINES = 56
FINDER_WRAP = 25


def finder_pages(rows: list[SeatFinder], *, first: int = FINDER_LINES_FIRST,
                 lines: int = FINDER_LINES) -> list[list[list[SeatFinder]]]:
    """The seat finder (rules.md §10) laid out in Python as A4 pages of two columns:
    ``[[left column, right column], ...]`` (a last page may have only its left column),
    read down the left column, then down the right one, then the next page; at least one
    page (``[[]]`` when nobody plays). ``first``/``lines``: line budget of a column on the
    first/following pages (see :data:`FINDER_LINES`).

    Not CSS ``columns``: WeasyPrint laid the 1000 players of a 500-pair event out
    several times over to balance the columns (8 s of the table list's 11 s); page-sized
    tables cost one layout each.
    """
    columns: list[list[SeatFinder]] = []
    used = budget = 0
    for row in rows:
        cost = 2 if len(row.last_name) + 1 + len(row.first_name) > FINDER_WRAP else 1
        if not columns or used + cost > budget:
            columns.append([])
            used = 0
            budget = first if len(columns) <= 2 else lines
        columns[-1].append(row)
        used += cost
    return [columns[i:i + 2] for i in range(0, len(columns), 2)] or [[[]]]


def captain_qr(url: str) -> str:
    """The captain link's QR code for print: a PNG ``data:`` URI (``links.qr_png_uri``,
    cached there), drawn by the templates as ``<img class="qrimg">`` sized in mm."""
    return links.qr_png_uri(url)


def fmt_vp(value) -> str:
    """VP for print: "14", "17.5"; "" for None."""
    return "" if value is None else vp_rules.format_vp(value)


def vp_number(value) -> int | float | None:
    """VP as a JSON/XLSX number: int when whole, else float (17.5)."""
    if value is None:
        return None
    d = Decimal(value)
    return int(d) if d == d.to_integral_value() else float(d)


def scale_bands(scale: vp_rules.VPScale) -> tuple[ScaleBand, ...]:
    """The scale's bands as printable labels ("0–100", "10–10"; last band "≥ 1905")."""
    bands = []
    for b in scale.bands:
        label = f"{b.min}–{b.max}" if b.max is not None else f"≥ {b.min}"
        bands.append(ScaleBand(label, f"{fmt_vp(b.winner)}–{fmt_vp(b.loser)}"))
    return tuple(bands)


def _players_by_pair(tournament: Tournament) -> dict[int, tuple[str, ...]]:
    """Pair number → ("Surname Name", ...) seat order, in one query; player number →
    ("Surname Name",); team number → (team name,): the kind's :meth:`print_names`."""
    return kind_of(tournament).print_names(tournament)


def _pair_info(pair, cache: dict[int, PairInfo]) -> PairInfo | None:
    if pair is None:
        return None
    info = cache.get(pair.id)
    if info is None:
        members = pair.players  # registered members, or a formed partnership's players (rules.md §9)
        number = pair.display_number if pair.is_formed else pair.number
        info = PairInfo(number, tuple((p.last_name, p.first_name) for p in members),
                        team=pair.team.name if pair.team_id else "")
        cache[pair.id] = info
    return info


# --------------------------------------------------------------------------- builders (database → plain values)


def round_document(rnd: Round, *, qr: bool = True, request=None) -> RoundDocument:
    """Read round ``rnd`` for printing: tables, pairs and players, sheets and hands.

    ``qr``: include each table's captain QR code (:func:`captain_qr`); ``request``: used for
    the absolute captain URL when ``ARBITRO_PUBLIC_URL`` is not set (``links.base_url``).
    About six queries whatever the number of tables (no per-table query).
    """
    tournament = rnd.tournament
    scale = selectors.scales.scale_of(tournament)
    tables = selectors.round_tables(rnd).prefetch_related(
        Prefetch("sheet__hands", queryset=HandRow.objects.order_by("number"))
    )
    cache: dict[int, PairInfo] = {}
    infos = []
    for table in tables:
        ns, ew = _pair_info(table.ns, cache), _pair_info(table.ew, cache)
        if table.bye:
            infos.append(TableInfo(number=table.number, ns=ns or ew, ew=None, bye=table.bye,
                                   resting_line="ns" if ns else "ew"))
            continue
        url = links.captain_url(table, request)
        sheet = getattr(table, "sheet", None) if _has_sheet(table) else None
        extra = {}
        if sheet is not None and sheet.state != ScoreSheet.State.EMPTY:
            extra = dict(
                filled=True,
                hands=tuple(
                    SheetHand(h.number, LineHand(h.ns_base, h.ns_cards, h.ns_score),
                              LineHand(h.ew_base, h.ew_cards, h.ew_score))
                    for h in sheet.hands.all()
                ),
                mp_ns=sheet.mp_ns, mp_ew=sheet.mp_ew, vp_ns=sheet.vp_ns, vp_ew=sheet.vp_ew,
                arbitral=sheet.arbitral, arbitral_note=sheet.arbitral_note,
                state=sheet.get_state_display(),
            )
        infos.append(TableInfo(
            number=table.number, ns=ns, ew=ew, pin=table.pin, captain_url=url,
            qr_src=captain_qr(url) if qr else "",
            ns_pages=player_pages(tournament, table.ns, request), ew_pages=player_pages(tournament, table.ew, request),
            **extra,
        ))
    return RoundDocument(
        tournament=tournament.name, date=tournament.date, venue=tournament.venue,
        round_number=rnd.number, system=rnd.get_system_display(),
        hands_per_round=tournament.hands_per_round, scale_name=scale.name,
        scale_bands=scale_bands(scale), tables=tuple(infos), state=rnd.get_state_display(),
        rest_vp=selectors.scales.rest_values(tournament, scale)[0],
        session=tournament.session_of_round(rnd.number), sessions=tournament.sessions_planned,
        matches=_match_rows(rnd, infos),
        pin_url=links.base_url(request) + reverse("captain_pin", args=[tournament.slug]),
        players_url=(links.base_url(request) + reverse("player_search", args=[tournament.slug])
                     if tournament.public_enabled else ""),
    )


def player_pages(tournament: Tournament, pair, request=None) -> tuple[str, ...]:
    """The absolute URLs of the players' own pages for the line ``pair`` (a Pair or None):
    ``/p/<slug>/coppia/<n>/`` for a registered pair, ``/giocatore/<n>/`` for each player of a
    partnership (individual), ``/squadra/<n>/`` for a team's pair; () when the tournament's
    public pages are off or there is no pair."""
    if pair is None or not tournament.public_enabled:
        return ()
    base = links.base_url(request)
    if pair.team_id is not None:
        return (base + reverse("player_page", args=[tournament.slug, "squadra", pair.team.number]),)
    if pair.is_formed:
        return tuple(base + reverse("player_page", args=[tournament.slug, "giocatore", p.number])
                     for p in pair.players if p.number)
    return (base + reverse("player_page", args=[tournament.slug, "coppia", pair.number]),)


def _match_rows(rnd: Round, infos: list) -> tuple:
    """The matches of a team round for the table list (rules.md §15): empty for other kinds."""
    if not kind_of(rnd.tournament).data.has_matches:
        return ()
    by_number = {t.number: t for t in infos}
    rows = []
    for m in round_matches(rnd):
        teams = f"{m['team_a']['number']} {m['team_a']['name']}"
        if m["team_b"]:
            teams += f" – {m['team_b']['number']} {m['team_b']['name']}"
        tables = [(n, by_number[n].ns.number, by_number[n].ew.number) for n in m["tables"] if n in by_number]
        rows.append({"number": m["number"], "teams": teams, "tables": tables, "bye": m["bye"],
                     "forfeit_by": m["forfeit_by"], "forfeit_name": m["forfeit_name"]})
    return tuple(rows)


def _has_sheet(table: Table) -> bool:
    return hasattr(table, "sheet")  # the reverse one-to-one raises when the table has no sheet


def last_closed_round(tournament: Tournament) -> int | None:
    """Number of the last closed round, None when none is closed."""
    last = tournament.rounds.filter(state=Round.State.CLOSED).order_by("-number").first()
    return last.number if last else None


def standings_document(tournament: Tournament, *, after_round: int | None = None) -> StandingsDocument:
    """Standings (rules.md §8) after round ``after_round`` (closed rounds only), by default
    after the last closed round; ``final`` when that is the plan's last round. Read from
    ``selectors.standings_after``, like the arbiter's and the public pages; the penalties
    listed are those it counts (VP and MP).

    Raises ``ValueError`` for a round number below 1.
    """
    if after_round is not None and after_round < 1:
        raise ValueError("after_round must be ≥ 1")
    view = selectors.standings_after(tournament, after_round)
    names = _players_by_pair(tournament)
    lines = tuple(_standing_line(r, names) for r in view.rows)
    groups = tuple((g.group, tuple(_standing_line(r, names) for r in g.rows))
                   for g in pages.groups.standings_by_group(tournament, view))
    penalties = tuple(
        PenaltyNote(pair=p.pair, vp=p.vp, reason=p.reason, round_number=p.round_number, mp=p.mp)
        for p in view.penalties
    )
    return StandingsDocument(
        tournament=tournament.name, date=tournament.date, venue=tournament.venue,
        after_round=view.after_round, final=view.final, rows=lines, penalties=penalties,
        session=tournament.session_of_round(view.after_round or 1), sessions=tournament.sessions_planned,
        kind_data=kind_of(tournament).data,
        groups=groups, tiebreaks=_tiebreak_names(tournament),
    )


def _tiebreak_names(tournament: Tournament) -> tuple[str, ...]:
    """The names of the criteria the standings apply (``selectors.applied_tiebreaks``)."""
    return tuple(str(TIEBREAK_LABELS[k]) for k in selectors.applied_tiebreaks(tournament) if k in TIEBREAK_LABELS)


def _standing_line(r, names) -> StandingLine:
    return StandingLine(
        position=r.position_label, pair=r.pair, players=names.get(r.pair, ()), vp=Decimal(r.vp),
        penalty=Decimal(r.penalty), mp_difference=r.mp_difference, mp_scored=r.mp_scored,
        played=r.played, rests=r.rests, withdrawn=r.withdrawn, penalty_mp=r.penalty_mp,
    )


# --------------------------------------------------------------------------- renderers (plain values → bytes)


def html_to_pdf(html: str) -> bytes:
    """Render print HTML to PDF bytes with WeasyPrint (A4 and fonts come from the CSS)."""
    # lazy: WeasyPrint is slow to import and only PDF rendering needs it
    import weasyprint

    return weasyprint.HTML(string=html).write_pdf()


#: The parts of the table list :func:`tablelist_html` writes: the whole document; the pages
#: by table followed by one blank page a seat finder page (so WeasyPrint counts the pages of
#: the whole list in the footers; the print pack drops the blank ones); the seat finder's
#: pages alone, one ``<section class="fpage">`` a page with its footer as values
#: (``<span class="v">``, the page number as ``FINDERPAGE<i> / FINDERPAGES``), for
#: ``printing.stamp.render_finder``.
TABLELIST_PARTS = ("all", "tables", "finder")


def tablelist_html(doc: RoundDocument, *, qr: bool = True, part: str = "all") -> str:
    """HTML of the round's table list (*tabellone*, rules.md §10): by table, then every player
    by surname with pair, table and line. ``qr``: print each table's captain QR code.
    ``part``: one of :data:`TABLELIST_PARTS` (ValueError otherwise)."""
    if part not in TABLELIST_PARTS:
        raise ValueError(f"unknown part of the table list {part!r}")
    return render_to_string("print/tablelist.html", {"doc": doc, "qr": qr, "part": part})


def tablelist_pdf(doc: RoundDocument, *, qr: bool = True) -> bytes:
    """PDF (A4) of :func:`tablelist_html`."""
    return html_to_pdf(tablelist_html(doc, qr=qr))


def scoresheets_html(doc: RoundDocument, *, a5: bool = False, tables: tuple[TableInfo, ...] | None = None) -> str:
    """HTML of every playing table's score sheet, one A4 page each (rules.md §3, §10):
    both lines, one row per hand (base / cards / total per line), totals, difference, VP,
    the VP scale, signature boxes, captain QR and PIN. Blank when not entered yet.

    ``a5``: two sheets to an A4 landscape page, each an A5 half with a dashed cut line
    between them (half the paper). ``tables``: only these playing tables (a part
    of the print pack); default every playing table of ``doc``.
    """
    sheets = _sheets(doc, tables)
    step = 2 if a5 else 1
    pages = [sheets[i:i + step] for i in range(0, len(sheets), step)]
    return render_to_string("print/scoresheets.html", {"doc": doc, "pages": pages, "a5": a5})


def _sheets(doc: RoundDocument, tables=None) -> list[tuple[TableInfo, list]]:
    """(table, rows) per playing table; rows: (hand number, SheetHand or None for a blank row).

    An arbitral score has no hands: its rows stay blank and the totals show its MP.
    """
    sheets = []
    for t in doc.playing_tables if tables is None else tables:
        by_number = {h.number: h for h in t.hands}
        count = max(doc.hands_per_round, max(by_number, default=0))
        sheets.append((t, [(n, by_number.get(n)) for n in range(1, count + 1)]))
    return sheets


def scoresheets_pdf(doc: RoundDocument, *, a5: bool = False) -> bytes:
    """PDF (A4, one page per table; with ``a5`` two tables a page) of :func:`scoresheets_html`."""
    return html_to_pdf(scoresheets_html(doc, a5=a5))


def standings_html(doc: StandingsDocument) -> str:
    """HTML of the standings (rules.md §8, §10): position with "3=" ties, pair, players, VP,
    penalty, MP difference, rounds; the header row repeats on every A4 page."""
    return render_to_string("print/standings.html", {"doc": doc})


def standings_pdf(doc: StandingsDocument) -> bytes:
    """PDF (A4) of :func:`standings_html`."""
    return html_to_pdf(standings_html(doc))


__all__ = [
    "PairInfo", "TableInfo", "RoundDocument", "StandingsDocument", "StandingLine",
    "round_document", "standings_document", "last_closed_round",
    "tablelist_html", "tablelist_pdf", "scoresheets_html", "scoresheets_pdf",
    "standings_html", "standings_pdf",
    "html_to_pdf", "fmt_vp", "vp_number", "scale_bands", "finder_pages",
]
