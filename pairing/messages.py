"""Translatable messages of the pairing package: a :class:`Message` *is*
its Italian text (a ``str``), and carries ``code`` and ``params`` so the Django side can show
it in the reader's language (``tournaments/i18n_messages.py``). A copy of
``scoring.messages`` so that ``pairing`` stays self-contained (pure Python, no Django).

:data:`TEMPLATES` holds the Italian pattern of every message the checker
(:mod:`pairing.check` and its modules) writes (codes ``check.…``) and of
every refusal of the engines (codes ``pairing.…``, raised as
:class:`pairing.errors.PairingError` through :func:`pairing.errors.refusal`) and of every
warning the engines give the arbiter (codes ``warning.…``, the response's ``"warnings"``: each
a :class:`Message`, so ``str(w)`` and the JSON the CLI prints are the Italian text);
:func:`msg` builds one by its code. ``tournaments/i18n_messages.py`` repeats each pattern as a gettext
msgid (a test keeps the two equal).
"""
from __future__ import annotations


class Message(str):
    code: str
    params: dict

    def __new__(cls, code: str, template: str, **params):
        obj = super().__new__(cls, template % params)
        obj.code = code
        obj.params = params
        return obj

    def __reduce__(self):
        return (_rebuild, (self.code, str(self), self.params))


def _rebuild(code, text, params):
    obj = str.__new__(Message, text)
    obj.code, obj.params = code, params
    return obj


TEMPLATES: dict[str, str] = {
    # pairing/check (__init__.py, common.py): requests and the response's shape (every system)
    "check.request_not_object": "richiesta non valida: non è un oggetto",
    "check.unknown_system": "richiesta non valida: sistema sconosciuto %(system)s",
    "check.bad_request": "richiesta non valida: %(detail)s",
    "check.response_not_object": "risposta non valida: non è un oggetto",
    "check.no_tables": "risposta non valida: manca la lista 'tables'",
    "check.bad_table": "tavolo non valido: %(value)s",
    "check.bad_table_number": "numero di tavolo non valido: %(value)s",
    "check.bad_pair_id": "tavolo %(table)s: identificativo di coppia non valido %(value)s",
    "check.not_a_list": "risposta non valida: '%(key)s' deve essere una lista",
    "check.bad_bye": "riposo non valido: %(value)s",
    "check.tables_unordered": "i tavoli non sono in ordine di numero",
    "check.table_repeated": "numero di tavolo ripetuto",
    "check.plays_itself": "tavolo %(table)s: la coppia %(pair)s gioca contro sé stessa",
    "check.alone_not_forced": "la coppia %(pair)s è da sola al tavolo ma non ha il riposo forzato",
    "check.unknown_pair": "coppia sconosciuta o assente nella risposta: %(pair)s",
    "check.pair_repeated": "la coppia %(pair)s compare %(count)s volte",
    "check.pair_missing": "la coppia %(pair)s manca (né a un tavolo né a riposo)",
    "check.numbering": "i tavoli devono essere numerati da 1 senza buchi",
    "check.line_missing": "tavolo %(table)s: manca una linea",
    "check.second_rest": "la coppia %(pair)s riposa di nuovo mentre la coppia %(other)s non ha ancora "
                         "riposato (art. 33)",
    "check.unlisted_rematch_round": "incontro ripetuto non segnalato al tavolo %(table)s: %(ns)s–%(ew)s "
                                    "(già incontrate al turno %(round)s)",
    "check.unlisted_rematch": "incontro ripetuto non segnalato al tavolo %(table)s: %(ns)s–%(ew)s "
                              "(già incontrate)",
    # Mitchell
    "check.mitchell_missing_table": "Mitchell: manca il tavolo %(table)s (N/S %(want_ns)s, E/O %(want_ew)s)",
    "check.mitchell_extra_table": "Mitchell: il tavolo %(table)s non esiste in questo turno del movimento",
    "check.mitchell_table": "Mitchell: al tavolo %(table)s il movimento prevede N/S %(want_ns)s, E/O %(want_ew)s, non N/S %(got_ns)s, E/O %(got_ew)s",
    "check.mitchell_bye": "Mitchell: riposa %(want)s secondo il movimento, non %(got)s",
    "check.mitchell_forced": "Mitchell: riposi forzati attesi %(want)s, dati %(got)s",
    "check.mitchell_adjustments": "Mitchell: scambi per il secondo riposo (chi riposa → chi gioca al suo posto, tavolo) attesi %(want)s, dati %(got)s",
    # round robin
    "check.rr_missing_table": "girone: manca il tavolo %(table)s (N/S %(want_ns)s, E/O %(want_ew)s)",
    "check.rr_extra_table": "girone: il tavolo %(table)s non esiste in questo turno del calendario",
    "check.rr_table": "girone: al tavolo %(table)s il calendario prevede N/S %(want_ns)s, E/O %(want_ew)s, non N/S %(got_ns)s, E/O %(got_ew)s",
    "check.rr_bye": "girone: riposa %(want)s secondo il calendario, non %(got)s",
    "check.rr_byes": "girone: riposi attesi %(want)s, dati %(got)s",
    "check.rr_forced": "girone: riposi forzati attesi %(want)s, dati %(got)s",
    "check.rr_groups": "girone: il riepilogo per girone ('groups') non corrisponde al calendario",
    # Danish and Mitchell in groups (pairing/check/groups.py, rules.md §19)
    "check.in_group": "girone %(group)s: %(detail)s",
    "check.group_cross_table": "tavolo %(table)s: %(ns)s (girone %(group_ns)s) e %(ew)s (girone "
                               "%(group_ew)s) sono di gironi diversi",
    "check.group_label": "tavolo %(table)s: è del girone %(want)s, non del girone %(got)s",
    "check.group_table_range": "tavolo %(table)s: i tavoli del girone %(group)s vanno dal %(first)s al "
                               "%(last)s",
    "check.group_two_rests": "girone %(group)s: riposa una coppia sola per girone, non %(pairs)s",
    # Danish
    "check.danish_forced": "danese: i riposi forzati non sono previsti",
    "check.better_ns": "tavolo %(table)s: la coppia meglio classificata (%(pair)s) deve sedere in N/S",
    "check.table_order": "i tavoli non seguono la classifica (il tavolo 1 ha la coppia migliore, ...)",
    "check.rematches_listed": "'rematches' non elenca esattamente gli incontri ripetuti del turno",
    "check.rematch_no_warning": "incontri ripetuti senza avviso all'arbitro",
    "check.avoidable_rematch": "incontro ripetuto evitabile: %(names)s (bastano %(k)s ripetizioni)",
    "check.even_bye": "numero pari di coppie: nessuno deve riposare (riposa %(pair)s)",
    "check.odd_no_bye": "numero dispari di coppie: una coppia deve riposare",
    "check.top_down": "tavolo %(table)s: %(pair)s doveva giocare contro %(other)s (scelta dall'alto non "
                      "ottimale)",
    "check.all_rested": "tutte hanno già riposato: deve riposare l'ultima (%(want)s), non %(got)s",
    "check.rested_already": "la coppia %(pair)s ha già riposato (art. 33)",
    "check.bye_belongs": "il riposo spetta a %(want)s (più in basso in classifica e non ha ancora "
                         "riposato), non a %(got)s (art. 33)",
    "check.bye_avoids_rematch": "il riposo a %(pair)s eviterebbe incontri ripetuti",
    # first round
    "check.lot_seed_differs": "sorteggio: il seme della risposta non è quello richiesto",
    "check.lot_no_seed": "sorteggio: la risposta non riporta il seme",
    "check.hand_tables": "a mano: i tavoli non sono quelli indicati dall'arbitro",
    "check.lot_order": "sorteggio: i tavoli non corrispondono all'ordine atteso",
    "check.number_order": "per numero: i tavoli non corrispondono all'ordine atteso",
    # pairing/check/individual.py (rules.md §9)
    "check.ind_shape": "risposta non valida: servono 'tables', 'rest' (e 'forced_rest') come liste",
    "check.ind_no_repeated_partners": "risposta non valida: manca 'repeated_partners'",
    "check.ind_bad_table": "risposta non valida: tavolo %(value)s",
    "check.ind_unknown_player": "giocatore sconosciuto o ritirato: %(player)s",
    "check.ind_player_repeated": "il giocatore %(player)s compare più volte",
    "check.ind_player_missing": "il giocatore %(player)s non gioca e non riposa",
    "check.ind_forced_not_expected": "riposi forzati non previsti da questo sistema",
    "check.ind_rest_count": "devono riposare %(want)s giocatori (N mod 4), non %(got)s",
    "check.ind_second_rest": "secondo riposo evitabile: %(player)s ha già riposato, %(fresh)s no",
    "check.ind_second_rest_fewer": "secondo riposo evitabile: %(player)s ha già riposato, %(fresh)s meno volte",
    "check.ind_repeat_no_warning": "compagni ripetuti senza avviso all'arbitro",
    "check.ind_repeats_listed": "'repeated_partners' non elenca esattamente i compagni ripetuti del turno",
    "check.ind_unlisted_partner": "compagni ripetuti non segnalati al tavolo %(table)s: %(a)s e %(b)s "
                                  "(già in coppia)",
    "check.ind_rest_belongs": "riposo: spetta a %(players)s (i più bassi in classifica che non hanno "
                              "riposato)",
    "check.ind_line_order": "la linea %(line)s: il meglio classificato va scritto per primo",
    "check.ind_avoidable_repeats": "compagni ripetuti evitabili: %(used)s (bastano %(k)s)",
    "check.ind_leader": "coppia %(number)s: deve essere formata da %(player)s (il meglio classificato "
                        "senza compagno)",
    "check.ind_top_down": "coppia %(number)s: %(player)s doveva avere come compagno %(other)s (scelta "
                          "dall'alto non ottimale)",
    "check.ind_lot_order": "sorteggio: i tavoli non corrispondono all'ordine atteso (1+2 contro 3+4, ...; "
                           "riposano gli ultimi)",
    "check.ind_number_order": "per numero: i tavoli non corrispondono all'ordine atteso (1+2 contro 3+4, "
                              "...; riposano gli ultimi)",
    "check.ind_opponents_again": "tavolo %(table)s: %(a)s e %(b)s si sono già incontrati da avversari",
    # The engines' refusals (:class:`pairing.errors.PairingError`, :func:`pairing.errors.refusal`)
    # pairing/request.py: the request's fields (every system)
    "pairing.request_not_object": "la richiesta deve essere un oggetto JSON",
    "pairing.missing_field": "manca il campo '%(key)s'",
    "pairing.not_pair_list": "'%(key)s' deve essere una lista di coppie",
    "pairing.bad_pair_id": "'%(key)s': identificativo di coppia non valido: %(value)s",
    "pairing.pair_listed_twice": "'%(key)s': la coppia %(pair)s è elencata due volte",
    "pairing.too_few_pairs": "'%(key)s': servono almeno %(count)s coppie",
    "pairing.not_positive_int": "'%(key)s' deve essere un intero maggiore o uguale a 1: %(value)s",
    "pairing.not_meeting_list": "'%(key)s' deve essere una lista di incontri",
    "pairing.bad_meeting": "'%(key)s': incontro non valido: %(value)s",
    "pairing.bad_meeting_round": "'%(key)s': numero di turno non valido in %(value)s",
    "pairing.not_one_of": "'%(key)s' deve essere uno tra %(allowed)s: %(value)s",
    "pairing.bad_seed": "'seed' deve essere un intero: %(value)s",
    "pairing.unknown_pairs": "'%(key)s': coppie sconosciute: %(pairs)s",
    # pairing/__init__.py, pairing/check/individual.py: the system
    "pairing.bad_kind": "'kind' deve essere 'pairs' o 'individual': %(value)s",
    "pairing.unknown_system": "sistema sconosciuto: %(system)s (ammessi: %(allowed)s)",
    "pairing.check_unknown_system": "sistema sconosciuto %(system)s",
    # tables written by hand (pairing/request.py hand_tables, first rounds by hand)
    "pairing.tables_not_list": "'tables' deve essere una lista di tavoli",
    "pairing.bad_table": "tavolo non valido: %(value)s",
    "pairing.bad_table_number": "numero di tavolo non valido: %(value)s",
    "pairing.table_numbering": "i tavoli devono essere numerati da 1 senza buchi né doppioni",
    "pairing.hand_bad_pair_id": "identificativo di coppia non valido: %(value)s",
    "pairing.hand_unknown_pair": "coppia sconosciuta: %(value)s",
    "pairing.hand_pair_twice": "la coppia %(value)s compare due volte",
    "pairing.hand_pairs_unseated": "coppie senza tavolo né riposo: %(pairs)s",
    "pairing.hand_pairs_unseated_one_rest": "coppie senza tavolo né riposo: %(pairs)s (al massimo una coppia "
                                            "può riposare)",
    "pairing.hand_bad_player_id": "identificativo di giocatore non valido: %(value)s",
    "pairing.hand_unknown_player": "giocatore sconosciuto: %(value)s",
    "pairing.hand_player_twice": "il giocatore %(value)s compare due volte",
    "pairing.hand_line_two_players": "tavolo %(table)s: ogni linea ha due giocatori: %(value)s",
    "pairing.hand_players_unseated": "giocatori senza tavolo né riposo: %(players)s",
    "pairing.hand_too_many_rest": "riposano al massimo 3 giocatori (N mod 4), non %(count)s",
    # pairing/mitchell.py
    "pairing.plan_rounds_before_round": "'plan_rounds' non può essere minore di 'round'",
    "pairing.bad_offset": "'offset' deve essere un intero maggiore o uguale a 0: %(value)s",
    "pairing.ranking_missing": "'ranking': mancano le coppie %(pairs)s",
    # pairing/round_robin.py
    "pairing.no_groups": "servono almeno 1 girone",
    "pairing.rr_pairs_or_groups": "il girone all'italiana vuole 'pairs' oppure 'groups' (non entrambi)",
    "pairing.rr_groups_not_list": "'groups' deve essere una lista non vuota di gironi",
    "pairing.rr_bad_group": "'groups': il girone %(group)s non è una lista di coppie",
    "pairing.rr_pair_in_two_groups": "'groups': la coppia %(pair)s è in due gironi",
    # pairing/groups.py (Danish and Mitchell in groups, rules.md §19)
    "pairing.groups_or_pairs": "il Mitchell a gironi vuole 'groups' al posto di 'pairs' (non entrambi)",
    "pairing.pair_in_no_group": "'ranking': la coppia %(pair)s non è in nessun girone",
    # pairing/danish_individual.py, pairing/individual_movement.py (players instead of pairs)
    "pairing.not_player_list": "'%(key)s' deve essere una lista di giocatori",
    "pairing.bad_player_id": "'%(key)s': identificativo di giocatore non valido: %(value)s",
    "pairing.player_listed_twice": "'%(key)s': il giocatore %(player)s è elencato due volte",
    "pairing.too_few_players": "'%(key)s': servono almeno %(count)s giocatori",
    "pairing.round_beyond_schedule": "il turno %(round)s supera i turni previsti (%(rounds)s)",
    # The engines' warnings to the arbiter (the response's "warnings": codes ``warning.…``)
    # pairing/mitchell.py (plan_warnings and the round), pairing/round_robin.py
    "warning.mitchell_plan": "Turno %(round)s del Mitchell (passo %(step)s): si ripeterebbero gli incontri "
                             "del turno %(first)s: %(meetings)s. Con %(pairs)s coppie e passo %(step)s al "
                             "massimo %(period)s turni senza ripetizioni.",
    "warning.mitchell_plan_rest": "Turno %(round)s del Mitchell (passo %(step)s): si ripeterebbero gli "
                                  "incontri del turno %(first)s: %(meetings)s; la coppia %(pair)s "
                                  "riposerebbe di nuovo. Con %(pairs)s coppie e passo %(step)s al massimo "
                                  "%(period)s turni senza ripetizioni.",
    "warning.rest_again_all_rested": "La coppia %(pair)s riposa di nuovo: tutte le coppie in gioco hanno già "
                                     "riposato (art. 33).",
    "warning.forced_rest": "Riposo forzato per la coppia %(pair)s: l'avversaria si è ritirata.",
    "warning.rematch_round": "Incontro ripetuto al tavolo %(table)s: le coppie %(ns)s e %(ew)s si sono già "
                             "incontrate (turno %(round)s).",
    "warning.rematch": "Incontro ripetuto al tavolo %(table)s: le coppie %(ns)s e %(ew)s si sono già "
                       "incontrate.",
    "warning.rr_rest_again": "La coppia %(pair)s riposa di nuovo: il calendario del girone all'italiana non "
                             "cambia (art. 33).",
    # pairing/danish.py
    "warning.all_rested": "Tutte le coppie hanno già riposato: riposa l'ultima in classifica (%(pair)s).",
    "warning.min_rematches_one": "Nessun accoppiamento senza incontri ripetuti è possibile: %(count)s "
                                 "incontro ripetuto (il minimo).",
    "warning.min_rematches": "Nessun accoppiamento senza incontri ripetuti è possibile: %(count)s incontri "
                             "ripetuti (il minimo).",
    # pairing/danish_individual.py, pairing/individual_movement.py
    "warning.ind_rest_again": "Troppo pochi giocatori non hanno ancora riposato in questa sessione: riposa "
                              "di nuovo %(players)s.",
    "warning.ind_min_repeats_one": "Nessuna formazione delle coppie senza compagni ripetuti è possibile: "
                                   "%(count)s compagno ripetuto (il minimo).",
    "warning.ind_min_repeats": "Nessuna formazione delle coppie senza compagni ripetuti è possibile: "
                               "%(count)s compagni ripetuti (il minimo).",
    "warning.ind_withdrawn": "Giocatori ritirati: riposo forzato per i loro compagni e avversari "
                             "(%(players)s).",
    "warning.ind_movement_repeats_one": "Il movimento ripete %(count)s coppia di compagni in questo turno "
                                        "(%(lines)s).",
    "warning.ind_movement_repeats": "Il movimento ripete %(count)s coppie di compagni in questo turno "
                                    "(%(lines)s).",
}


def msg(code: str, **params) -> Message:
    """The message ``code`` (a key of :data:`TEMPLATES`: a checker's ``check.…``, an engine's
    ``warning.…``) with ``params`` (ints or strings, JSON-ready). Raises ``KeyError`` for an
    unknown code."""
    return Message(code, TEMPLATES[code], **params)
