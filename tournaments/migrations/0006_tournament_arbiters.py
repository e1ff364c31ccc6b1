# A tournament belongs to its arbiters (creator + co-directors).

from django.conf import settings
from django.db import migrations, models


def creators_become_arbiters(apps, schema_editor):
    """Each existing tournament's creator (``created_by``, when known) directs it."""
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.exclude(created_by=None).only("pk", "created_by"):
        tournament.arbiters.add(tournament.created_by_id)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0005_pin_guard"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="arbiters",
            field=models.ManyToManyField(
                blank=True, related_name="directed_tournaments", to=settings.AUTH_USER_MODEL,
                verbose_name="arbitri",
            ),
        ),
        migrations.RunPython(creators_become_arbiters, migrations.RunPython.noop),
    ]
