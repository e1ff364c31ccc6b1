"""Tournaments and custom VP scales belong to a club (rules.md §20): a foreign key added
nullable, filled with the default club, then made non-null."""
import django.db.models.deletion
from django.db import migrations, models

import clubs.models


def fill_club(apps, schema_editor):
    db = schema_editor.connection.alias
    club = apps.get_model("clubs", "Club").objects.using(db).order_by("id").first()
    for model in ("Tournament", "CustomScale"):
        apps.get_model("tournaments", model).objects.using(db).filter(club__isnull=True).update(club=club)


def _club(null: bool, related_name: str):
    if null:
        return models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT,
                                 related_name=related_name, to="clubs.club", verbose_name="circolo")
    return models.ForeignKey(default=clubs.models.default_club_id, on_delete=django.db.models.deletion.PROTECT,
                             related_name=related_name, to="clubs.club", verbose_name="circolo")


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0001_initial"),
        ("tournaments", "0022_membership_numbers_stored_form"),
    ]

    operations = [
        migrations.AddField("tournament", "club", _club(True, "tournaments")),
        migrations.AddField("customscale", "club", _club(True, "vp_scales")),
        migrations.RunPython(fill_club, migrations.RunPython.noop),
        migrations.AlterField("tournament", "club", _club(False, "tournaments")),
        migrations.AlterField("customscale", "club", _club(False, "vp_scales")),
    ]
