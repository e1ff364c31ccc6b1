"""Trust on a database server: the arbiter's validation and the other line's dispute of the
same sheet at the same moment (rules.md §3). Either the dispute lands first and the
validation without a decision is refused, or the validation lands first and the dispute is
refused; never a validated sheet whose dispute vanished without a decision. Only on
PostgreSQL (threads with their own connections), as test_concurrent_writes_postgres.
"""
from __future__ import annotations

import pytest
from django.conf import settings

from tests.threads import together

pytestmark = [
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
                       reason="threads with their own connections need a database server (PostgreSQL)"),
    pytest.mark.django_db(transaction=True),
]


@pytest.mark.parametrize("validate_all", [False, True])
def test_validation_and_dispute_at_once_never_lose_the_dispute(published, arbiter, validate_all):
    from tournaments import services
    from tournaments.errors import ArbiterError
    from tournaments.models import AuditEntry, ScoreSheet

    table = published.tables.get(number=1)
    # validate-all takes the arbiter's own entries; a single "Valida" any entered sheet
    by = arbiter if validate_all else services.Actor("capitano N/S tavolo 1")
    services.save_score_sheet(table=table, hands=[services.HandInput(600, 200)] + [services.HandInput(0, 0)] * 3,
                              by=by)

    def validate():
        if validate_all:
            return services.validate_entered_sheets(round=published, by=arbiter)
        return services.validate_sheet(table=table, by=arbiter)

    def dispute():
        return services.dispute_sheet(table=table, by=services.Actor("capitano E/O tavolo 1"), note="mano 1")

    results = together(validate, dispute)
    sheet = ScoreSheet.objects.get(table=table)
    validated = AuditEntry.objects.filter(table_number=1, action__startswith="sheet_validated")
    disputed = AuditEntry.objects.filter(table_number=1, action="sheet_disputed")
    if sheet.state == ScoreSheet.State.VALIDATED:       # validation first: the dispute was refused
        assert isinstance(results[1], ArbiterError) and not disputed.exists()
        assert validated.count() == 1
    else:                                               # dispute first: nothing validated
        assert sheet.state == ScoreSheet.State.DISPUTED and disputed.count() == 1
        assert not validated.exists()
        assert results[0] == [] if validate_all else isinstance(results[0], ArbiterError)
