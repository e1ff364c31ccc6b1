"""Prizes (rules.md §18), values by hand."""
import pytest

from scoring.prizes import (
    Contender,
    PrizeError,
    PrizeSpec,
    award_prizes,
    parse_prize_list,
    parse_scope,
    prize_line,
    scope_words,
)

D = frozenset({"dame"})


def standings():
    # 1 Dame, 2, 3 Dame, 4 group 2 Dame (withdrawn), 5 Dame; groups: 1,3 in 1; 2,4,5 in 2
    return [Contender(1, 1, group=1, categories=D), Contender(2, 2, group=2),
            Contender(3, 3, group=1, categories=D), Contender(4, 4, withdrawn=True, group=2, categories=D),
            Contender(5, 5, group=2, categories=D)]


def prizes(*items):
    return [PrizeSpec(name, parse_scope(scope)) for name, scope in items]


def test_not_cumulative_overall_winner_is_not_also_first_lady():
    awards = award_prizes(prizes(("1° assoluto", "overall"), ("1ª Dame", "category:Dame")), standings())
    assert [a.entrant for a in awards] == [1, 3]


def test_kth_of_category_when_its_best_already_won():
    awards = award_prizes(prizes(("1°", "overall"), ("2°", "overall"), ("1ª Dame", "category:dame"),
                                 ("2ª Dame", "category:Dame")), standings())
    # 1 and 2 take the overall prizes; Dame: 1 has one, 3 first, 4 withdrawn, 5 second
    assert [a.entrant for a in awards] == [1, 2, 3, 5]


def test_cumulative_kth_prize_of_a_scope_to_its_kth_entrant():
    awards = award_prizes(prizes(("1°", "overall"), ("1ª Dame", "category:Dame"), ("2ª Dame", "category:Dame")),
                          standings(), cumulative=True)
    assert [a.entrant for a in awards] == [1, 1, 3]


def test_group_prizes_and_nobody_entitled():
    awards = award_prizes(prizes(("1° girone 2", "group:2"), ("2° girone 2", "group:2"), ("3° girone 2", "group:2"),
                                 ("1° girone 3", "group:3")), standings())
    assert [a.entrant for a in awards] == [2, 5, None, None]


def test_ex_aequo_flags_a_winner_sharing_his_place():
    field = [Contender(7, 1), Contender(3, 1), Contender(5, 3)]
    awards = award_prizes(prizes(("1°", "overall"), ("2°", "overall"), ("3°", "overall")), field)
    assert [(a.entrant, a.ex_aequo) for a in awards] == [(7, True), (3, True), (5, False)]


def test_withdrawn_win_nothing():
    awards = award_prizes(prizes(("1°", "overall")), [Contender(1, 1, withdrawn=True), Contender(2, 2)])
    assert awards[0].entrant == 2


@pytest.mark.parametrize("data", [{}, [1], [{"prize": ""}], [{"prize": "x", "scope": "group:0"}],
                                  [{"prize": "x", "scope": "gruppo:1"}], [{"prize": "x", "scope": "category:"}],
                                  [{"prize": "x", "scope": "overall", "extra": 1}]])
def test_bad_prize_lists_refused_with_a_sentence(data):
    with pytest.raises(PrizeError):
        parse_prize_list(data)


def test_prize_list_parsed():
    specs = parse_prize_list([{"prize": " 1° assoluto ", "scope": "overall"}, {"prize": "1° G2", "scope": "group:2"}])
    assert [(s.name, s.scope.text) for s in specs] == [("1° assoluto", "overall"), ("1° G2", "group:2")]


@pytest.mark.parametrize("stored, italian, english", [
    ("overall", "assoluto", "overall"), ("group:2", "girone:2", "group:2"),
    ("category:Dame", "categoria:Dame", "category:Dame")])
def test_scope_in_the_words_the_arbiter_types(stored, italian, english):
    """The prize page's help text: «Ambito: assoluto, girone:2, categoria:Dame» (English: overall,
    group:2, category:Dame); each form reads back as the same scope."""
    scope = parse_scope(stored)
    assert (scope_words(scope, "it"), scope_words(scope, "en")) == (italian, english)
    assert parse_scope(italian) == parse_scope(english) == scope


def test_prize_line_as_typed_on_the_page():
    assert prize_line({"prize": "1ª coppia Dame", "scope": "category:Dame"}) == "1ª coppia Dame | categoria:Dame"
    assert prize_line({"prize": "1° assoluto", "scope": "overall"}, "en") == "1° assoluto | overall"
    assert prize_line({"prize": "Strano", "scope": "boh"}) == "Strano | boh"   # kept as stored


def test_prize_line_ends_with_the_money_as_typed():
    """rules.md §21: «| 50%» a share of the pool, «| 40.00» euro, after the scope."""
    assert prize_line({"prize": "1° assoluto", "scope": "overall", "share": "50"}) == "1° assoluto | assoluto | 50%"
    assert prize_line({"prize": "2° assoluto", "scope": "overall", "amount": "40.00"}, "en") == \
        "2° assoluto | overall | 40.00"


def test_a_prize_in_money_has_an_amount_or_a_share():
    """rules.md §21: ``amount`` in euro or ``share`` in percent of the pool, two decimals."""
    from decimal import Decimal

    specs = parse_prize_list([{"prize": "1°", "scope": "overall", "share": 50},
                              {"prize": "2°", "scope": "overall", "amount": "40.00"},
                              {"prize": "3°", "scope": "overall"}])
    assert [(s.amount, s.share) for s in specs] == [(None, Decimal("50.00")), (Decimal("40.00"), None), (None, None)]
    for bad, text in [({"amount": "1", "share": 5}, "non entrambi"), ({"share": 101}, "share"),
                      ({"amount": "0"}, "amount"), ({"amount": "4.005"}, "due decimali"),
                      ({"amount": True}, "numero"), ({"share": "metà"}, "numero")]:
        with pytest.raises(PrizeError, match=text):
            parse_prize_list([{"prize": "1°", "scope": "overall", **bad}])
