"""The arbiter's draft of a score sheet and the audit trail's actor in machine form (so the
label follows the reader's language), with the existing entries converted where their
Italian label is recognised (the same rules as ``tournaments.services.audit.actor_form``, copied here so the
migration does not depend on later code); unrecognised labels stay text only."""
import re

from django.db import migrations, models

CAPTAIN = re.compile(r"^capitano (N/S|E/O) tavolo (\d+)$")
ARBITER = re.compile(r"^(.+) \(arbitro\)$")


def actor_form(label):
    label = (label or "").strip()
    m = CAPTAIN.match(label)
    if m:
        return "captain", {"line": "ns" if m.group(1) == "N/S" else "ew", "table": int(m.group(2))}
    if label == "sistema":
        return "system", {}
    m = ARBITER.match(label)
    if m:
        return "arbiter", {"name": m.group(1)}
    return "", None


def convert_actors(apps, schema_editor):
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    batch = []
    for entry in AuditEntry.objects.filter(actor_code="").only("id", "actor").iterator(chunk_size=2000):
        code, params = actor_form(entry.actor)
        if code:
            entry.actor_code, entry.actor_params = code, params
            batch.append(entry)
        if len(batch) >= 2000:
            AuditEntry.objects.bulk_update(batch, ["actor_code", "actor_params"])
            batch = []
    if batch:
        AuditEntry.objects.bulk_update(batch, ["actor_code", "actor_params"])


def clear_actors(apps, schema_editor):
    """Backwards: the text ``actor`` was never changed; nothing to undo."""


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0009_groups'),
    ]

    operations = [
        migrations.AddField(
            model_name='auditentry',
            name='actor_code',
            field=models.CharField(blank=True, default='', max_length=20),
        ),
        migrations.AddField(
            model_name='auditentry',
            name='actor_params',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='scoresheet',
            name='draft',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(convert_actors, clear_actors),
    ]
