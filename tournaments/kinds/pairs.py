"""Pair tournaments (rules.md §1–§8): the entrants are registered pairs, each seated as one
line; Mitchell, Danish and round-robin rounds, with groups (rules.md §14, §19)."""
from __future__ import annotations

from django.db.models import F, Prefetch, Q
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from ..registrations import reading
from ..models import Pair, Player, Tournament
from .base import PageTexts
from ._groups import pair_group_lists
from ._pair_requests import active_pair_numbers, build_pair_request
from ._pair_tables import (
    player_json,
    keep_pair_findings,
    pair_entrants_changed,
    pair_groups_sentence,
    pair_response_from_round,
    pair_standings_changed,
    resting_pair_number,
    swap_pair_seats,
    write_pair_tables,
)


class PairsKind:
    """The pair tournament (``Tournament.Kind.PAIRS``): see :class:`tournaments.kinds.base.Kind`."""

    name = Tournament.Kind.PAIRS
    url_word = "coppia"
    audit_key = "pair"
    minimum_to_draw = 2
    has_groups = True
    first_round_by_hand = False
    idle_entrants_share_a_table = True

    def entrants(self, tournament):
        return tournament.pairs.filter(round__isnull=True)

    def group_entrants(self, tournament):
        # the groups page lists each pair's players in seat order
        return tournament.pairs.prefetch_related(Prefetch("members", queryset=Player.objects.order_by("seat")))

    def active_numbers(self, tournament, round_number):
        return active_pair_numbers(tournament, round_number)

    def too_few_to_draw(self):
        return _("Servono almeno due coppie in gara per generare un turno.")

    def group_lists(self, tournament):
        return pair_group_lists(tournament)

    def groups_sentence(self, key):
        return pair_groups_sentence(key)

    def pairing_request(self, tournament, number, *, seed=None):
        return build_pair_request(tournament, number, seed=seed)

    def round_system(self, tournament, number, request):
        return request["system"]

    def write_tables(self, rnd, response):
        write_pair_tables(rnd, response)

    def response_from_round(self, rnd):
        return pair_response_from_round(rnd)

    def keep_engine_findings(self, response, engine):
        keep_pair_findings(response, engine)

    def seated_numbers(self, rnd):
        return list(rnd.seats.values_list("pair__number", flat=True))

    def swap_in_draft(self, rnd, a, b):
        return swap_pair_seats(rnd, a, b)

    def resting_number(self, rnd):
        return resting_pair_number(rnd)

    def entrants_changed_sentences(self, gone, added):
        return pair_entrants_changed(gone, added)

    def standings_changed_sentence(self, round_number, changed):
        return pair_standings_changed(round_number, changed)

    def penalty_refusal(self, target):
        return {"pair": None,
                "player": _("In un torneo a coppie la penalità va a una coppia, non a un giocatore."),
                "team": _("Solo in un torneo a squadre una penalità va a una squadra.")}[target]

    def registration_refusal(self, entrant):
        return {"player": _("Questo torneo è a coppie: i giocatori si iscrivono in coppia."),
                "team": _("Questo torneo non è a squadre.")}[entrant]

    # ----- pages, documents and files
    entrants_page = "pairs"
    has_matches = False
    plan_m_is_mitchell = True
    swaps_players = False
    excluded_tiebreaks = ()
    import_service = "import_pairs"
    page_round_fields = ()
    document_flags = {"individual": False, "teams": False}
    rotates_partners = False
    moves_rest_by_hand = True
    withdraws_on_round_page = True
    penalties_on_entrants_page = False
    late_entry_page = "late_pair"
    import_preview_template = "arbiter/import_preview/pairs.html"
    texts = PageTexts(
        entrant_title=mark_safe(gettext_lazy("Coppia")),
        entrants_title=mark_safe(gettext_lazy("Coppie")),
        entrants_word=mark_safe(gettext_lazy("coppie")),
        standings_column=mark_safe(gettext_lazy("Coppia")),
        withdrawn=mark_safe(gettext_lazy("ritirata")),
        count=ngettext_lazy("%(n)s coppia", "%(n)s coppie", "n"),
        ready=ngettext_lazy("%(n)s coppia pronta", "%(n)s coppie pronte", "n"),
        search_label=mark_safe(gettext_lazy("Numero della coppia o il tuo cognome")),
        import_columns=mark_safe(gettext_lazy(
            "CSV (virgola o punto e virgola, UTF-8 o Windows-1252) o XLSX con le colonne coppia, cognome_1, "
            "nome_1, tessera_1, cognome_2, nome_2, tessera_2, circolo. L'importazione è tutto o niente.")),
        swap_label=mark_safe(gettext_lazy("Scambia la coppia")),
        swap_with_label=mark_safe(gettext_lazy("con la coppia")),
        rest_label=mark_safe(gettext_lazy("Fai riposare la coppia")),
        entrant_actions="",
        tiebreak_note="",
        pending_penalty=mark_safe(gettext_lazy("Coppia %(n)s: %(amount)s, turno %(r)s")),
        penalties_vp=mark_safe(gettext_lazy(
            "VP tolti a una coppia nella classifica generale (art. 23): gli avversari non guadagnano nulla.")),
        penalties_mp=mark_safe(gettext_lazy(
            "Una penalità in MP riduce lo scarto e gli MP fatti della coppia, non il risultato del tavolo.")),
        # rules.md §14, §19: every system of the plan is played in the groups
        groups_intro=mark_safe(gettext_lazy(
            "Con i gironi ogni turno si gioca nei gironi: nei turni all'italiana (R) ogni girone gioca il "
            "proprio girone all'italiana, nei danesi (D) ogni girone è abbinato secondo la propria classifica, "
            "nei Mitchell (M) ogni girone ha il proprio movimento. I tavoli sono numerati girone dopo girone e "
            "la pagina del turno dice il girone di ogni tavolo. Serpentina: le coppie in ordine di numero "
            "vanno ai gironi 1, 2, 3, poi 3, 2, 1, poi di nuovo 1, 2, 3 (con 3 gironi: 1 2 3 / 6 5 4 / 7 8 9).")),
        groups_danish=mark_safe(gettext_lazy(
            "In un girone con un numero dispari di coppie una coppia riposa a ogni turno. I gironi si fissano "
            "alla pubblicazione del primo turno giocato nei gironi.")),
        groups_single=mark_safe(gettext_lazy("Un solo girone: tutte le coppie giocano il girone all'italiana insieme.")),
        groups_split=mark_safe(gettext_lazy("Dividi le coppie")),
        groups_by_hand=mark_safe(gettext_lazy("A mano: il girone di ogni coppia")),
        group_of=mark_safe(gettext_lazy("Girone della coppia %(n)s")),
    )

    def entrant_map(self, tournament):
        return {p.number: p for p in tournament.pairs.filter(round__isnull=True).prefetch_related("members")}

    def entrant_players(self, tournament):
        return (Player.objects.filter(tournament=tournament, pair__isnull=False, pair__round__isnull=True)
                .select_related("member", "pair").annotate(entrant_number=F("pair__number"))
                .order_by("pair__number", "seat"))

    def print_names(self, tournament):
        players: dict[int, list[tuple[int, str]]] = {}
        rows = Player.objects.filter(tournament=tournament, pair__isnull=False).values_list(
            "pair__number", "seat", "last_name", "first_name"
        )
        for number, seat, last, first in rows:
            players.setdefault(number, []).append((seat or 0, f"{last} {first}"))
        return {n: tuple(name for _s, name in sorted(names)) for n, names in players.items()}

    def formed_line_names(self, table):
        return {}

    def seats_of_entrant(self, seats, number):
        return seats.filter(pair__number=number, pair__round__isnull=True)

    def hand_numbers(self, rnd):
        return set(rnd.seats.values_list("pair__number", flat=True))

    def search(self, tournament, query, digits):
        rows = Pair.objects.filter(tournament=tournament, round__isnull=True)
        rows = rows.filter(number=int(query)) if digits else rows.filter(
            Q(members__last_name__icontains=query) | Q(members__first_name__icontains=query)).distinct()
        return [(p.number, p.full_name) for p in rows.order_by("number").prefetch_related("members")[:20]]

    def find_entrant(self, tournament, number):
        return (Pair.objects.filter(tournament=tournament, round__isnull=True, number=number)
                .prefetch_related("members").first())

    def display_name(self, entrant):
        return entrant.full_name

    def parse_registrations(self, tournament, filename, data):
        return reading.parse(
            filename,
            data,
            existing_numbers=tournament.pairs.values_list("number", flat=True),
            existing_memberships=Player.objects.filter(tournament=tournament)
            .exclude(membership_number="")
            .values_list("membership_number", flat=True),
        )

    def registered_numbers(self, tournament):
        return set(tournament.pairs.values_list("number", flat=True))

    def row_players(self, row):
        return row.players

    def row_json(self, row):
        return {"row": row.row, "number": row.number, "players": [player_json(p) for p in row.players]}

    def row_from_json(self, doc, players):
        return reading.RegistrationRow(row=doc["row"], number=doc["number"], players=(players[0], players[1]))

    def playable_plan(self, plan):
        return plan, None

    def check_new_settings(self, fields):
        pass

    def normal_tiebreaks(self, tiebreaks):
        return tiebreaks



PAIRS = PairsKind()
