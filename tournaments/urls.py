"""URLs by role.

- arbiter pages under ``/tornei/<slug>/`` (this module, its rounds and VP scales, and
  ``printing.urls``), login required;
- captains under ``/c/`` (``captains.urls``), by private link, no login;
- players under ``/p/`` (``public.urls``), read-only, switched on by the arbiter.
"""
from django.contrib.auth import views as auth_views
from django.urls import include, path

from .captains import pin_views
from .captains import urls as captain_urls
from .printing import urls as urls_printing
from .public import urls as public_urls
from .views import (
    arbiter,
    board,
    board_calls,
    deletion,
    desk_calls,
    disputes,
    federation,
    groups,
    incidents,
    lateness,
    penalties,
    players,
    prizes,
    rounds,
    scales,
    sheets,
    standings,
    teams,
    transfer,
    withdrawals,
)

# The round cycle (generate → adjust → publish → enter sheets → validate → close), score entry
# and corrections per table, withdrawals and late pairs, standings (under /tornei/<slug>/).
round_patterns = [
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

# The VP scales, at /tabelle-vp/ (not per tournament: a custom scale can serve every tournament).
scale_patterns = [
    path("", scales.scale_list, name="scales"),
    path("nuova/", scales.scale_create, name="scale_create"),
    path("importa/", scales.scale_upload, name="scale_upload"),
    path("<slug:scale_id>/cancella/", scales.scale_delete, name="scale_delete"),
]

arbiter_patterns = [
    path("", arbiter.tournament_detail, name="tournament"),
    # live board, captain links (QR + PIN), switches of the public pages
    path("turni/<int:number>/tabellone-live/", board.board, name="board"),
    path("turni/<int:number>/tabellone-live/righe/", board.board_rows, name="board_rows"),
    path("turni/<int:number>/tabellone-live/valida/<int:table>/", board.board_validate, name="board_validate"),
    path("turni/<int:number>/tabellone-live/sblocca-pin/<int:table>/", board.board_unlock_pin,
         name="board_unlock_pin"),
    path("turni/<int:number>/tabellone-live/sblocca-pin-torneo/", board.board_unlock_tournament_pin,
         name="board_unlock_tournament_pin"),
    path("turni/<int:number>/tabellone-live/chiamate/<int:call>/arrivo/", board_calls.take, name="board_call_take"),
    path("turni/<int:number>/tabellone-live/chiamate/<int:call>/risolto/", board_calls.resolve,
         name="board_call_resolve"),
    path("chiamate/", desk_calls.desk_calls, name="desk_calls"),  # the bar of calls on every page
    path("turni/<int:number>/link-capitani/", board.captain_links, name="captain_links"),
    path("pagine-pubbliche/", board.public_switches, name="public_switches"),
    path("impostazioni/", arbiter.tournament_edit, name="tournament_edit"),
    path("coppie/", arbiter.pair_list, name="pairs"),
    path("coppie/nuova/", arbiter.pair_add, name="pair_add"),
    path("coppie/<int:number>/", arbiter.pair_edit, name="pair_edit"),
    path("coppie/<int:number>/cancella/", arbiter.pair_remove, name="pair_remove"),
    path("coppie/<int:number>/annulla-ritiro/", withdrawals.pair_withdrawal_undo, name="pair_withdrawal_undo"),
    path("importa/", arbiter.registrations_import, name="import"),
    # players of an individual tournament (rules.md §9)
    path("giocatori/", players.player_list, name="players"),
    path("giocatori/<int:number>/cancella/", players.player_remove, name="player_remove"),
    path("giocatori/<int:number>/ritira/", players.player_withdraw, name="player_withdraw"),
    path("giocatori/<int:number>/annulla-ritiro/", withdrawals.player_withdrawal_undo,
         name="player_withdrawal_undo"),
    path("giocatori/<int:number>/penalita/", players.player_penalty, name="player_penalty"),
    # teams of a team tournament (rules.md §15) and their line-ups
    path("squadre/", teams.team_list, name="teams"),
    path("squadre/<int:number>/formazione/", teams.team_lineup, name="team_lineup"),
    path("squadre/<int:number>/ritira/", teams.team_withdraw, name="team_withdraw"),
    path("squadre/<int:number>/annulla-ritiro/", withdrawals.team_withdrawal_undo, name="team_withdrawal_undo"),
    path("turni/<int:number>/incontri/<int:match>/forfait/", teams.match_forfeit, name="match_forfeit"),
    path("turni/<int:number>/incontri/<int:match>/forfait/annulla/", teams.match_forfeit_undo,
         name="match_forfeit_undo"),
    path("registro/", arbiter.audit_log, name="audit"),
    path("arbitri/", arbiter.tournament_arbiters, name="tournament_arbiters"),
    path("elimina/", deletion.tournament_delete, name="tournament_delete"),
    path("esporta/", transfer.tournament_export, name="tournament_export"),
    path("esporta/torneo.json", transfer.tournament_export_file, name="tournament_export_file"),
    path("penalita/", penalties.penalty_list, name="penalties"),
    # rules.md §18: the prize list and the ceremony's PDF
    path("premi/", prizes.prizes, name="prizes"),
    path("documenti/premi.pdf", prizes.prizes_pdf, name="prizes_pdf"),
    path("documenti/federazione.xlsx", prizes.federation_results, {"fmt": "xlsx"}, name="federation_xlsx"),
    path("documenti/federazione.csv", prizes.federation_results, {"fmt": "csv"}, name="federation_csv"),
    path("gironi/", groups.groups, name="groups"),
    path("penalita/<int:pk>/togli/", penalties.penalty_remove, name="penalty_remove"),
    *round_patterns,
    *urls_printing.urlpatterns,
]

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", arbiter.home, name="home"),
    path("tornei/nuovo/", arbiter.tournament_create, name="tournament_create"),
    path("tornei/importa-file/", transfer.tournament_import, name="tournament_import"),
    path("tabelle-vp/", include(scale_patterns)),
    # the federation's read-only view of every club (rules.md §20)
    path("federazione/", federation.overview, name="federation_overview"),
    path("federazione/risultati.csv", federation.download, {"fmt": "csv"}, name="federation_results_csv"),
    path("federazione/risultati.xlsx", federation.download, {"fmt": "xlsx"}, name="federation_results_xlsx"),
    path("tornei/<slug:slug>/", include(arbiter_patterns)),
    # A team captain's line-up page: under /c/ but a team page (views.teams, beside the arbiter's
    # line-up form); listed before the captains' URLs so that /c/<token>/… never catches it.
    path("c/squadra/<str:token>/", teams.team_captain, name="team_captain"),
    path("c/", include(captain_urls.urlpatterns)),
    path("t/<slug:slug>/pin/", pin_views.pin_entry, name="captain_pin"),
    path("p/", include(public_urls.urlpatterns)),
]
