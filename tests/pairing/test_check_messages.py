"""Every message of the pairing checker is coded, so that it reads in any language: a
``pairing.messages.Message`` whose text is the Italian sentence, with a ``code`` of
``pairing.messages.TEMPLATES`` and its ``params``; and the one top-down re-derivation serves
pairs and individuals (pairing/check.py ``top_down_violation``)."""
import copy

from pairing import run
from pairing.check import check, top_down_violation
from pairing.check.individual import information
from pairing.messages import TEMPLATES, Message

DANISH = {"system": "danish", "ranking": [1, 2, 3, 4, 5, 6]}
MITCHELL = {"system": "mitchell", "pairs": list(range(1, 9)), "round": 2}
ROBIN = {"system": "round-robin", "pairs": [1, 2, 3, 4, 5], "round": 2}
INDIVIDUAL = {"system": "danish-individual", "ranking": [1, 2, 3, 4, 5, 6, 7, 8, 9],
              "partners": [[1, 2], [3, 4]], "rested": [9]}


def coded(violations):
    assert violations, "expected at least one violation"
    for v in violations:
        assert isinstance(v, Message) and v.code in TEMPLATES, v
        assert str(v) == TEMPLATES[v.code] % v.params  # the Italian text is the default rendering
    return violations


def broken(request, change):
    response = copy.deepcopy(run(request))
    change(response)
    return coded(check(request, response))


def test_shape_and_request_messages_are_coded():
    assert [v.code for v in coded(check("nope", {}))] == ["check.request_not_object"]
    assert [v.code for v in coded(check({"system": "swiss"}, {}))] == ["check.unknown_system"]
    bad = coded(check({"system": "danish", "ranking": [1, 1]}, {"tables": []}))
    assert bad[0].code == "check.bad_request" and bad[0].startswith("richiesta non valida: ")
    assert coded(check(DANISH, "nope")) == ["risposta non valida: non è un oggetto"]
    assert coded(check(DANISH, {})) == ["risposta non valida: manca la lista 'tables'"]
    v = coded(check(DANISH, {"tables": [{"table": "x", "ns": 1, "ew": 2}, 7], "bye": [1],
                             "forced_byes": 3, "rematches": 1}))
    codes = {m.code for m in v}
    assert {"check.bad_table", "check.bad_table_number", "check.bad_bye", "check.not_a_list"} <= codes
    assert "risposta non valida: 'forced_byes' deve essere una lista" in v


def test_coverage_messages_are_coded():
    def twice(r):
        r["tables"][1]["ns"] = r["tables"][0]["ns"]
        r["tables"][2]["ew"] = 99
    v = broken(DANISH, twice)
    assert "la coppia 1 compare 2 volte" in v and "coppia sconosciuta o assente nella risposta: 99" in v
    assert any(m.code == "check.pair_missing" for m in v)

    def itself(r):
        r["tables"][0]["ew"] = r["tables"][0]["ns"]
    assert any(m.code == "check.plays_itself" for m in broken(DANISH, itself))

    def gap(r):
        r["tables"][2]["table"] = 5
        r["forced_byes"] = [1]
    v = broken(DANISH, gap)
    assert {"check.numbering", "check.danish_forced"} & {m.code for m in v}


def test_mitchell_and_round_robin_messages_are_coded():
    def drop(r):
        r["tables"].pop()
        r["forced_byes"] = [1]
    v = broken(MITCHELL, drop)
    assert any(m.code == "check.mitchell_missing_table" for m in v)
    assert any(m.code == "check.mitchell_forced" for m in v)

    def swap(r):
        r["tables"][0]["ns"], r["tables"][1]["ns"] = r["tables"][1]["ns"], r["tables"][0]["ns"]
        r["bye"] = None
    v = broken(ROBIN, swap)
    assert {"check.rr_table", "check.rr_bye"} <= {m.code for m in v}


def test_first_round_messages_are_coded():
    request = {"system": "first_round", "method": "number", "pairs": list(range(1, 9))}

    def reorder(r):
        r["tables"][0]["ew"], r["tables"][1]["ew"] = r["tables"][1]["ew"], r["tables"][0]["ew"]
    assert broken(request, reorder) == ["per numero: i tavoli non corrispondono all'ordine atteso"]
    lot = {"system": "first_round", "method": "lot", "pairs": list(range(1, 9)), "seed": 3}

    def no_seed(r):
        del r["seed"]
    assert [m.code for m in broken(lot, no_seed)] == ["check.lot_seed_differs", "check.lot_no_seed"]


def with_tables(*tables, rest=(8,), repeated=(), warnings=()):
    return {"tables": [{"table": i + 1, "ns": list(ns), "ew": list(ew)}
                       for i, (ns, ew) in enumerate(tables)],
            "rest": list(rest), "repeated_partners": [list(x) for x in repeated],
            "warnings": list(warnings)}


def test_individual_messages_are_coded():
    v = coded(check(INDIVIDUAL, with_tables(([1, 3], [2, 4]), ([5, 6], [7, 7]))))
    assert {"check.ind_player_repeated", "check.ind_player_missing"} <= {m.code for m in v}
    assert coded(check(INDIVIDUAL, {"tables": [], "rest": 1})) == [
        "risposta non valida: servono 'tables', 'rest' (e 'forced_rest') come liste"]
    # 9 already rested, 8 has not: "secondo riposo evitabile: 9 ha già riposato, 8 no"
    v = coded(check(INDIVIDUAL, with_tables(([1, 3], [2, 4]), ([5, 6], [7, 8]), rest=[9])))
    assert v[0].code == "check.ind_second_rest" and v[0].params == {"player": 9, "fresh": 8}
    # 3+1 written worse-ranked first
    v = coded(check(INDIVIDUAL, with_tables(([3, 1], [2, 4]), ([5, 6], [7, 9]))))
    assert "la linea 1+3: il meglio classificato va scritto per primo" in v
    # partnership 1 led by 2 while 1 is the best-ranked without a partner
    v = coded(check(INDIVIDUAL, with_tables(([2, 3], [1, 4]), ([5, 6], [7, 9]))))
    assert v == ["coppia 1: deve essere formata da 1 (il meglio classificato senza compagno)"]
    # 1+4 while 1+3 was possible (pairing-io.md step 2)
    v = coded(check(INDIVIDUAL, with_tables(([1, 4], [2, 3]), ([5, 6], [7, 9]))))
    assert v == ["coppia 1: 1 doveva avere come compagno 3 (scelta dall'alto non ottimale)"]
    assert coded(check({"system": "danish", "kind": "individual"}, {})) == [
        "richiesta non valida: sistema sconosciuto 'danish'"]


def test_information_lines_are_coded():
    request = dict(INDIVIDUAL, opponents=[[1, 2]])
    response = with_tables(([1, 3], [2, 4]), ([5, 6], [7, 9]))
    lines = information(request, response)
    assert lines == ["tavolo 1: 1 e 2 si sono già incontrati da avversari"]
    assert lines[0].code == "check.ind_opponents_again"


def test_top_down_violation_is_one_rule_for_pairs_and_individuals():
    """Six entrants ranked 0..5 (indices), no history: top-down gives 0–1, 2–3, 4–5. The
    response 0–2, 1–3, 4–5 is refused at match 0: 0 should have taken 1."""
    forb = [set() for _ in range(6)]
    say = lambda k, a, q: (k, a, q)  # noqa: E731
    assert top_down_violation([(0, 1), (2, 3), (4, 5)], range(6), forb, 6, 0, say) is None
    assert top_down_violation([(0, 2), (1, 3), (4, 5)], range(6), forb, 6, 0, say) == (0, 0, 1)
    # 0 and 1 already met: 0–2 is right, then 1 must take 3
    forb[0].add(1)
    forb[1].add(0)
    assert top_down_violation([(0, 2), (1, 3), (4, 5)], range(6), forb, 6, 0, say) is None
    assert top_down_violation([(0, 2), (1, 4), (3, 5)], range(6), forb, 6, 0, say) == (1, 1, 3)
    # individuals: each partnership led by the best-ranked still without a partner
    lead = lambda k, best: ("lead", k, best)  # noqa: E731
    assert top_down_violation([(1, 2), (0, 3), (4, 5)], range(6), forb, 6, 0, say,
                              leader_message=lead) == ("lead", 0, 0)
