"""Audit entries written by a captain are stored with their actor in machine form and read
in the reader's language (the stored text stays as written); migration 0010 gives entries
written before their machine form where the label is recognised."""
import json

from django.urls import reverse
from django.utils import translation

from tournaments.models import AuditEntry
from tournaments.templatetags.audit import actor_text

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]


def captain_save(client, table, line="ns", version=0, hands=HANDS):
    return client.post(reverse("captain_save", args=[table.token]), content_type="application/json",
                       data=json.dumps({"line": line, "hands": hands, "version": version, "declared": None}))


def test_english_reader_sees_english_audit_labels_written_by_a_captain(other_client, arbiter_client, tables):
    captain_save(other_client, tables[3])
    entry = AuditEntry.objects.get(action="sheet_saved", table_number=3)
    assert (entry.actor_code, entry.actor_params) == ("captain", {"line": "ns", "table": 3})
    assert entry.actor == "capitano N/S tavolo 3"  # the stored text stays as written
    arbiter_client.cookies["django_language"] = "en"
    page = arbiter_client.get(reverse("audit", args=["prova"]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "N/S captain, table 3" in page and "capitano N/S tavolo 3" not in page
    italian = arbiter_client.get(reverse("audit", args=["prova"]), HTTP_ACCEPT_LANGUAGE="it")
    # Italian reader (cookie removed) sees the Italian label
    arbiter_client.cookies["django_language"] = "it"
    assert "capitano N/S tavolo 3" in arbiter_client.get(reverse("audit", args=["prova"])).content.decode()
    assert italian.status_code == 200


def test_actor_text_in_both_languages():
    with translation.override("en"):
        assert actor_text("captain", {"line": "ew", "table": 12}) == "E/W captain, table 12"
        assert actor_text("arbiter", {"name": "rossi"}) == "rossi (arbiter)"
        assert actor_text("system", {}) == "system"
        assert actor_text("", None, "qualcuno") == "qualcuno"
    with translation.override("it"):
        assert actor_text("captain", {"line": "ew", "table": 12}) == "capitano E/O tavolo 12"


def test_migration_converts_existing_italian_labels(tournament):
    """0010_desk_edges: entries written before (text only) get their machine form where the
    label is recognised; an unknown label stays text."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("tournaments.migrations.0010_desk_edges")
    old = [AuditEntry.objects.create(tournament=tournament, actor=label, action="sheet_saved")
           for label in ("capitano E/O tavolo 5", "rossi (arbitro)", "sistema", "Mario al bar")]
    AuditEntry.objects.filter(pk__in=[e.pk for e in old]).update(actor_code="", actor_params=None)
    migration.convert_actors(apps, None)
    got = {e.actor: (e.actor_code, e.actor_params) for e in AuditEntry.objects.filter(pk__in=[e.pk for e in old])}
    assert got == {
        "capitano E/O tavolo 5": ("captain", {"line": "ew", "table": 5}),
        "rossi (arbitro)": ("arbiter", {"name": "rossi"}),
        "sistema": ("system", {}),
        "Mario al bar": ("", None),
    }
    with translation.override("en"):
        assert actor_text(*got["capitano E/O tavolo 5"]) == "E/W captain, table 5"


def test_a_call_from_a_table_reads_in_the_readers_language_and_counts_as_a_captain(other_client, arbiter_client,
                                                                                  tables):
    """A call sent before the captain chose his line is written by «tavolo 3»: stored in machine
    form, read «table 3» in English, and found under the «table captains» filter."""
    other_client.post(reverse("captain_call", args=[tables[3].token]), data=json.dumps({"reason": "card"}),
                      content_type="application/json")
    entry = AuditEntry.objects.get(action="arbiter_called", table_number=3)
    assert (entry.actor, entry.actor_code, entry.actor_params) == ("tavolo 3", "table", {"table": 3})
    url = reverse("audit", args=["prova"])
    assert "<td>tavolo 3</td>" in arbiter_client.get(url).content.decode()
    assert "<td>tavolo 3</td>" in arbiter_client.get(url + "?who=captain").content.decode()
    arbiter_client.cookies["django_language"] = "en"
    english = arbiter_client.get(url).content.decode()
    assert "<td>table 3</td>" in english and "tavolo 3" not in english
    assert '<option value="captain"' in english


def test_an_older_entry_of_a_table_reads_in_english_too(arbiter_client, tournament):
    """An entry written before the table's machine form (actor text only) is read the same way."""
    AuditEntry.objects.create(tournament=tournament, actor="tavolo 4", action="arbiter_called", table_number=4)
    AuditEntry.objects.filter(actor="tavolo 4").update(actor_code="", actor_params=None)
    arbiter_client.cookies["django_language"] = "en"
    assert "<td>table 4</td>" in arbiter_client.get(reverse("audit", args=["prova"])).content.decode()
