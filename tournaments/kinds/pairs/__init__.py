"""Pair tournaments (rules.md §1–§8): the entrants are registered pairs, each seated as one
line; Mitchell, Danish and round-robin rounds, with groups (rules.md §14, §19). Their
behaviour is :class:`tournaments.kinds.base.Kind`'s defaults: this package is their data."""
from __future__ import annotations

from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy, ngettext_lazy

from ...models import Tournament
from .._pair_tables import PAIR_GROUPS_REFUSALS
from ..base import Kind, KindData

DATA = KindData(
    name=Tournament.Kind.PAIRS,
    url_word="coppia",
    audit_key="pair",
    minimum_to_draw=2,
    has_groups=True,
    first_round_by_hand=False,
    idle_entrants_share_a_table=True,
    has_matches=False,
    plan_m_is_mitchell=True,
    plan_replacements=(),
    swaps_players=False,
    moves_rest_by_hand=True,
    rotates_partners=False,
    excluded_tiebreaks=(),
    entrants_page="pairs",
    late_entry_page="late_pair",
    import_preview_template="arbiter/import_preview/pairs.html",
    withdraws_on_round_page=True,
    penalties_on_entrants_page=False,
    page_round_fields=(),
    entrant_title=mark_safe(gettext_lazy("Coppia")),
    entrants_title=mark_safe(gettext_lazy("Coppie")),
    entrants_word=mark_safe(gettext_lazy("coppie")),
    standings_column=mark_safe(gettext_lazy("Coppia")),
    number_heading=mark_safe(gettext_lazy("Coppia")),
    names_heading=mark_safe(gettext_lazy("Giocatori")),
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
    penalties_note=mark_safe(gettext_lazy(
        "VP o MP tolti in classifica; una penalità in MP riduce scarto e MP fatti della coppia, non il "
        "risultato del tavolo")),
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
    too_few_to_draw=gettext_lazy("Servono almeno due coppie in gara per generare un turno."),
    gone_from_play=ngettext_lazy("Non è più in gara la coppia %(numbers)s (ritiro).",
                                 "Non sono più in gara le coppie %(numbers)s (ritiro).", "n"),
    entered_play=ngettext_lazy("È entrata in gara la coppia %(numbers)s.",
                               "Sono entrate in gara le coppie %(numbers)s.", "n"),
    standings_changed=gettext_lazy("La classifica dopo il turno %(round)s è cambiata per le coppie %(numbers)s "
                                   "(correzione, inversione delle linee, punteggio arbitrale o penalità)."),
    groups_refusals=PAIR_GROUPS_REFUSALS,
    penalty_refusals={
        "pair": "",
        "player": gettext_lazy("In un torneo a coppie la penalità va a una coppia, non a un giocatore."),
        "team": gettext_lazy("Solo in un torneo a squadre una penalità va a una squadra."),
    },
    registration_refusals={
        "player": gettext_lazy("Questo torneo è a coppie: i giocatori si iscrivono in coppia."),
        "team": gettext_lazy("Questo torneo non è a squadre."),
    },
    plan_refusal="",
)

#: the pair tournament: the base class's behaviour with the pairs' data
PAIRS = Kind(DATA)
