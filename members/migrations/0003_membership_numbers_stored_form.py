"""Membership numbers stored before the one rule (members.numbers, rules.md §16) put in its
stored form: «８８０００７» → 880007, «402 616» → 402-616. A number the rule cannot read
(«①②») or whose new form is already another member's is left as it was: the arbiter sees the
member's page refuse it and types the right one."""
from django.db import migrations

from members.numbers import MembershipNumberError, legacy_membership_number


def to_stored_form(apps, schema_editor):
    Member = apps.get_model("members", "Member")
    taken = set(Member.objects.exclude(membership_number=None).values_list("membership_number", flat=True))
    for member in Member.objects.exclude(membership_number=None).order_by("id"):
        try:
            number = legacy_membership_number(member.membership_number)
        except MembershipNumberError:
            continue
        if number == member.membership_number or number in taken:
            continue
        taken.discard(member.membership_number)
        taken.add(number)
        member.membership_number = number or None
        member.save(update_fields=["membership_number"])


class Migration(migrations.Migration):
    dependencies = [("members", "0002_member_events")]
    operations = [migrations.RunPython(to_stored_form, migrations.RunPython.noop)]
