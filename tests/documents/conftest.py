"""Fixtures shared by the printed documents' tests: a tournament with round 1 drafted, or played and closed."""
from __future__ import annotations

from decimal import Decimal

import pytest

from tests.documents.helpers import E_W_HANDS, N_S_HANDS
from tournaments import services


@pytest.fixture
def played(tournament, make_pairs, arbiter):
    """The 8-pair tournament of tests/documents/test_documents.py's docstring, round 1 closed, penalty on pair 8."""
    make_pairs(tournament, 8)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    rnd = services.publish_round(round=rnd, by=arbiter)
    for table in rnd.tables.order_by("number"):
        ns = N_S_HANDS[table.number]
        hands = [services.HandInput(ns=a, ew=b, ns_base=a - 50 if a else 0, ns_cards=50 if a else 0)
                 for a, b in zip(ns, E_W_HANDS, strict=True)]
        services.save_score_sheet(table=table, hands=hands, by=arbiter, validate=True)
    services.close_round(round=rnd, by=arbiter)
    pair8 = tournament.pairs.get(number=8)
    services.add_penalty(pair=pair8, vp=Decimal(1), reason="Ritardo ripetuto", by=arbiter, round_number=1)
    return tournament


@pytest.fixture
def drafted(tournament, make_pairs, arbiter):
    """5 pairs, round 1 published with blank sheets: tables 1–2 and a rest (odd count)."""
    make_pairs(tournament, 5)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    services.publish_round(round=rnd, by=arbiter)
    return tournament
