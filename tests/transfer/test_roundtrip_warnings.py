"""The pairing warnings kept as {code, params, text} travel in the exported file and read in
the reader's language after the import; the round trip still gives the same bytes."""
from django.utils import translation

from tests.tournaments.helpers import play
from tests.transfer.conftest import empty_database, without_accounts
from tournaments import services, transfer


def test_a_coded_warning_round_trips_and_reads_english(tournament, make_pairs, arbiter):
    """2 pairs, plan DD: round 1 by number 1–2; round 2 can only be 1–2 again, one repeated
    meeting, the minimum (rules.md §7)."""
    make_pairs(tournament, 2)
    services.update_tournament(tournament=tournament, by=arbiter, plan="DD")
    tournament.refresh_from_db()
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter)
    services.generate_round(tournament=tournament, by=arbiter)
    first = transfer.export_tournament(tournament)
    empty_database()

    result = transfer.import_tournament(data=first)
    assert transfer.export_tournament(result.tournament) == without_accounts(first)
    rnd = result.tournament.rounds.get(number=2)
    assert rnd.warnings == [{"code": "warning.min_rematches_one", "params": {"count": 1},
                             "text": "Nessun accoppiamento senza incontri ripetuti è possibile: "
                                     "1 incontro ripetuto (il minimo)."}]
    with translation.override("en"):
        assert rnd.warning_messages == [
            "No pairing without repeated meetings is possible: 1 repeated meeting (the minimum)."]
