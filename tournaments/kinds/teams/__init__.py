"""Team tournaments (rules.md §14–§15): the entrants are teams of four or more players; each
paired "table" of the engine is a match of two tables with crossed lines. The round cycle's
request, matches and read-back live in :mod:`._rounds`; what the pairs' behaviour
(:class:`tournaments.kinds.base.Kind`) does not fit is overridden here."""
from __future__ import annotations

from django.db.models import F, Q
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from ... import selectors
from ...errors import ArbiterError
from ...models import DEFAULT_TIEBREAKS, LineMember, Player, Team, Tournament
from ...registrations.teams import TeamRow, parse_teams_for_tournament
from .._pair_tables import player_json
from ..base import Kind, KindData
from ._rounds import (  # noqa: F401  (the team round cycle, importable from its kind)
    active_teams,
    build_team_request,
    clear_round,
    seated_teams,
    swap_teams_in_draft,
    team_response_from_round,
    write_match,
    write_team_matches,
)

# rules.md §15: team standings are VP, match margin, head-to-head, then shared.
TEAM_TIEBREAKS = "vp,mp_difference,head_to_head"


def check_team_settings(fields: dict) -> None:
    """A team tournament (rules.md §15): R or D rounds only, a team scale for the margin mode,
    team sizes 4 ≤ min ≤ max."""
    plan = fields.get("plan", "MMMD")
    if isinstance(plan, str) and "M" in plan:
        raise ArbiterError(_("Un torneo a squadre si accoppia con il girone all'italiana (R) o il danese (D): "
                             "il Mitchell (M) non vale per le squadre."))
    if fields.get("team_result") == Tournament.TeamResult.MARGIN and not fields.get("team_scale"):
        raise ArbiterError(_("Il risultato per scarto sommato richiede una tabella VP a squadre."))
    low, high = fields.get("team_min_players", 4), fields.get("team_max_players", 6)
    if not 4 <= low <= high:
        raise ArbiterError(_("Una squadra ha almeno 4 giocatori (due coppie), e il minimo non supera il massimo."))


DATA = KindData(
    name=Tournament.Kind.TEAMS,
    url_word="squadra",
    audit_key="team",
    minimum_to_draw=2,
    has_groups=True,
    first_round_by_hand=False,
    idle_entrants_share_a_table=False,  # a resting team has a match without tables
    has_matches=True,
    plan_m_is_mitchell=False,  # rules.md §15: no Mitchell for teams
    plan_replacements=(("M", "R"),),  # rules.md §15: R or D rounds only
    swaps_players=False,
    moves_rest_by_hand=True,
    rotates_partners=False,
    excluded_tiebreaks=(),
    entrants_page="teams",
    late_entry_page="teams",
    import_preview_template="arbiter/import_preview/teams.html",
    withdraws_on_round_page=False,
    penalties_on_entrants_page=False,
    page_round_fields=("tables",),
    entrant_title=mark_safe(gettext_lazy("Squadra")),
    entrants_title=mark_safe(gettext_lazy("Squadre")),
    entrants_word=mark_safe(gettext_lazy("squadre")),
    standings_column=mark_safe(gettext_lazy("Squadra")),
    number_heading=mark_safe(gettext_lazy("N.")),
    names_heading=mark_safe(gettext_lazy("Squadra")),
    withdrawn=mark_safe(gettext_lazy("ritirata")),
    count=ngettext_lazy("%(n)s squadra", "%(n)s squadre", "n"),
    ready=ngettext_lazy("%(n)s squadra pronta", "%(n)s squadre pronte", "n"),
    search_label=mark_safe(gettext_lazy("Numero o nome della squadra, o il tuo cognome")),
    import_columns=mark_safe(gettext_lazy(
        "CSV (virgola o punto e virgola, UTF-8 o Windows-1252) o XLSX con le colonne squadra, nome_squadra, "
        "cognome, nome, tessera, circolo (un giocatore per riga, da 4 a 6 per squadra; il primo è il "
        "capitano). L'importazione è tutto o niente.")),
    swap_label=mark_safe(gettext_lazy("Scambia la squadra")),
    swap_with_label=mark_safe(gettext_lazy("con la squadra")),
    rest_label=mark_safe(gettext_lazy("Fai riposare la squadra")),
    entrant_actions=mark_safe(gettext_lazy("Squadre: ritiri, squadra tardiva, formazioni")),
    tiebreak_note="",
    pending_penalty=mark_safe(gettext_lazy("Squadra %(n)s: %(amount)s, turno %(r)s")),
    penalties_vp=mark_safe(gettext_lazy(
        "VP tolti a una squadra nella classifica generale (art. 23): gli avversari non guadagnano nulla e i "
        "VP dei suoi giocatori non cambiano.")),
    penalties_mp=mark_safe(gettext_lazy(
        "Una penalità in MP riduce lo scarto totale degli incontri della squadra (lo spareggio), non il "
        "risultato dell'incontro.")),
    penalties_note=mark_safe(gettext_lazy(
        "VP o MP tolti in classifica; una penalità in MP riduce lo scarto totale degli incontri della "
        "squadra, non il risultato dell'incontro")),
    # rules.md §14, §19: round-robin and Danish rounds are played in the groups
    groups_intro=mark_safe(gettext_lazy(
        "Con i gironi ogni turno si gioca nei gironi: nei turni all'italiana (R) ogni girone gioca il "
        "proprio girone all'italiana, nei danesi (D) ogni girone è abbinato secondo la propria classifica, "
        "senza incontri ripetuti. I tavoli sono numerati girone dopo girone e la pagina del turno dice il "
        "girone di ogni tavolo. Serpentina: le squadre in ordine di numero vanno ai gironi 1, 2, 3, poi "
        "3, 2, 1, poi di nuovo 1, 2, 3 (con 3 gironi: 1 2 3 / 6 5 4 / 7 8 9).")),
    groups_danish=mark_safe(gettext_lazy(
        "In un girone con un numero dispari di squadre una squadra riposa a ogni turno. I gironi si fissano "
        "alla pubblicazione del primo turno giocato nei gironi.")),
    groups_single=mark_safe(gettext_lazy("Un solo girone: tutte le squadre giocano il girone all'italiana insieme.")),
    groups_split=mark_safe(gettext_lazy("Dividi le squadre")),
    groups_by_hand=mark_safe(gettext_lazy("A mano: il girone di ogni squadra")),
    group_of=mark_safe(gettext_lazy("Girone della squadra %(n)s")),
    too_few_to_draw=gettext_lazy("Servono almeno due squadre in gara per generare un turno."),
    gone_from_play=ngettext_lazy("Non è più in gara la squadra %(numbers)s (ritiro).",
                                 "Non sono più in gara le squadre %(numbers)s (ritiro).", "n"),
    entered_play=ngettext_lazy("È entrata in gara la squadra %(numbers)s.",
                               "Sono entrate in gara le squadre %(numbers)s.", "n"),
    standings_changed=gettext_lazy("La classifica dopo il turno %(round)s è cambiata per le squadre %(numbers)s "
                                   "(correzione, inversione delle linee, punteggio arbitrale o penalità)."),
    groups_refusals={
        "no_group": gettext_lazy("Le squadre %(pairs)s non hanno un girone: dividi di nuovo le squadre nei gironi."),
        "too_small": gettext_lazy("Il girone %(group)s ha meno di 2 squadre: dividi di nuovo le squadre nei gironi."),
        "too_many": gettext_lazy("Con %(pairs)s squadre si fanno al massimo %(max)s gironi (almeno 2 squadre "
                                 "per girone)."),
        "hand_missing": gettext_lazy("Manca il girone delle squadre %(pairs)s."),
        "hand_range": gettext_lazy("Il girone della squadra %(pair)s deve essere tra 1 e %(max)s."),
        "hand_small": gettext_lazy("Il girone %(group)s ha meno di 2 squadre: ogni girone ne vuole almeno 2."),
    },
    penalty_refusals={
        "pair": gettext_lazy("In un torneo a squadre la penalità va a una squadra, non a una coppia."),
        "player": gettext_lazy("In un torneo a squadre la penalità va a una squadra, non a un giocatore."),
        "team": "",
    },
    # a team tournament registers players only inside a team
    registration_refusals={
        "player": gettext_lazy("Questo torneo è a coppie: i giocatori si iscrivono in coppia."),
        "team": "",
    },
    plan_refusal=gettext_lazy("Un torneo a squadre si accoppia con il girone all'italiana (R) o il "
                              "danese (D): il Mitchell (M) non vale per le squadre (es. %(plan)s)."),
)


class TeamsKind(Kind):
    """The team tournament (``Tournament.Kind.TEAMS``): what differs from the pairs'
    :class:`tournaments.kinds.base.Kind` — teams as entrants, each paired "table" a match of
    two tables (rules.md §15)."""

    def entrants(self, tournament):
        return tournament.teams.all()

    def active_numbers(self, tournament, round_number):
        return active_teams(tournament, round_number)

    def group_lists(self, tournament):
        return selectors.teams.group_lists(tournament)

    def pairing_request(self, tournament, number, *, seed=None):
        return build_team_request(tournament, number, seed=seed)

    def write_tables(self, rnd, response):
        # each answered table is a match of two tables (rules.md §15)
        write_team_matches(rnd, response)

    def response_from_round(self, rnd):
        return team_response_from_round(rnd)

    def seated_numbers(self, rnd):
        return seated_teams(rnd)

    def hand_numbers(self, rnd):
        return set(seated_teams(rnd))

    def swap_in_draft(self, rnd, a, b):
        swap_teams_in_draft(rnd, a, b)
        return {"teams": [a, b]}

    def resting_number(self, rnd):
        resting_match = rnd.matches.filter(bye="rest").select_related("team_a").first()
        if resting_match is None:
            raise ArbiterError(_("In questo turno non riposa nessuna squadra (numero pari di squadre)."))
        return resting_match.team_a.number

    def entrants_by_number(self, tournament, numbers=None):
        rows = tournament.teams.all()
        if numbers is not None:
            rows = rows.filter(number__in=list(numbers))
        return {t.number: t for t in rows}

    def entrant_players(self, tournament):
        return (Player.objects.filter(tournament=tournament, team__isnull=False)
                .select_related("member", "team").annotate(entrant_number=F("team__number"))
                .order_by("team__number", "id"))

    def print_names(self, tournament):
        return {n: (name,) for n, name in tournament.teams.values_list("number", "name")}

    def formed_line_names(self, table):
        # a team's pair for the match: "4B" and "Team: Rossi Anna + Verdi Bruno"
        lines: dict = {}
        formed = (LineMember.objects.filter(pair__seats__table=table).order_by("seat")
                  .values_list("pair__seats__line", "pair__number", "pair__team__number", "pair__team_line",
                               "pair__team__name", "player__last_name", "player__first_name"))
        for line, number, team, team_line, team_name, last, first in formed:
            entry = lines.setdefault(line, {"number": number, "display_number": f"{team}{'AB'[(team_line or 1) - 1]}",
                                            "team": team_name, "names": []})
            entry["names"].append(f"{last} {first}")
        for entry in lines.values():
            if "team" in entry:
                entry["name"] = f"{entry.pop('team')}: " + " + ".join(entry.pop("names"))
        return lines

    def seats_of_entrant(self, seats, number):
        return seats.filter(pair__team__number=number)

    def search(self, tournament, query, digits):
        rows = Team.objects.filter(tournament=tournament)
        rows = rows.filter(number=int(query)) if digits else rows.filter(
            Q(name__icontains=query) | Q(members__last_name__icontains=query)).distinct()
        return [(t.number, t.name) for t in rows.order_by("number")[:20]]

    def parse_registrations(self, tournament, filename, data):
        return parse_teams_for_tournament(tournament, filename, data)

    def registered_numbers(self, tournament):
        return set(tournament.teams.values_list("number", flat=True))

    def row_json(self, row):
        return {"row": row.row, "number": row.number, "name": row.name,
                "players": [player_json(p) for p in row.players]}

    def row_from_json(self, doc, players):
        return TeamRow(row=doc["row"], number=doc["number"], name=doc["name"], players=players)

    def check_new_settings(self, fields):
        if fields.get("tiebreaks", DEFAULT_TIEBREAKS) == DEFAULT_TIEBREAKS:
            fields["tiebreaks"] = TEAM_TIEBREAKS  # rules.md §15 (the pairs' default otherwise)
        check_team_settings(fields)


TEAMS = TeamsKind(DATA)
