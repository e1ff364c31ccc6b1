"""URL patterns of the rounds pages (included under /tornei/<slug>/).

The round cycle (generate → adjust → publish → enter sheets → validate → close),
score entry and corrections per table, withdrawals and late pairs, standings.
"""
from django.urls import path

from .views import disputes, incidents, lateness, rounds, sheets, standings

urlpatterns: list = [
    path("turni/", rounds.round_current, name="rounds"),
    path("turni/genera/", rounds.round_generate, name="round_generate"),
    path("turni/<int:number>/", rounds.round_detail, name="round"),
    path("turni/<int:number>/scambia/", rounds.round_swap, name="round_swap"),
    path("turni/<int:number>/a-mano/", rounds.round_by_hand, name="round_by_hand"),  # rules.md §9: round 1 by hand
    path("turni/<int:number>/riposo/", rounds.round_move_to_rest, name="round_rest"),
    path("turni/<int:number>/riposi-insieme/", rounds.round_seat_idle_pairs, name="round_seat_idle"),
    path("turni/<int:number>/pubblica/", rounds.round_publish, name="round_publish"),
    path("turni/<int:number>/ridisegna/", rounds.round_redraw, name="round_redraw"),
    path("turni/<int:number>/valida-tutti/", rounds.round_validate_all, name="round_validate_all"),
    path("turni/<int:number>/chiudi/", rounds.round_close, name="round_close"),
    path("turni/<int:number>/orologio/", rounds.round_clock, name="round_clock"),
    path("turni/<int:number>/riapri/", rounds.round_reopen, name="round_reopen"),
    path("turni/<int:number>/ritardo/", lateness.round_lateness, name="round_lateness"),  # rules.md §22
    path("turni/<int:number>/prossimo/", sheets.sheet_next, name="sheet_next"),
    path("turni/<int:number>/tavoli/<int:table>/", sheets.sheet_entry, name="sheet"),
    path("turni/<int:number>/tavoli/<int:table>/scarta-bozza/", sheets.sheet_draft_discard,
         name="sheet_draft_discard"),
    path("turni/<int:number>/tavoli/<int:table>/valida/", sheets.sheet_validate, name="sheet_validate"),
    path("turni/<int:number>/tavoli/<int:table>/correzioni/", sheets.sheet_corrections, name="sheet_corrections"),
    # trust: a disputed sheet is validated only with the arbiter's written decision
    path("turni/<int:number>/tavoli/<int:table>/decidi-contestazione/", disputes.sheet_validate_disputed,
         name="sheet_validate_disputed"),
    path("calcolatore-smazzata/", sheets.hand_calculator, name="hand_calculator"),
    path("ritiro/", incidents.pair_withdraw, name="pair_withdraw"),
    path("coppia-tardiva/", incidents.late_pair, name="late_pair"),
    path("classifica/", standings.standings, name="standings"),
]
