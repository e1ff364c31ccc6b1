"""The exporter knows every field of every tournament model.

When a field is added to a model in tournaments/models.py but neither exported
(``transfer.FIELDS``) nor listed with its reason (``transfer.STRUCTURAL``), this test names
it: add it to one of the two, or it would be lost between two databases.
"""
import pytest
from django.apps import apps

from tournaments import transfer


def test_every_model_of_the_app_is_known_to_the_exporter():
    models = set(apps.get_app_config("tournaments").get_models())
    unknown = sorted(m.__name__ for m in models - set(transfer.FIELDS))
    assert unknown == [], f"models not in tournaments/transfer/schema.py FIELDS/STRUCTURAL: {unknown}"
    assert set(transfer.FIELDS) == set(transfer.STRUCTURAL)


@pytest.mark.parametrize("model", sorted(transfer.FIELDS, key=lambda m: m.__name__), ids=lambda m: m.__name__)
def test_every_field_is_exported_or_excluded_with_a_reason(model):
    exported = set(transfer.FIELDS[model])
    excluded = set(transfer.STRUCTURAL[model])
    assert exported & excluded == set(), "a field both exported and excluded"
    fields = transfer.model_field_names(model)
    missing = sorted(fields - exported - excluded)
    assert missing == [], (f"{model.__name__}: fields neither exported nor excluded in "
                           f"tournaments/transfer/schema.py: {missing}")
    gone = sorted((exported | excluded) - fields)
    assert gone == [], f"{model.__name__}: schema lists fields the model no longer has: {gone}"


def test_values_are_normalised():
    """Decimals with the field's places, datetimes in UTC with microseconds (hand-written)."""
    import datetime as dt
    from decimal import Decimal
    from zoneinfo import ZoneInfo

    from tournaments.models import ScoreSheet
    from tournaments.transfer.schema import to_json

    field = ScoreSheet._meta.get_field("vp_ns")
    assert to_json(field, Decimal("12.5")) == "12.50"
    assert to_json(field, Decimal("7")) == "7.00"
    rome = dt.datetime(2026, 11, 30, 22, 5, 3, tzinfo=ZoneInfo("Europe/Rome"))
    assert to_json(ScoreSheet._meta.get_field("updated_at"), rome) == "2026-11-30T21:05:03.000000Z"
