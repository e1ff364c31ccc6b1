"""``services.guard.write``: the one decorator of a service write — one transaction, a
database refusal turned into the arbiter's sentence, the whole transaction run again while
SQLite's write lock is taken (``retry=False``: never run twice)."""
import pytest
from django.conf import settings
from django.db import IntegrityError, OperationalError, connection

from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry
from tournaments.services import guard


def test_a_refused_write_rolls_back_and_answers_with_the_constraint_sentence(db, tournament):
    before = AuditEntry.objects.count()

    @guard.write
    def half_done():
        AuditEntry.objects.create(tournament=tournament, actor="sistema", action="settings_changed")
        raise IntegrityError('CHECK constraint failed: tournament_hands_positive')

    with pytest.raises(ArbiterError) as refused:
        half_done()
    assert str(refused.value) == str(guard.CONSTRAINT_MESSAGES["tournament_hands_positive"])
    assert AuditEntry.objects.count() == before  # atomic: nothing kept


def test_the_body_runs_inside_one_transaction(db):
    seen = []

    @guard.write(retry=False)
    def body():
        seen.append(connection.in_atomic_block)

    body()
    assert seen == [True]


@pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
                    reason="SQLite's write lock")
@pytest.mark.parametrize("retry, tries", [(True, 3), (False, 1)])
def test_a_locked_database_is_retried_only_when_asked(transactional_db, retry, tries):
    calls = []

    def body():
        calls.append(1)
        if len(calls) < 3:
            raise OperationalError("database is locked")
        return "ok"

    decorated = guard.write(body) if retry else guard.write(retry=False)(body)
    if retry:
        assert decorated() == "ok"
    else:
        with pytest.raises(OperationalError, match="locked"):
            decorated()
    assert len(calls) == tries


REFUSAL = IntegrityError("CHECK constraint failed: penalty_vp_or_mp")


def _refusing_audit(*args, **kwargs):
    raise REFUSAL


def test_a_refused_prize_list_answers_with_a_sentence_and_keeps_the_old_list(db, tournament, arbiter, monkeypatch):
    from tournaments.services import prizes

    monkeypatch.setattr(prizes, "audit", _refusing_audit)
    with pytest.raises(ArbiterError) as refused:
        prizes.set_prize_list(tournament=tournament, by=arbiter, prizes=[{"prize": "Coppa", "scope": "overall"}])
    assert str(refused.value) == str(guard.CONSTRAINT_MESSAGES["penalty_vp_or_mp"])
    tournament.refresh_from_db()
    assert tournament.prize_list in ([], None)


def test_a_refused_lateness_answers_with_a_sentence_and_keeps_no_penalty(published, arbiter, monkeypatch):
    from tournaments.models import Penalty
    from tournaments.services import lateness

    monkeypatch.setattr(lateness, "audit", _refusing_audit)
    with pytest.raises(ArbiterError) as refused:
        # 7 minutes: past the 5 of grace, a penalty (rules.md §22)
        lateness.record_lateness(round=published, pair_number="1", minutes="7", by=arbiter)
    assert str(refused.value) == str(guard.CONSTRAINT_MESSAGES["penalty_vp_or_mp"])
    assert not Penalty.objects.exists()


def test_a_refused_undo_of_lateness_answers_with_a_sentence(published, arbiter, monkeypatch):
    from tournaments.services import lateness

    lateness.record_lateness(round=published, pair_number="1", minutes="7", by=arbiter)
    monkeypatch.setattr(lateness, "audit", _refusing_audit)
    with pytest.raises(ArbiterError):
        lateness.undo_lateness(round=published, pair_number="1", by=arbiter)
