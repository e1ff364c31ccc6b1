"""Messages of the pure modules (``scoring.sheets``, ``pairing.check``, the pairing engines'
refusals and warnings, and the draft's own sentences built with :func:`coded`) in the
reader's language: the one place mapping their codes to gettext templates.

The pure modules give each message a ``code`` and ``params`` (``scoring.messages.Message``,
``pairing.messages.Message``: a ``str`` holding the Italian text; a ``pairing.PairingError``
carries them too). Each template below is
that Italian text's pattern, so it is the msgid of the English catalogue. A message without a
known code is shown as it is (Italian).
"""
from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

_LINES = {"ns": N_("N/S"), "ew": N_("E/O")}

TEMPLATES = {
    # scoring/sheets.py
    "sheet.hand_count": N_("Lo score ha %(got)s smazzate, ne sono previste %(expected)s"),
    "sheet.no_hands": N_("Lo score non ha smazzate"),
    "sheet.hand_not_integer": N_("Smazzata %(hand)s, linea %(line)s: %(value)s non è un numero intero"),
    "sheet.hand_not_multiple": N_("Smazzata %(hand)s, linea %(line)s: %(value)s non è multiplo di 5"),
    "sheet.hand_out_of_bounds": N_("Smazzata %(hand)s, linea %(line)s: %(value)s è fuori dai limiti "
                                   "(al massimo %(bound)s MP in valore assoluto)"),
    "sheet.declared_not_integer": N_("Totale dichiarato, linea %(line)s: %(value)s non è un numero intero"),
    "sheet.declared_out_of_bounds": N_("Totale dichiarato, linea %(line)s: %(value)s è fuori dai limiti "
                                       "(al massimo %(bound)s MP in valore assoluto)"),
    "sheet.sum_error": N_("Errore di somma, linea %(line)s: dichiarato %(declared)s, somma delle smazzate %(sum)s"),
    # pairing/check.py, pairing/check_individual.py (pairing.messages.TEMPLATES: the same patterns)
    "check.request_not_object": N_("richiesta non valida: non è un oggetto"),
    "check.unknown_system": N_("richiesta non valida: sistema sconosciuto %(system)s"),
    "check.bad_request": N_("richiesta non valida: %(detail)s"),
    "check.response_not_object": N_("risposta non valida: non è un oggetto"),
    "check.no_tables": N_("risposta non valida: manca la lista 'tables'"),
    "check.bad_table": N_("tavolo non valido: %(value)s"),
    "check.bad_table_number": N_("numero di tavolo non valido: %(value)s"),
    "check.bad_pair_id": N_("tavolo %(table)s: identificativo di coppia non valido %(value)s"),
    "check.not_a_list": N_("risposta non valida: '%(key)s' deve essere una lista"),
    "check.bad_bye": N_("riposo non valido: %(value)s"),
    "check.tables_unordered": N_("i tavoli non sono in ordine di numero"),
    "check.table_repeated": N_("numero di tavolo ripetuto"),
    "check.plays_itself": N_("tavolo %(table)s: la coppia %(pair)s gioca contro sé stessa"),
    "check.alone_not_forced": N_("la coppia %(pair)s è da sola al tavolo ma non ha il riposo forzato"),
    "check.unknown_pair": N_("coppia sconosciuta o assente nella risposta: %(pair)s"),
    "check.pair_repeated": N_("la coppia %(pair)s compare %(count)s volte"),
    "check.pair_missing": N_("la coppia %(pair)s manca (né a un tavolo né a riposo)"),
    "check.numbering": N_("i tavoli devono essere numerati da 1 senza buchi"),
    "check.line_missing": N_("tavolo %(table)s: manca una linea"),
    "check.second_rest": N_("la coppia %(pair)s riposa di nuovo mentre la coppia %(other)s non ha ancora "
                            "riposato (art. 33)"),
    "check.unlisted_rematch_round": N_("incontro ripetuto non segnalato al tavolo %(table)s: %(ns)s–%(ew)s "
                                       "(già incontrate al turno %(round)s)"),
    "check.unlisted_rematch": N_("incontro ripetuto non segnalato al tavolo %(table)s: %(ns)s–%(ew)s (già "
                                 "incontrate)"),
    "check.mitchell_missing_table": N_("Mitchell: manca il tavolo %(table)s (N/S %(want_ns)s, E/O %(want_ew)s)"),
    "check.mitchell_extra_table": N_("Mitchell: il tavolo %(table)s non esiste in questo turno del "
                                     "movimento"),
    "check.mitchell_table": N_("Mitchell: al tavolo %(table)s il movimento prevede N/S %(want_ns)s, E/O %(want_ew)s, non N/S %(got_ns)s, E/O %(got_ew)s"),
    "check.mitchell_bye": N_("Mitchell: riposa %(want)s secondo il movimento, non %(got)s"),
    "check.mitchell_forced": N_("Mitchell: riposi forzati attesi %(want)s, dati %(got)s"),
    "check.mitchell_adjustments": N_("Mitchell: scambi per il secondo riposo (chi riposa → chi gioca al suo posto, tavolo) attesi %(want)s, dati %(got)s"),
    "check.rr_missing_table": N_("girone: manca il tavolo %(table)s (N/S %(want_ns)s, E/O %(want_ew)s)"),
    "check.rr_extra_table": N_("girone: il tavolo %(table)s non esiste in questo turno del calendario"),
    "check.rr_table": N_("girone: al tavolo %(table)s il calendario prevede N/S %(want_ns)s, E/O %(want_ew)s, non N/S %(got_ns)s, E/O %(got_ew)s"),
    "check.rr_bye": N_("girone: riposa %(want)s secondo il calendario, non %(got)s"),
    "check.rr_byes": N_("girone: riposi attesi %(want)s, dati %(got)s"),
    "check.rr_forced": N_("girone: riposi forzati attesi %(want)s, dati %(got)s"),
    "check.rr_groups": N_("girone: il riepilogo per girone ('groups') non corrisponde al calendario"),
    "check.in_group": N_("girone %(group)s: %(detail)s"),
    "check.group_cross_table": N_("tavolo %(table)s: %(ns)s (girone %(group_ns)s) e %(ew)s (girone "
                                  "%(group_ew)s) sono di gironi diversi"),
    "check.group_label": N_("tavolo %(table)s: è del girone %(want)s, non del girone %(got)s"),
    "check.group_table_range": N_("tavolo %(table)s: i tavoli del girone %(group)s vanno dal %(first)s al "
                                  "%(last)s"),
    "check.group_two_rests": N_("girone %(group)s: riposa una coppia sola per girone, non %(pairs)s"),
    "check.danish_forced": N_("danese: i riposi forzati non sono previsti"),
    "check.better_ns": N_("tavolo %(table)s: la coppia meglio classificata (%(pair)s) deve sedere in N/S"),
    "check.table_order": N_("i tavoli non seguono la classifica (il tavolo 1 ha la coppia migliore, ...)"),
    "check.rematches_listed": N_("'rematches' non elenca esattamente gli incontri ripetuti del turno"),
    "check.rematch_no_warning": N_("incontri ripetuti senza avviso all'arbitro"),
    "check.avoidable_rematch": N_("incontro ripetuto evitabile: %(names)s (bastano %(k)s ripetizioni)"),
    "check.even_bye": N_("numero pari di coppie: nessuno deve riposare (riposa %(pair)s)"),
    "check.odd_no_bye": N_("numero dispari di coppie: una coppia deve riposare"),
    "check.top_down": N_("tavolo %(table)s: %(pair)s doveva giocare contro %(other)s (scelta dall'alto non "
                         "ottimale)"),
    "check.all_rested": N_("tutte hanno già riposato: deve riposare l'ultima (%(want)s), non %(got)s"),
    "check.rested_already": N_("la coppia %(pair)s ha già riposato (art. 33)"),
    "check.bye_belongs": N_("il riposo spetta a %(want)s (più in basso in classifica e non ha ancora "
                            "riposato), non a %(got)s (art. 33)"),
    "check.bye_avoids_rematch": N_("il riposo a %(pair)s eviterebbe incontri ripetuti"),
    "check.lot_seed_differs": N_("sorteggio: il seme della risposta non è quello richiesto"),
    "check.lot_no_seed": N_("sorteggio: la risposta non riporta il seme"),
    "check.hand_tables": N_("a mano: i tavoli non sono quelli indicati dall'arbitro"),
    "check.lot_order": N_("sorteggio: i tavoli non corrispondono all'ordine atteso"),
    "check.number_order": N_("per numero: i tavoli non corrispondono all'ordine atteso"),
    "check.ind_shape": N_("risposta non valida: servono 'tables', 'rest' (e 'forced_rest') come liste"),
    "check.ind_no_repeated_partners": N_("risposta non valida: manca 'repeated_partners'"),
    "check.ind_bad_table": N_("risposta non valida: tavolo %(value)s"),
    "check.ind_unknown_player": N_("giocatore sconosciuto o ritirato: %(player)s"),
    "check.ind_player_repeated": N_("il giocatore %(player)s compare più volte"),
    "check.ind_player_missing": N_("il giocatore %(player)s non gioca e non riposa"),
    "check.ind_forced_not_expected": N_("riposi forzati non previsti da questo sistema"),
    "check.ind_rest_count": N_("devono riposare %(want)s giocatori (N mod 4), non %(got)s"),
    "check.ind_second_rest": N_("secondo riposo evitabile: %(player)s ha già riposato, %(fresh)s no"),
    "check.ind_second_rest_fewer": N_("secondo riposo evitabile: %(player)s ha già riposato, %(fresh)s meno "
                                      "volte"),
    "check.ind_repeat_no_warning": N_("compagni ripetuti senza avviso all'arbitro"),
    "check.ind_repeats_listed": N_("'repeated_partners' non elenca esattamente i compagni ripetuti del "
                                   "turno"),
    "check.ind_unlisted_partner": N_("compagni ripetuti non segnalati al tavolo %(table)s: %(a)s e %(b)s "
                                     "(già in coppia)"),
    "check.ind_rest_belongs": N_("riposo: spetta a %(players)s (i più bassi in classifica che non hanno "
                                 "riposato)"),
    "check.ind_line_order": N_("la linea %(line)s: il meglio classificato va scritto per primo"),
    "check.ind_avoidable_repeats": N_("compagni ripetuti evitabili: %(used)s (bastano %(k)s)"),
    "check.ind_leader": N_("coppia %(number)s: deve essere formata da %(player)s (il meglio classificato "
                           "senza compagno)"),
    "check.ind_top_down": N_("coppia %(number)s: %(player)s doveva avere come compagno %(other)s (scelta "
                             "dall'alto non ottimale)"),
    "check.ind_lot_order": N_("sorteggio: i tavoli non corrispondono all'ordine atteso (1+2 contro 3+4, "
                              "...; riposano gli ultimi)"),
    "check.ind_number_order": N_("per numero: i tavoli non corrispondono all'ordine atteso (1+2 contro 3+4, "
                                 "...; riposano gli ultimi)"),
    "check.ind_opponents_again": N_("tavolo %(table)s: %(a)s e %(b)s si sono già incontrati da avversari"),
    # pairing/*.py: the engines' refusals (PairingError; pairing.messages.TEMPLATES: the same patterns)
    "pairing.request_not_object": N_("la richiesta deve essere un oggetto JSON"),
    "pairing.missing_field": N_("manca il campo '%(key)s'"),
    "pairing.not_pair_list": N_("'%(key)s' deve essere una lista di coppie"),
    "pairing.bad_pair_id": N_("'%(key)s': identificativo di coppia non valido: %(value)s"),
    "pairing.pair_listed_twice": N_("'%(key)s': la coppia %(pair)s è elencata due volte"),
    "pairing.too_few_pairs": N_("'%(key)s': servono almeno %(count)s coppie"),
    "pairing.not_positive_int": N_("'%(key)s' deve essere un intero maggiore o uguale a 1: %(value)s"),
    "pairing.not_meeting_list": N_("'%(key)s' deve essere una lista di incontri"),
    "pairing.bad_meeting": N_("'%(key)s': incontro non valido: %(value)s"),
    "pairing.bad_meeting_round": N_("'%(key)s': numero di turno non valido in %(value)s"),
    "pairing.not_one_of": N_("'%(key)s' deve essere uno tra %(allowed)s: %(value)s"),
    "pairing.bad_seed": N_("'seed' deve essere un intero: %(value)s"),
    "pairing.unknown_pairs": N_("'%(key)s': coppie sconosciute: %(pairs)s"),
    "pairing.bad_kind": N_("'kind' deve essere 'pairs' o 'individual': %(value)s"),
    "pairing.unknown_system": N_("sistema sconosciuto: %(system)s (ammessi: %(allowed)s)"),
    "pairing.check_unknown_system": N_("sistema sconosciuto %(system)s"),
    "pairing.tables_not_list": N_("'tables' deve essere una lista di tavoli"),
    "pairing.bad_table": N_("tavolo non valido: %(value)s"),
    "pairing.bad_table_number": N_("numero di tavolo non valido: %(value)s"),
    "pairing.table_numbering": N_("i tavoli devono essere numerati da 1 senza buchi né doppioni"),
    "pairing.hand_bad_pair_id": N_("identificativo di coppia non valido: %(value)s"),
    "pairing.hand_unknown_pair": N_("coppia sconosciuta: %(value)s"),
    "pairing.hand_pair_twice": N_("la coppia %(value)s compare due volte"),
    "pairing.hand_pairs_unseated": N_("coppie senza tavolo né riposo: %(pairs)s"),
    "pairing.hand_pairs_unseated_one_rest": N_("coppie senza tavolo né riposo: %(pairs)s (al massimo una coppia può "
                                               "riposare)"),
    "pairing.hand_bad_player_id": N_("identificativo di giocatore non valido: %(value)s"),
    "pairing.hand_unknown_player": N_("giocatore sconosciuto: %(value)s"),
    "pairing.hand_player_twice": N_("il giocatore %(value)s compare due volte"),
    "pairing.hand_line_two_players": N_("tavolo %(table)s: ogni linea ha due giocatori: %(value)s"),
    "pairing.hand_players_unseated": N_("giocatori senza tavolo né riposo: %(players)s"),
    "pairing.hand_too_many_rest": N_("riposano al massimo 3 giocatori (N mod 4), non %(count)s"),
    "pairing.plan_rounds_before_round": N_("'plan_rounds' non può essere minore di 'round'"),
    "pairing.bad_offset": N_("'offset' deve essere un intero maggiore o uguale a 0: %(value)s"),
    "pairing.ranking_missing": N_("'ranking': mancano le coppie %(pairs)s"),
    "pairing.no_groups": N_("servono almeno 1 girone"),
    "pairing.rr_pairs_or_groups": N_("il girone all'italiana vuole 'pairs' oppure 'groups' (non entrambi)"),
    "pairing.rr_groups_not_list": N_("'groups' deve essere una lista non vuota di gironi"),
    "pairing.rr_bad_group": N_("'groups': il girone %(group)s non è una lista di coppie"),
    "pairing.rr_pair_in_two_groups": N_("'groups': la coppia %(pair)s è in due gironi"),
    "pairing.groups_or_pairs": N_("il Mitchell a gironi vuole 'groups' al posto di 'pairs' (non entrambi)"),
    "pairing.pair_in_no_group": N_("'ranking': la coppia %(pair)s non è in nessun girone"),
    "pairing.not_player_list": N_("'%(key)s' deve essere una lista di giocatori"),
    "pairing.bad_player_id": N_("'%(key)s': identificativo di giocatore non valido: %(value)s"),
    "pairing.player_listed_twice": N_("'%(key)s': il giocatore %(player)s è elencato due volte"),
    "pairing.too_few_players": N_("'%(key)s': servono almeno %(count)s giocatori"),
    "pairing.round_beyond_schedule": N_("il turno %(round)s supera i turni previsti (%(rounds)s)"),
    # pairing/*.py: the engines' warnings (Round.warnings; pairing.messages.TEMPLATES: the same patterns)
    # pairing/mitchell.py (plan_warnings and the round), pairing/round_robin.py
    "warning.mitchell_plan": N_("Turno %(round)s del Mitchell (passo %(step)s): si ripeterebbero gli incontri "
                                "del turno %(first)s: %(meetings)s. Con %(pairs)s coppie e passo %(step)s al "
                                "massimo %(period)s turni senza ripetizioni."),
    "warning.mitchell_plan_rest": N_("Turno %(round)s del Mitchell (passo %(step)s): si ripeterebbero gli "
                                     "incontri del turno %(first)s: %(meetings)s; la coppia %(pair)s "
                                     "riposerebbe di nuovo. Con %(pairs)s coppie e passo %(step)s al massimo "
                                     "%(period)s turni senza ripetizioni."),
    "warning.rest_again_all_rested": N_("La coppia %(pair)s riposa di nuovo: tutte le coppie in gioco hanno già "
                                        "riposato (art. 33)."),
    "warning.forced_rest": N_("Riposo forzato per la coppia %(pair)s: l'avversaria si è ritirata."),
    "warning.rematch_round": N_("Incontro ripetuto al tavolo %(table)s: le coppie %(ns)s e %(ew)s si sono già "
                                "incontrate (turno %(round)s)."),
    "warning.rematch": N_("Incontro ripetuto al tavolo %(table)s: le coppie %(ns)s e %(ew)s si sono già "
                          "incontrate."),
    "warning.rr_rest_again": N_("La coppia %(pair)s riposa di nuovo: il calendario del girone all'italiana non "
                                "cambia (art. 33)."),
    # pairing/danish.py
    "warning.all_rested": N_("Tutte le coppie hanno già riposato: riposa l'ultima in classifica (%(pair)s)."),
    "warning.min_rematches_one": N_("Nessun accoppiamento senza incontri ripetuti è possibile: %(count)s "
                                    "incontro ripetuto (il minimo)."),
    "warning.min_rematches": N_("Nessun accoppiamento senza incontri ripetuti è possibile: %(count)s incontri "
                                "ripetuti (il minimo)."),
    # pairing/danish_individual.py, pairing/individual_movement.py
    "warning.ind_rest_again": N_("Troppo pochi giocatori non hanno ancora riposato in questa sessione: riposa "
                                 "di nuovo %(players)s."),
    "warning.ind_min_repeats_one": N_("Nessuna formazione delle coppie senza compagni ripetuti è possibile: "
                                      "%(count)s compagno ripetuto (il minimo)."),
    "warning.ind_min_repeats": N_("Nessuna formazione delle coppie senza compagni ripetuti è possibile: "
                                  "%(count)s compagni ripetuti (il minimo)."),
    "warning.ind_withdrawn": N_("Giocatori ritirati: riposo forzato per i loro compagni e avversari "
                                "(%(players)s)."),
    "warning.ind_movement_repeats_one": N_("Il movimento ripete %(count)s coppia di compagni in questo turno "
                                           "(%(lines)s)."),
    "warning.ind_movement_repeats": N_("Il movimento ripete %(count)s coppie di compagni in questo turno "
                                       "(%(lines)s)."),
    # tournaments/services: the draft's own warnings (rounds.adjustment_messages,
    # individual.repeated_partner_messages), built with coded(); a "line" is "ns" or "ew"
    "round.exchange": N_("La coppia %(rests)s riposa al posto della coppia %(plays)s, che ha già riposato "
                         "(art. 33); la %(plays)s gioca al tavolo %(table)s in %(line)s."),
    "round.exchange_forced": N_("La coppia %(rests)s ha il riposo forzato al posto della coppia %(plays)s, che "
                                "ha già riposato (art. 33); la %(plays)s gioca al tavolo %(table)s in "
                                "%(line)s."),
    "round.ind_exchange": N_("Il giocatore %(rests)s riposa al posto del giocatore %(plays)s, che ha già "
                             "riposato (regole §5); il %(plays)s gioca al tavolo %(table)s."),
    "round.ind_partners_again": N_("I giocatori %(a)s e %(b)s giocano di nuovo insieme: inevitabile (regole "
                                   "§9)."),
}


class Coded(str):
    """A Django-side message: its Italian text (a ``str``) with ``code`` and ``params``, like
    ``pairing.messages.Message`` (so :func:`stored` keeps it and :func:`message_text` shows it)."""

    code: str
    params: dict


def coded(code: str, **params) -> Coded:
    """The message ``code`` (a key of :data:`TEMPLATES`) with ``params`` (JSON-ready values; a
    ``line`` is ``"ns"``/``"ew"``, named in the reader's words when shown). Its text is the
    Italian one, whatever the active language, so a stored copy reads the same for everyone
    until :func:`stored_text` translates it. Raises ``KeyError`` for an unknown code."""
    shown = dict(params)
    if shown.get("line") in _LINES:
        shown["line"] = _LINES[shown["line"]]
    obj = Coded(TEMPLATES[code] % shown)
    obj.code, obj.params = code, params
    return obj


def translate(code: str, params: dict | None, fallback: str = "") -> str:
    """The message ``code`` with ``params`` in the active language; ``fallback`` (the
    Italian text) for an unknown code or parameters that do not fit. A ``detail_code``
    parameter (with ``detail_params``: the checker's "richiesta non valida: …" around an
    engine's refusal) translates the ``detail`` as well."""
    template = TEMPLATES.get(code or "")
    if template is None:
        return fallback
    shown = dict(params or {})
    if shown.get("detail_code"):  # check.bad_request: the engine's refusal, itself translated
        shown["detail"] = translate(shown["detail_code"], shown.get("detail_params"), str(shown.get("detail", "")))
    if shown.get("line") in _LINES:
        shown["line"] = gettext(_LINES[shown["line"]])
    try:
        return gettext(template) % shown
    except (KeyError, TypeError, ValueError):
        return fallback


def message_text(message) -> str:
    """A pure module's message (a ``Message``, a ``pairing.PairingError`` or a plain ``str``)
    in the active language."""
    return translate(getattr(message, "code", ""), getattr(message, "params", None), str(message))


def stored(message) -> str | dict:
    """How a message is kept in JSON (``Round.check_report``, ``Round.warnings``):
    ``{"code", "params", "text"}`` when it has a code, else its text."""
    code = getattr(message, "code", "")
    if code:
        return {"code": code, "params": message.params, "text": str(message)}
    return str(message)


def stored_text(item) -> str:
    """A stored item of :func:`stored` (or an old plain string) in the active language."""
    if isinstance(item, dict):
        return translate(item.get("code", ""), item.get("params"), item.get("text", ""))
    return str(item)
