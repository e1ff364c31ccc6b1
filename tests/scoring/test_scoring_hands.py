"""Hand calculator (rules.md §2). Every expected value is worked out by hand in the comment
next to it: base = burraco values + closing 100 − 100 pot not taken; cards = melded − in hand
− pot taken but not played."""

import doctest

import pytest

import scoring.hands
from scoring.hands import (
    HandDetail,
    HandError,
    check_hand_score,
    check_single_closing,
    hand_base,
    hand_cards,
    hand_score,
    hand_scores,
)


def test_module_doctests():
    result = doctest.testmod(scoring.hands)
    assert result.failed == 0 and result.attempted >= 8


def test_fibur_closing_line():
    """2 clean (400) + 1 dirty (100) + closing (100) = 600 base;
    melded 245 (e.g. 2 jolly 60, 3 pinelle 60, 5 aces 75, 5 tens 50) → cards 245; total 845."""
    d = HandDetail(clean=2, dirty=1, closing=True, cards_on_table=245)
    assert hand_base(d) == 600
    assert hand_cards(d) == 245
    assert hand_score(d) == 845


def test_fibur_losing_line_negative():
    """Pot not taken: base −100; melded 30, in hand 85 → cards −55; total −155."""
    d = HandDetail(pot="not_taken", cards_on_table=30, cards_in_hand=85)
    assert hand_base(d) == -100
    assert hand_cards(d) == -55
    assert hand_score(d) == -155


def test_pot_not_played():
    """1 clean (200), pot taken but not played worth 110; melded 90, in hand 15:
    cards 90 − 15 − 110 = −35; total 165."""
    d = HandDetail(clean=1, pot="not_played", pot_cards=110, cards_on_table=90, cards_in_hand=15)
    assert hand_base(d) == 200
    assert hand_cards(d) == -35
    assert hand_score(d) == 165


def test_fgb_kinds():
    """FGB: royal 300 + super 250 + semi-clean 150 + clean 200 + dirty 100 = 1000, no closing;
    melded 400, in hand 25 → 375; total 1375."""
    d = HandDetail(royal=1, super_burraco=1, semi_clean=1, clean=1, dirty=1, cards_on_table=400, cards_in_hand=25)
    assert hand_base(d, "fgb") == 1000
    assert hand_score(d, "fgb") == 1375


@pytest.mark.parametrize("kind,name", [("semi_clean", "semipulito"), ("royal", "reale"), ("super_burraco", "super")])
def test_fibur_refuses_fgb_kinds(kind, name):
    d = HandDetail(**{kind: 1})
    with pytest.raises(HandError, match=f"FIBUR non prevede il burraco {name}"):
        hand_score(d, "fibur")
    hand_score(d, "fgb")  # allowed there


def test_unknown_rule_set():
    with pytest.raises(HandError, match="Regolamento sconosciuto"):
        hand_score(HandDetail(), "wild")


@pytest.mark.parametrize(
    "detail,fragment",
    [
        (HandDetail(cards_on_table=33), "carte sul tavolo: 33 non è multiplo di 5"),
        (HandDetail(cards_in_hand=12), "carte in mano: 12 non è multiplo di 5"),
        (HandDetail(pot="not_played", pot_cards=7), "carte del pozzetto: 7 non è multiplo di 5"),
        (HandDetail(cards_on_table=-5), "non valido"),
        (HandDetail(clean=-1), "non valido"),
        (HandDetail(pot="maybe"), "pozzetto non valido"),
        (HandDetail(pot_cards=50), "solo se il pozzetto è stato preso ma non giocato"),
        (HandDetail(closing=True, pot="not_taken", dirty=1), "senza aver preso"),
        (HandDetail(closing=True), "senza almeno un burraco"),
    ],
)
def test_refused_entries(detail, fragment):
    with pytest.raises(HandError, match=fragment):
        hand_score(detail, "fgb")


def test_all_problems_in_one_message():
    with pytest.raises(HandError) as exc:
        hand_score(HandDetail(royal=1, cards_on_table=33))
    assert "reale" in str(exc.value) and "33" in str(exc.value)


def test_check_hand_score():
    assert check_hand_score(0) == 0
    assert check_hand_score(-155) == -155
    assert check_hand_score(1235) == 1235
    with pytest.raises(HandError, match="Il punteggio 123 non è multiplo di 5"):
        check_hand_score(123)
    with pytest.raises(HandError):
        check_hand_score(12.5)
    with pytest.raises(HandError):
        check_hand_score(True)


# --------------------------------------------------------------------------- closing


def test_closing_with_cards_left_in_partners_hand_was_refused():
    """The partner of the player who closes still holds cards; they count
    against the closing line. Clean 200 + closing 100 = 300 base; 200 on the table − 45 in
    hand = 155 cards; total 455."""
    d = HandDetail(clean=1, closing=True, cards_on_table=200, cards_in_hand=45)
    assert hand_base(d) == 300
    assert hand_cards(d) == 155
    assert hand_score(d) == 455


def test_closing_with_pot_taken_not_played_was_refused():
    """Only a pot *not taken* forbids closing. Dirty 100 + closing 100 = 200
    base; 150 on the table − pot not played 110 = 40 cards; total 240."""
    d = HandDetail(dirty=1, closing=True, pot="not_played", pot_cards=110, cards_on_table=150)
    assert hand_base(d) == 200
    assert hand_cards(d) == 40
    assert hand_score(d) == 240


def test_closing_with_pot_not_taken_refused():
    with pytest.raises(HandError, match="Non si può chiudere senza aver preso il pozzetto"):
        hand_score(HandDetail(clean=1, closing=True, pot="not_taken", cards_on_table=100))


@pytest.mark.parametrize("value", [0, 5, 50, 265, 300])
def test_pot_not_played_outside_55_260_refused(value):
    """A pot's 11 cards are worth at least 11 × 5 = 55 and at most 4 jolly + 7 pinelle
    = 120 + 140 = 260 (rules.md §2)."""
    with pytest.raises(HandError, match="vale da 55 a 260"):
        hand_score(HandDetail(dirty=1, pot="not_played", pot_cards=value, cards_on_table=100))


@pytest.mark.parametrize("value, score", [(55, 100 + 100 - 55), (260, 100 + 100 - 260)])
def test_pot_not_played_edges_allowed(value, score):
    """Edges are inclusive: dirty 100 + 100 melded − 55 = 145; − 260 = −60."""
    assert hand_score(HandDetail(dirty=1, pot="not_played", pot_cards=value, cards_on_table=100)) == score


def test_two_closing_lines_refused():
    ns = HandDetail(clean=1, closing=True, cards_on_table=100)
    ew = HandDetail(dirty=1, closing=True, cards_on_table=50)
    with pytest.raises(HandError, match="Una sola linea chiude la smazzata"):
        hand_scores(ns, ew)
    with pytest.raises(HandError, match="Una sola linea chiude"):
        check_single_closing(True, True)
    check_single_closing(True, False)
    check_single_closing(False, False)


def test_hand_scores_both_lines():
    """N/S close: clean 200 + closing 100 + 200 − 45 = 455; E/O: pot not taken −100, 60 − 35
    = 25 → −75."""
    ns = HandDetail(clean=1, closing=True, cards_on_table=200, cards_in_hand=45)
    ew = HandDetail(pot="not_taken", cards_on_table=60, cards_in_hand=35)
    assert hand_scores(ns, ew) == (455, -75)
