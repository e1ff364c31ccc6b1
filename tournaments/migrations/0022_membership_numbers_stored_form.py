"""Players' membership numbers stored before the one rule (members.numbers, rules.md §16) put
in its stored form, as members' are (members 0003): «８８０００７» → 880007, «402 616» →
402-616; a number the rule cannot read («①②») is left as it was."""
from django.db import migrations

from members.numbers import MembershipNumberError, legacy_membership_number


def to_stored_form(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    for player in Player.objects.exclude(membership_number="").only("id", "membership_number"):
        try:
            number = legacy_membership_number(player.membership_number)
        except MembershipNumberError:
            continue
        if number != player.membership_number:
            player.membership_number = number
            player.save(update_fields=["membership_number"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0021_missing_membership"), ("members", "0003_membership_numbers_stored_form")]
    operations = [migrations.RunPython(to_stored_form, migrations.RunPython.noop)]
