"""Members belong to a club (rules.md §20): the old text field ``club`` (the *circolo* column
of a member list) becomes ``registered_club`` («circolo di tesseramento»), a foreign key
``club`` is added and filled with the default club, and the membership number is unique
within a club instead of on the server."""
import django.db.models.deletion
from django.db import migrations, models

import clubs.models


def fill_club(apps, schema_editor):
    Club = apps.get_model("clubs", "Club")
    Member = apps.get_model("members", "Member")
    db = schema_editor.connection.alias
    club = Club.objects.using(db).order_by("id").first()
    Member.objects.using(db).filter(club__isnull=True).update(club=club)


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0001_initial"),
        ("members", "0003_membership_numbers_stored_form"),
    ]

    operations = [
        migrations.RenameField("member", "club", "registered_club"),
        migrations.AlterField(
            model_name="member", name="registered_club",
            field=models.CharField(blank=True, max_length=120, verbose_name="circolo di tesseramento"),
        ),
        migrations.AddField(
            model_name="member", name="club",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT,
                                    related_name="members", to="clubs.club", verbose_name="circolo"),
        ),
        migrations.RunPython(fill_club, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="member", name="club",
            field=models.ForeignKey(default=clubs.models.default_club_id,
                                    on_delete=django.db.models.deletion.PROTECT, related_name="members",
                                    to="clubs.club", verbose_name="circolo"),
        ),
        migrations.RemoveConstraint(model_name="member", name="member_number_unique"),
        migrations.AddConstraint(
            model_name="member",
            constraint=models.UniqueConstraint(condition=models.Q(("membership_number__isnull", False)),
                                               fields=("club", "membership_number"),
                                               name="member_number_unique_in_club"),
        ),
    ]
