"""The kinds' sentences (``KindData``) in both languages: a draft outdated by withdrawals,
entries or changed standings (rules.md §12) names the kind's entrants, singular or plural
with the count, and the plan refused to a team tournament (rules.md §15). The expected
sentences are the msgids and the English of ``locale/en/LC_MESSAGES/django.po``."""
import pytest
from django.utils import translation

from tournaments.kinds import KINDS
from tournaments.models import Tournament

pytestmark = pytest.mark.pure

PAIRS, INDIVIDUAL, TEAMS = (KINDS[k].data for k in (Tournament.Kind.PAIRS, Tournament.Kind.INDIVIDUAL,
                                                     Tournament.Kind.TEAMS))


def say(text, lang, **values):
    with translation.override(lang):
        return text % values


def test_withdrawn_entrants_are_named_by_kind_and_count_in_italian():
    assert say(PAIRS.gone_from_play, "it", n=1, numbers="4") == "Non è più in gara la coppia 4 (ritiro)."
    assert say(PAIRS.gone_from_play, "it", n=2, numbers="4, 7") == \
        "Non sono più in gara le coppie 4, 7 (ritiro)."
    assert say(INDIVIDUAL.gone_from_play, "it", n=1, numbers="2") == "Non è più in gara il giocatore 2 (ritiro)."
    assert say(TEAMS.entered_play, "it", n=2, numbers="5, 6") == "Sono entrate in gara le squadre 5, 6."


def test_the_draft_sentences_are_translated_for_every_kind():
    assert say(PAIRS.gone_from_play, "en", n=2, numbers="4, 7") == "Pairs 4, 7 are no longer playing (withdrawal)."
    assert say(INDIVIDUAL.entered_play, "en", n=1, numbers="9") == "Player 9 has entered play."
    assert say(TEAMS.gone_from_play, "en", n=1, numbers="3") == "Team 3 is no longer playing (withdrawal)."
    assert say(TEAMS.standings_changed, "en", round=2, numbers="1, 3") == (
        "The standings after round 2 have changed for teams 1, 3 "
        "(correction, swapped lines, arbitral score or penalty).")
    assert say(INDIVIDUAL.standings_changed, "en", round=1, numbers="5") == (
        "The standings after round 1 changed for players 5 (correction, swapped lines, arbitral score or penalty).")


def test_only_the_team_kind_replaces_plan_letters_and_says_why():
    # rules.md §15: a team tournament plays R or D rounds; M is a Mitchell for pairs (§6)
    assert PAIRS.plan_replacements == () and INDIVIDUAL.plan_replacements == ()
    assert TEAMS.plan_replacements == (("M", "R"),)
    assert say(TEAMS.plan_refusal, "it", plan="RRD") == (
        "Un torneo a squadre si accoppia con il girone all'italiana (R) o il danese (D): il Mitchell (M) non "
        "vale per le squadre (es. RRD).")
