"""Penalties in MP as well as VP (rules.md §3, art. 23 "1 V.P. o equivalente"), and the
round of a penalty given without one stored (so the standings after each round
know whether to count it).

Penalties saved before this migration without a round get the round that was in play when
they were given (published at or before ``created_at`` and not closed by then), else the
last round closed by then, else round 1: the rule ``services.add_penalty`` now applies when
the penalty is given.
"""

from django.conf import settings
from django.db import migrations, models


def fix_round_of_old_penalties(apps, schema_editor):
    Penalty = apps.get_model("tournaments", "Penalty")
    Round = apps.get_model("tournaments", "Round")
    for penalty in Penalty.objects.filter(round_number__isnull=True):
        rounds = Round.objects.filter(tournament_id=penalty.tournament_id)
        at = penalty.created_at
        in_play = (
            rounds.filter(published_at__isnull=False, published_at__lte=at)
            .exclude(closed_at__isnull=False, closed_at__lte=at)
            .order_by("-number").values_list("number", flat=True).first()
        )
        closed = (
            rounds.filter(closed_at__isnull=False, closed_at__lte=at)
            .order_by("-number").values_list("number", flat=True).first()
        )
        penalty.round_number = in_play or closed or 1
        penalty.save(update_fields=["round_number"])


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0003_round_drawn_from'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='penalty',
            name='penalty_vp_positive',
        ),
        migrations.AddField(
            model_name='penalty',
            name='mp',
            field=models.PositiveIntegerField(default=0, verbose_name='MP'),
        ),
        migrations.AlterField(
            model_name='penalty',
            name='vp',
            field=models.DecimalField(decimal_places=2, default=0, max_digits=6, verbose_name='VP'),
        ),
        migrations.AddConstraint(
            model_name='penalty',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('vp__gt', 0), ('mp', 0)), models.Q(('vp', 0), ('mp__gt', 0)), _connector='OR'), name='penalty_vp_or_mp'),
        ),
        migrations.RunPython(fix_round_of_old_penalties, migrations.RunPython.noop),
    ]
