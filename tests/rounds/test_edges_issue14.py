"""Issue 14 "rough edges" at page level (items 3–6).

Round 1 of the 5-pair fixture (tests/conftest.py): table 1 = 1 v 3, table 2 = 2 v 4, pair 5 rests.
"""
import html

from django.urls import reverse

from tournaments import documents, services
from tournaments.models import AuditEntry, Round, ScoreSheet

ZERO = [services.HandInput(0, 0)] * 4


def body(resp):
    return html.unescape(resp.content.decode())


def close(rnd, arbiter):
    for t in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=ZERO, by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


# --------------------------------------------------------------------------- item 6


def test_reopen_page_cancel_returns_to_the_round(arbiter_client, arbiter, published):
    close(published, arbiter)
    page = body(arbiter_client.get(reverse("round_reopen", args=["prova", 1]),
                                   HTTP_REFERER="http://testserver/altrove/"))
    round_url = reverse("round", args=["prova", 1])
    cancel = page.split('name="reason"')[1]
    assert f'href="{round_url}"' in cancel and "/altrove/" not in cancel


def test_standings_pdf_legend_only_with_a_tie():
    """The «3=» legend is printed only when some position is shared."""
    line = dict(pair=1, players=("A B",), vp=0, penalty=0, mp_difference=0, mp_scored=0, played=1,
                rests=0, withdrawn=False)
    no_tie = documents.StandingsDocument(
        tournament="T", date=None, venue="", after_round=1, final=False,
        rows=(documents.StandingLine(position="1", **line), documents.StandingLine(position="2", **{**line, "pair": 2})),
    )
    assert not no_tie.has_ties
    assert "«3=»" not in documents.standings_html(no_tie)
    tie = documents.StandingsDocument(
        tournament="T", date=None, venue="", after_round=1, final=False,
        rows=(documents.StandingLine(position="1=", **line), documents.StandingLine(position="1=", **{**line, "pair": 2})),
    )
    assert tie.has_ties and "«3=»" in documents.standings_html(tie)
