"""The pairing engines' warnings in the reader's language.

Each warning of a response (``"warnings"``) is a ``pairing.messages.Message``: its text is the
Italian sentence (the CLI and the pairing tests read it unchanged), its ``code`` and ``params``
let the draft page show it in English. ``Round.warnings`` keeps ``{"code", "params", "text"}``;
rounds drawn before keep plain Italian strings, shown as they are.

Every expected round below is worked by hand from pairing-io.md (Mitchell: N pairs, T =
ceil(N/2); N odd: N/S line 1..T-1, the phantom N/S at table T, E/W line T..N; the E/W pair at
index i sits at table ((i + offset) mod T) + 1) and rules.md §5 (rests, art. 32-33), §6, §7.
"""
import json

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

import pairing
from pairing.messages import TEMPLATES as PAIRING_TEMPLATES
from tests.tournaments.helpers import play
from tournaments import services
from tournaments.i18n_messages import TEMPLATES, stored, stored_text
from tournaments.models import Round


def page(client, number, lang):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client.get(reverse("round", args=["prova", number])).content.decode()


def shows(client, number, english, italian):
    """Round ``number``'s page says ``english`` in English and ``italian`` in Italian."""
    assert english in page(client, number, "en")
    assert italian in page(client, number, "it")


def with_plan(tournament, arbiter, plan):
    services.update_tournament(tournament=tournament, by=arbiter, plan=plan)
    tournament.refresh_from_db()
    return tournament


# -- the pure side -------------------------------------------------------------------------------
def test_every_warning_pattern_is_a_gettext_msgid():
    codes = [c for c in PAIRING_TEMPLATES if c.startswith("warning.")]
    assert len(codes) == 16
    for code in codes:
        assert TEMPLATES[code] == PAIRING_TEMPLATES[code], code


def test_a_forced_rest_warning_is_the_italian_sentence_with_a_code():
    """Mitchell, 4 pairs, round 1: T = 2, tables (1,3) (2,4); pair 3 withdrawn, so pair 1
    sits alone at table 1: forced rest (rules.md §5, art. 32)."""
    response = pairing.run({"system": "mitchell", "pairs": [1, 2, 3, 4], "round": 1, "absent": [3]})
    [warning] = response["warnings"]
    assert warning == "Riposo forzato per la coppia 1: l'avversaria si è ritirata."
    assert (warning.code, warning.params) == ("warning.forced_rest", {"pair": 1})
    # the CLI prints the JSON of the response: the plain Italian string, as before
    assert json.dumps(response["warnings"], ensure_ascii=False) == \
        '["Riposo forzato per la coppia 1: l\'avversaria si è ritirata."]'
    with translation.override("en"):
        assert stored_text(stored(warning)) == "Forced rest for pair 1: its opponent has withdrawn."


def test_a_danish_individual_rest_again_warning_reads_english():
    """5 players (N mod 4 = 1 rests), all of them rested once: the lowest ranked, 5, rests
    again (rules.md §9 and §5)."""
    response = pairing.run({"system": "danish-individual", "ranking": [1, 2, 3, 4, 5],
                            "rested": [1, 2, 3, 4, 5]})
    assert response["rest"] == [5]
    item = stored(response["warnings"][0])
    assert item == {"code": "warning.ind_rest_again", "params": {"players": "5"},
                    "text": "Troppo pochi giocatori non hanno ancora riposato in questa sessione: "
                            "riposa di nuovo 5."}
    with translation.override("en"):
        assert stored_text(item) == "Too few players have not rested yet in this session: resting again: 5."


def test_a_round_robin_rematch_names_the_round_in_english():
    """Round robin, 4 pairs, round 1 (pairing-io.md): k = 0, seq = [1, 2, 3, 4]; match 0 is
    1 v 4 (N/S 1, cycle 0) at table 1, match 1 is 2 v 3. 1 and 4 met in round 2: a listed
    repeat naming that round."""
    response = pairing.run({"system": "round-robin", "pairs": [1, 2, 3, 4], "round": 1,
                            "met": [[1, 4, 2]]})
    [warning] = response["warnings"]
    assert warning == "Incontro ripetuto al tavolo 1: le coppie 1 e 4 si sono già incontrate (turno 2)."
    with translation.override("en"):
        assert stored_text(stored(warning)) == \
            "Repeated meeting at table 1: pairs 1 and 4 have already met (round 2)."


# -- the draft page ------------------------------------------------------------------------------
@pytest.fixture
def seven_with_a_withdrawal(tournament, make_pairs, arbiter):
    """7 pairs, T = 4. Round 1 (offset 0): (1,4) (2,5) (3,6), 7 meets the phantom and rests;
    2 beats 5 by 500 MP, so 5 is last. Pair 1 withdraws from round 2. Round 2 (offset 1):
    E/W 4→2, 5→3, 6→4 (phantom: 6 rests), 7→1 facing the absent 1: a forced rest for 7, who
    already rested; the lowest-ranked pair not rested, 5 (table 3 E/W), takes it and 7 plays
    at table 3 in E/W (art. 33)."""
    make_pairs(tournament, 7)
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter, {2: (500, 0)})
    services.withdraw_pair(pair=tournament.pairs.get(number=1), from_round=2, by=arbiter)
    return services.generate_round(tournament=tournament, by=arbiter)


def test_forced_rest_and_its_exchange_on_the_draft_page(arbiter_client, seven_with_a_withdrawal):
    rnd = seven_with_a_withdrawal
    assert {item["code"] for item in rnd.warnings} == {"round.exchange_forced", "warning.forced_rest"}
    english = page(arbiter_client, 2, "en")
    assert "Forced rest for pair 5: its opponent has withdrawn." in english
    assert ("Pair 5 takes the forced rest instead of pair 7, which has already rested (art. 33); "
            "pair 7 plays at table 3 in E/W.") in english
    assert "Riposo forzato per la coppia" not in english
    italian = page(arbiter_client, 2, "it")
    assert "Riposo forzato per la coppia 5: l&#x27;avversaria si è ritirata." in italian
    assert ("La coppia 5 ha il riposo forzato al posto della coppia 7, che ha già riposato "
            "(art. 33); la 7 gioca al tavolo 3 in E/O.") in italian


def test_a_generation_in_english_is_read_in_italian(tournament, make_pairs, arbiter, arbiter_client):
    """The stored warning does not depend on the language of whoever drew the round."""
    make_pairs(tournament, 7)
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter, {2: (500, 0)})
    services.withdraw_pair(pair=tournament.pairs.get(number=1), from_round=2, by=arbiter)
    with translation.override("en"):
        rnd = services.generate_round(tournament=tournament, by=arbiter)
    assert all(item["text"].startswith(("La coppia", "Riposo")) for item in rnd.warnings)
    assert "Riposo forzato per la coppia 5" in page(arbiter_client, 2, "it")


def test_a_mitchell_second_rest_exchange_on_the_draft_page(five, arbiter, arbiter_client):
    """5 pairs, plan DMMM. Round 1 (Danish by number): 1–2, 3–4, 5 rests; 300 and 200 MP
    → the ranking 5, 1, 3, 4, 2. Round 2 = movement round 1: (1,3) (2,4), 5 meets the phantom
    but rested; the lowest-ranked pair not rested, 2 (table 2, N/S), rests and 5 plays at
    table 2 in N/S (rules.md §5, art. 33)."""
    with_plan(five, arbiter, "DMMM")
    play(services.generate_round(tournament=five, by=arbiter), arbiter, {1: (300, 0), 2: (200, 0)})
    services.generate_round(tournament=five, by=arbiter)
    assert ("Pair 2 rests instead of pair 5, which has already rested (art. 33); pair 5 plays "
            "at table 2 in N/S.") in page(arbiter_client, 2, "en")
    assert ("La coppia 2 riposa al posto della coppia 5, che ha già riposato (art. 33); la 5 "
            "gioca al tavolo 2 in N/S.") in page(arbiter_client, 2, "it")


def test_an_unavoidable_danish_rematch_on_the_draft_page(tournament, make_pairs, arbiter, arbiter_client):
    """2 pairs, plan DD: round 1 by number 1–2; in round 2 the only table is 1–2 again, one
    repeated meeting, the minimum (rules.md §7)."""
    make_pairs(tournament, 2)
    with_plan(tournament, arbiter, "DD")
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter)
    services.generate_round(tournament=tournament, by=arbiter)
    shows(arbiter_client, 2,
          "No pairing without repeated meetings is possible: 1 repeated meeting (the minimum).",
          "Nessun accoppiamento senza incontri ripetuti è possibile: 1 incontro ripetuto (il minimo).")


def test_a_mitchell_rematch_after_a_danish_round_on_the_draft_page(tournament, make_pairs, arbiter,
                                                                   arbiter_client):
    """6 pairs, plan MDM. Round 1 (T = 3): (1,4) (2,5) (3,6); 1 +500, 2 +100, 6 +300 → the
    ranking 1, 6, 2, 5, 3, 4. Danish round 2: 1–6, 2–3 (2–5 met), 5–4. Mitchell round 3 =
    movement round 2 (offset 1): (1,6) (2,4) (3,5): 1–6 again, first met in round 2."""
    make_pairs(tournament, 6)
    with_plan(tournament, arbiter, "MDM")
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter,
         {1: (500, 0), 2: (100, 0), 3: (0, 300)})
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter)
    services.generate_round(tournament=tournament, by=arbiter)
    shows(arbiter_client, 3,
          "Repeated meeting at table 1: pairs 1 and 6 have already met (round 2).",
          "Incontro ripetuto al tavolo 1: le coppie 1 e 6 si sono già incontrate (turno 2).")


def test_an_older_plain_warning_is_shown_as_it_is(five, arbiter, arbiter_client):
    rnd = services.generate_round(tournament=five, by=arbiter)
    Round.objects.filter(pk=rnd.pk).update(warnings=["Avviso scritto prima dei codici."])
    assert "Avviso scritto prima dei codici." in page(arbiter_client, 1, "en")


def test_the_mitchell_plan_warning_on_the_tournament_page(tournament, make_pairs, arbiter, arbiter_client):
    """4 pairs, step 1: T = 2, a repeat after T / gcd(1, 2) = 2 rounds (rules.md §6); round 3
    meets as round 1: 1–3, 2–4."""
    make_pairs(tournament, 4)
    with_plan(tournament, arbiter, "MMM")
    arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = arbiter_client.get(reverse("tournament", args=["prova"])).content.decode()
    assert ("Mitchell round 3 (step 1): the meetings of round 1 would repeat: 1–3, 2–4. With 4 pairs "
            "and step 1 at most 2 rounds without repeats.") in english
    arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    italian = arbiter_client.get(reverse("tournament", args=["prova"])).content.decode()
    assert ("Turno 3 del Mitchell (passo 1): si ripeterebbero gli incontri del turno 1: 1–3, 2–4. Con 4 "
            "coppie e passo 1 al massimo 2 turni senza ripetizioni.") in italian


def test_the_individual_drafts_own_sentences_are_stored_with_codes():
    """An individual response repeating partners 3+7 (rules.md §9) and exchanging a rest:
    player 9 rests instead of 4, who already rested, 4 plays at table 2 (rules.md §5)."""
    from tournaments.kinds.individual import repeated_partner_messages

    response = {"repeated_partners": [[3, 7]], "adjustments": [{"rests": 9, "plays": 4, "table": 2}]}
    with translation.override("en"):  # the stored text is Italian whoever generates
        items = [stored(m) for m in repeated_partner_messages(response)]
    assert [item["text"] for item in items] == [
        "I giocatori 3 e 7 giocano di nuovo insieme: inevitabile (regole §9).",
        "Il giocatore 9 riposa al posto del giocatore 4, che ha già riposato (regole §5); il 4 gioca "
        "al tavolo 2."]
    with translation.override("en"):
        assert Round(warnings=items).warning_messages == [
            "Players 3 and 7 play together again: unavoidable (rules §9).",
            "Player 9 rests instead of player 4, who already rested (rules §5); 4 plays at table 2."]
