"""Individual tournaments (rules.md §9): the entrants are numbered players; each round forms
partnerships (``Pair`` rows of that round) from the engine's answer. The round cycle's
request, tables and read-back live in :mod:`._rounds`; the rest of the pairs' behaviour
(:class:`tournaments.kinds.base.Kind`) holds: each round's partnerships are seated as pairs."""
from __future__ import annotations

from django.db.models import F, Q
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from scoring.individual import INDIVIDUAL_TIEBREAKS

from ...errors import ArbiterError
from ...models import DEFAULT_TIEBREAKS, LineMember, Player, Tournament
from ...registrations import reading
from .._pair_tables import PAIR_GROUPS_REFUSALS, player_json
from ..base import Kind, KindData
from ._rounds import (  # noqa: F401  (the individual round cycle, importable from its kind)
    active_players,
    build_individual_request,
    individual_response_from_round,
    line_players,
    parse_hand_tables,
    partnerships,
    player_ranking,
    repeated_partner_messages,
    repeated_partner_sentences,
    rested_players,
    seated_players,
    swap_players_in_draft,
    write_individual_tables,
)

#: rules.md §9: the §8 order per player; head-to-head does not apply (players meet as
#: opponents in partnerships that change every round).
DEFAULT_INDIVIDUAL_TIEBREAKS = ",".join(INDIVIDUAL_TIEBREAKS)


def individual_tiebreaks(tiebreaks: str | None) -> str:
    """The tie-break order (stored comma list) of an individual tournament (rules.md §9).

    ``None``, empty or the pairs' default (``vp,mp_difference,head_to_head,mp_scored``, what
    the form offers before the kind is chosen) become the per-player default
    ``vp,mp_difference,mp_scored``: §8 per player without head-to-head, which has no
    meaning per player (players meet as opponents in partnerships that change every
    round). Any other order is kept as given. Raises ``ArbiterError`` for an order of the
    arbiter's that names head-to-head."""
    if not tiebreaks or tiebreaks == DEFAULT_TIEBREAKS:
        return DEFAULT_INDIVIDUAL_TIEBREAKS
    keys = [k.strip() for k in tiebreaks.split(",") if k.strip()]
    if "head_to_head" in keys:
        raise ArbiterError(_("Lo scontro diretto non vale in un torneo individuale: i giocatori si "
                             "incontrano in coppie che cambiano ogni turno (regole §9). Toglilo dagli "
                             "spareggi."))
    return ",".join(keys)


DATA = KindData(
    name=Tournament.Kind.INDIVIDUAL,
    url_word="giocatore",
    audit_key="player",
    minimum_to_draw=4,
    has_groups=False,  # rules.md §19: the partners change every round
    first_round_by_hand=True,
    idle_entrants_share_a_table=False,  # a resting player is one player: no line of two
    has_matches=False,
    plan_m_is_mitchell=False,  # M is the individual movement (rules.md §9)
    plan_replacements=(),
    swaps_players=True,
    moves_rest_by_hand=False,  # the rest follows the players' rests (rules.md §5, §9)
    rotates_partners=True,
    excluded_tiebreaks=("head_to_head",),  # rules.md §9: no meaning per player
    entrants_page="players",
    late_entry_page="players",
    import_preview_template="arbiter/import_preview/individual.html",
    withdraws_on_round_page=False,
    penalties_on_entrants_page=True,
    page_round_fields=("partner",),
    entrant_title=mark_safe(gettext_lazy("Giocatore")),
    entrants_title=mark_safe(gettext_lazy("Giocatori")),
    entrants_word=mark_safe(gettext_lazy("giocatori")),
    standings_column=mark_safe(gettext_lazy("Giocatore")),
    number_heading=mark_safe(gettext_lazy("N.")),
    names_heading=mark_safe(gettext_lazy("Giocatore")),
    withdrawn=mark_safe(gettext_lazy("ritirato")),
    count=ngettext_lazy("%(n)s giocatore", "%(n)s giocatori", "n"),
    ready=ngettext_lazy("%(n)s giocatore pronto", "%(n)s giocatori pronti", "n"),
    search_label=mark_safe(gettext_lazy("Il tuo numero o il tuo cognome")),
    import_columns=mark_safe(gettext_lazy(
        "CSV (virgola o punto e virgola, UTF-8 o Windows-1252) o XLSX con le colonne giocatore, cognome, "
        "nome, tessera, circolo (un giocatore per riga). L'importazione è tutto o niente.")),
    swap_label=mark_safe(gettext_lazy("Scambia il giocatore")),
    swap_with_label=mark_safe(gettext_lazy("con il giocatore")),
    rest_label="",
    entrant_actions=mark_safe(gettext_lazy("Giocatori: ritiri, tardivi, penalità")),
    tiebreak_note=mark_safe(gettext_lazy(
        "per giocatore; lo scontro diretto non si applica in un torneo individuale, regole §9")),
    pending_penalty=mark_safe(gettext_lazy("Giocatore %(n)s: %(amount)s, turno %(r)s")),
    penalties_vp=mark_safe(gettext_lazy(
        "VP tolti a un giocatore nella classifica generale (art. 23): gli avversari non guadagnano nulla.")),
    penalties_mp=mark_safe(gettext_lazy(
        "Una penalità in MP riduce lo scarto e gli MP fatti del giocatore, non il risultato del tavolo.")),
    # the printed standings said the pairs' note for a player too: kept as it was
    penalties_note=mark_safe(gettext_lazy(
        "VP o MP tolti in classifica; una penalità in MP riduce scarto e MP fatti della coppia, non il "
        "risultato del tavolo")),
    groups_intro="", groups_danish="", groups_single="", groups_split="", groups_by_hand="", group_of="",
    too_few_to_draw=gettext_lazy("Servono almeno quattro giocatori in gara per generare un turno."),
    gone_from_play=ngettext_lazy("Non è più in gara il giocatore %(numbers)s (ritiro).",
                                 "Non sono più in gara i giocatori %(numbers)s (ritiro).", "n"),
    entered_play=ngettext_lazy("È entrato in gara il giocatore %(numbers)s.",
                               "Sono entrati in gara i giocatori %(numbers)s.", "n"),
    standings_changed=gettext_lazy("La classifica dopo il turno %(round)s è cambiata per i giocatori %(numbers)s "
                                   "(correzione, inversione delle linee, punteggio arbitrale o penalità)."),
    groups_refusals=PAIR_GROUPS_REFUSALS,  # never said: an individual tournament has no groups
    # a formed pair's penalty is accepted as before; the standings rank players
    penalty_refusals={
        "pair": "",
        "player": "",
        "team": gettext_lazy("Solo in un torneo a squadre una penalità va a una squadra."),
    },
    registration_refusals={"player": "", "team": gettext_lazy("Questo torneo non è a squadre.")},
    plan_refusal="",
)


class IndividualKind(Kind):
    """The individual tournament (``Tournament.Kind.INDIVIDUAL``): what differs from the pairs'
    :class:`tournaments.kinds.base.Kind` — numbered players as entrants, partnerships formed
    each round (rules.md §9)."""

    def entrants(self, tournament):
        return tournament.players.filter(number__isnull=False)

    def active_numbers(self, tournament, round_number):
        return [p.number for p in active_players(tournament, round_number)]

    def pairing_request(self, tournament, number, *, seed=None):
        return build_individual_request(tournament, number, seed=seed)

    def round_system(self, tournament, number, request):
        return tournament.system_of_round(number)

    def write_tables(self, rnd, response):
        write_individual_tables(rnd, response)

    def response_from_round(self, rnd):
        return individual_response_from_round(rnd)

    def keep_engine_findings(self, response, engine):
        current_partners = {frozenset(line) for t in response["tables"] for line in (t["ns"], t["ew"]) if line}
        response["repeated_partners"] = [m for m in engine.get("repeated_partners", [])
                                         if frozenset(m[:2]) in current_partners]

    def seated_numbers(self, rnd):
        return seated_players(rnd)

    # swap_in_draft, hand_numbers, resting_number: the round's formed pairs, as the pairs'

    def entrants_by_number(self, tournament, numbers=None):
        rows = tournament.players.filter(number__isnull=False)
        if numbers is not None:
            rows = rows.filter(number__in=list(numbers))
        return {p.number: p for p in rows}

    def entrant_players(self, tournament):
        return (Player.objects.filter(tournament=tournament, number__isnull=False)
                .select_related("member").annotate(entrant_number=F("number")))

    def print_names(self, tournament):
        return {n: (f"{last} {first}",) for n, last, first in Player.objects.filter(
            tournament=tournament, number__isnull=False).values_list("number", "last_name", "first_name")}

    def formed_line_names(self, table):
        # a line formed for the round; either player of it may enter or confirm
        lines: dict = {}
        formed = (LineMember.objects.filter(pair__seats__table=table).order_by("seat")
                  .values_list("pair__seats__line", "pair__number", "player__number", "player__last_name",
                               "player__first_name"))
        for line, number, player, last, first in formed:
            entry = lines.setdefault(line, {"number": number, "players": [], "names": []})
            entry["players"].append(str(player))
            entry["names"].append(f"{player} {last} {first}")
        for entry in lines.values():
            entry["display_number"] = "+".join(entry.pop("players"))
            entry["name"] = " + ".join(entry.pop("names"))
        return lines

    def seats_of_entrant(self, seats, number):
        return seats.filter(pair__line_members__player__number=number)

    def search(self, tournament, query, digits):
        rows = Player.objects.filter(tournament=tournament, number__isnull=False)
        rows = rows.filter(number=int(query)) if digits else rows.filter(
            Q(last_name__icontains=query) | Q(first_name__icontains=query))
        return [(p.number, p.display_name) for p in rows.order_by("number")[:20]]

    def parse_registrations(self, tournament, filename, data):
        return reading.parse_players(
            filename, data,
            existing_numbers=Player.objects.filter(tournament=tournament, number__isnull=False)
            .values_list("number", flat=True),
            existing_memberships=Player.objects.filter(tournament=tournament).exclude(membership_number="")
            .values_list("membership_number", flat=True),
        )

    def registered_numbers(self, tournament):
        return set(Player.objects.filter(tournament=tournament, number__isnull=False)
                   .values_list("number", flat=True))

    def row_json(self, row):
        return {"row": row.row, "number": row.number, "players": [player_json(row.player)]}

    def row_from_json(self, doc, players):
        return reading.PlayerRow(row=doc["row"], number=doc["number"], player=players[0])

    def check_new_settings(self, fields):
        fields["tiebreaks"] = individual_tiebreaks(fields.get("tiebreaks"))

    def normal_tiebreaks(self, tiebreaks):
        return individual_tiebreaks(tiebreaks)


INDIVIDUAL = IndividualKind(DATA)
