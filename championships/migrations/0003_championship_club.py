"""Championships belong to a club (rules.md §20): a foreign key added nullable, filled with
the default club, then made non-null."""
import django.db.models.deletion
from django.db import migrations, models

import clubs.models


def fill_club(apps, schema_editor):
    db = schema_editor.connection.alias
    club = apps.get_model("clubs", "Club").objects.using(db).order_by("id").first()
    apps.get_model("championships", "Championship").objects.using(db).filter(club__isnull=True).update(club=club)


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0001_initial"),
        ("championships", "0002_evening_placings"),
    ]

    operations = [
        migrations.AddField("championship", "club", models.ForeignKey(
            null=True, on_delete=django.db.models.deletion.PROTECT, related_name="championships",
            to="clubs.club", verbose_name="circolo")),
        migrations.RunPython(fill_club, migrations.RunPython.noop),
        migrations.AlterField("championship", "club", models.ForeignKey(
            default=clubs.models.default_club_id, on_delete=django.db.models.deletion.PROTECT,
            related_name="championships", to="clubs.club", verbose_name="circolo")),
    ]
