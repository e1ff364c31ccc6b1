"""The audit trail page reads as sentences, not raw codes and dicts (fresh-user report)."""
from django.urls import reverse

from tournaments import services
from tournaments.services import HandInput


def test_audit_page_is_readable(arbiter_client, arbiter, tournament, make_pairs):
    make_pairs(tournament, 4)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter)
    table = rnd.tables.get(number=1)
    hands = [HandInput(1230, 870), HandInput(0, 0), HandInput(0, 0), HandInput(0, 0)]
    services.save_score_sheet(table=table, hands=hands, by=arbiter)
    services.swap_sheet_lines(table=table, by=arbiter, reason="linee invertite al tavolo")
    body = arbiter_client.get(reverse("audit", args=["prova"]) + "?round=1&table=1").content.decode()
    assert "Linee invertite" in body and "sheet_lines_swapped" not in body
    # 1230–870: difference 360, in the 4-hand band 305…500 → 12–8.
    assert "MP 1230 – 870 · VP 12 – 8" in body and "MP 870 – 1230 · VP 8 – 12" in body
    assert "{&#x27;hands&#x27;" not in body and "{'hands'" not in body


def test_audit_shows_labels_not_codes_and_real_minus(arbiter_client, arbiter, tournament, make_pairs):
    """Regression: the trail showed 'stato: confirmed', 'sistema: mitchell' and '295–-215'."""
    from tournaments.services import Actor

    make_pairs(tournament, 4)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter)
    table = rnd.tables.get(number=1)
    hands = [HandInput(295, -215), HandInput(0, 0), HandInput(0, 0), HandInput(0, 0)]
    services.save_score_sheet(table=table, hands=hands, by=Actor("capitano N/S tavolo 1"))
    services.confirm_sheet(table=table, by=Actor("capitano E/O tavolo 1"))
    body = arbiter_client.get(reverse("audit", args=["prova"])).content.decode()
    assert "MP 295 – −215" in body and "–-" not in body
    assert "stato: Confermato" in body and "stato: confirmed" not in body
    assert "sistema: Mitchell" in body and "sistema: mitchell" not in body
