"""Merging two members, and erasing one on request (rules.md §16; personal data)."""
import datetime
import json
import sqlite3

import pytest

from members import services as member_services
from members.models import Member, MemberEvent
from members.services import MemberError
from tournaments import services
from tournaments.models import AuditEntry, Player
from tournaments.transfer import backups, export_tournament

from .helpers import pair

pytestmark = pytest.mark.django_db


def _evening(arbiter, slug, day, players):
    t = services.create_tournament(by=arbiter, name=slug, slug=slug, date=datetime.date(2026, 12, day))
    services.add_pair(tournament=t, by=arbiter, players=players)
    return t


def test_merge_moves_every_evening_to_the_kept_member_and_is_audited(arbiter):
    _evening(arbiter, "gio-1", 3, pair(("Rossi", "Mario", "111"), ("Neri", "Ada")))
    _evening(arbiter, "gio-2", 10, pair(("Rosi", "Mario"), ("Neri", "Ada")))  # misspelt: a second member
    keep = Member.objects.get(membership_number="111")
    twin = Member.objects.get(name_key="rosi mario")
    kept = member_services.merge_members(keep=keep, merged=twin, by=arbiter)
    assert sorted(kept.players.values_list("tournament__slug", flat=True)) == ["gio-1", "gio-2"]
    assert not Member.objects.filter(pk=twin.pk).exists()
    event = MemberEvent.objects.get(action="members_merged")
    assert (event.member_id, event.details["merged"], event.details["evenings_moved"], event.actor) == (
        keep.pk, twin.pk, 1, "arbitro")


def test_merge_takes_the_number_of_the_merged_member_when_the_kept_has_none(arbiter):
    _evening(arbiter, "gio-1", 3, pair(("Rossi", "Mario"), ("Neri", "Ada")))
    _evening(arbiter, "gio-2", 10, pair(("Rossi", "Mario", "111"), ("Bruno", "Elia")))
    nameless = Member.objects.get(name_key="rossi mario", membership_number__isnull=True)
    numbered = Member.objects.get(membership_number="111")
    kept = member_services.merge_members(keep=nameless, merged=numbered, by=arbiter)
    assert kept.membership_number == "111" and kept.players.count() == 2


def test_two_members_who_played_the_same_evening_are_not_merged(arbiter):
    _evening(arbiter, "gio-1", 3, pair(("Rossi", "Mario", "1"), ("Rossi", "Maria", "2")))
    a, b = Member.objects.get(membership_number="1"), Member.objects.get(membership_number="2")
    with pytest.raises(MemberError, match="hanno giocato entrambi in «gio-1»"):
        member_services.merge_members(keep=a, merged=b, by=arbiter)
    with pytest.raises(MemberError):
        member_services.merge_members(keep=a, merged=a, by=arbiter)


def _fake_sqlite_copy(path, member_id, tournament_id):
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE tournaments_player (id INTEGER PRIMARY KEY, last_name TEXT, first_name TEXT, "
        "membership_number TEXT, club TEXT, member_id INTEGER);"
        "CREATE TABLE members_member (id INTEGER PRIMARY KEY, last_name TEXT, first_name TEXT, name_key TEXT, "
        "membership_number TEXT, club TEXT, category TEXT, expires_on TEXT);"
        "CREATE TABLE tournaments_auditentry (id INTEGER PRIMARY KEY, tournament_id INTEGER, old TEXT, new TEXT, "
        "reason TEXT);")
    db.execute("INSERT INTO tournaments_player VALUES (1, 'Rossi', 'Mario', '111', 'Aurora', ?)", [member_id])
    db.execute("INSERT INTO members_member VALUES (?, 'Rossi', 'Mario', 'rossi mario', '111', 'Aurora', 'Dame', "
               "'2026-12-31')", [member_id])
    db.execute("INSERT INTO tournaments_auditentry VALUES (1, ?, NULL, ?, '')",
               [tournament_id, json.dumps({"players": ["Rossi Mario", "Neri Ada"]})])
    db.commit()
    db.close()


def test_erasure_renames_him_in_every_tournament_audit_and_backup(arbiter, settings):
    t1 = _evening(arbiter, "gio-1", 3, pair(("Rossi", "Mario", "111"), ("Neri", "Ada")))
    t2 = _evening(arbiter, "gio-2", 10, pair(("Bruno", "Elia"), ("Rossi", "Mario", "111")))
    member = Member.objects.get(membership_number="111")
    member.category, member.expires_on = "Seniores", datetime.date(2027, 1, 1)
    member.save()
    json_backup = backups.backup_before_delete(t1)
    copy = backups.backup_dir() / "arbitro-20261203T210000Z.sqlite3"
    _fake_sqlite_copy(copy, member.pk, t1.pk)
    assert "Rossi" in json_backup.read_text()

    member_services.erase_member(member=member, by=arbiter)

    label = f"Socio cancellato #{member.pk}"
    for t in (t1, t2):
        p = Player.objects.get(tournament=t, member=member)
        assert (p.display_name, p.membership_number, p.club) == (label, "", "")
    assert t1.pairs.get().name == "Socio cancellato – Neri"
    added = AuditEntry.objects.get(tournament=t1, action="pair_added")
    assert added.new["players"] == [label, "Neri Ada"]
    member.refresh_from_db()
    assert (member.display_name, member.membership_number, member.category, member.expires_on) == (
        label, None, "", None)
    text = json_backup.read_text()
    assert "Rossi" not in text and '"111"' not in text
    assert label in text and "Neri" in text
    db = sqlite3.connect(copy)
    assert db.execute("SELECT last_name, first_name, membership_number FROM tournaments_player").fetchone() == (
        "Socio cancellato", f"#{member.pk}", "")
    assert db.execute("SELECT last_name, membership_number, category FROM members_member").fetchone() == (
        "Socio cancellato", None, "")
    assert json.loads(db.execute("SELECT new FROM tournaments_auditentry").fetchone()[0])["players"][0] == label
    db.close()
    event = MemberEvent.objects.get(action="member_erased")
    assert (event.actor, event.member_id, event.details) == ("arbitro", member.pk, {})
    assert "Rossi" not in export_tournament(t2).decode()


def test_an_erased_member_is_never_proposed_nor_linked_by_name_again(arbiter):
    from members import selectors

    _evening(arbiter, "gio-1", 3, pair(("Rossi", "Mario"), ("Neri", "Ada")))
    member = Member.objects.get(name_key="rossi mario")
    member_services.erase_member(member=member, by=arbiter)
    assert selectors.search("socio") == []
    _evening(arbiter, "gio-2", 10, pair(("Socio cancellato", f"#{member.pk}"), ("Neri", "Bice")))
    assert Player.objects.get(tournament__slug="gio-2", first_name=f"#{member.pk}").member_id != member.pk
    with pytest.raises(MemberError):
        member_services.erase_member(member=member, by=arbiter)


def test_export_of_a_members_data(arbiter):
    _evening(arbiter, "gio-1", 3, pair(("Rossi", "Mario", "111"), ("Neri", "Ada")))
    data = member_services.export_member_data(Member.objects.get(membership_number="111"))
    assert data["member"]["membership_number"] == "111"
    assert [(e["slug"], e["date"], e["last_name"]) for e in data["evenings"]] == [("gio-1", "2026-12-03", "Rossi")]


def test_erasure_reaches_a_closed_round_and_its_standings(published, arbiter):
    """The ``published`` fixture's pair 1 (Rossi1 Anna1, A1) plays round 1, closed here; the
    erasure renames him in that closed round's tournament and its audit entries."""
    t1, t2 = published.tables.filter(bye="").order_by("number")
    services.save_score_sheet(table=t1, hands=[services.HandInput(600, 0)] + [services.HandInput(0, 0)] * 3,
                              by=arbiter, validate=True)
    services.save_score_sheet(table=t2, hands=[services.HandInput(0, 0)] * 4, by=arbiter, validate=True)
    services.close_round(round=published, by=arbiter)
    member = Member.objects.get(membership_number="A1")
    member_services.erase_member(member=member, by=arbiter)
    player = Player.objects.get(member=member)
    assert player.display_name == f"Socio cancellato #{member.pk}"
    assert player.pair.name == "Socio cancellato – Verdi1"
    assert not AuditEntry.objects.filter(tournament=published.tournament, new__icontains="Rossi1").exists()
    assert "Rossi1" not in str(list(AuditEntry.objects.values_list("old", "new", "reason")))


def test_erasure_blanks_his_number_in_a_membership_number_field(arbiter, client):
    """A pair's entry lists the players' membership numbers («tessere»): after the erasure his
    number is blank there (the Registro shows "—"), never his «Socio cancellato #id» label."""
    from django.urls import reverse

    t = _evening(arbiter, "gio-1", 3, pair(("Rossi", "Mario", "111"), ("Neri", "Ada", "510016")))
    services.update_pair(pair=t.pairs.get(), by=arbiter, players=pair(("Rossi", "Mario", "111"), ("Neri", "Ada", "510016")),
                         number=7)
    member = Member.objects.get(membership_number="111")
    member_services.erase_member(member=member, by=arbiter)
    entry = AuditEntry.objects.get(tournament=t, action="pair_updated")
    assert entry.old["membership_numbers"] == entry.new["membership_numbers"] == ["", "510016"]
    assert entry.new["players"] == [f"Socio cancellato #{member.pk}", "Neri Ada"]
    client.force_login(arbiter)
    body = client.get(reverse("audit", args=["gio-1"])).content.decode()
    assert "tessere: —, 510016" in body and "111" not in body.split('id="audit"')[1]
    assert f"tessere: Socio cancellato #{member.pk}" not in body


def test_registro_shows_no_name_in_an_older_entrys_membership_numbers(arbiter, client):
    """An entry erased before numbers were blanked holds the label in «tessere»: shown as "—"."""
    from django.urls import reverse

    t = _evening(arbiter, "gio-1", 3, pair(("Neri", "Ada", "510016"), ("Bruno", "Elia")))
    AuditEntry.objects.create(tournament=t, actor="sistema", actor_code="system", actor_params={},
                              action="pair_updated", new={"number": 1, "players": ["Socio cancellato #73", "Neri Ada"],
                                                          "membership_numbers": ["Socio cancellato #73", "510016"]})
    client.force_login(arbiter)
    body = client.get(reverse("audit", args=["gio-1"])).content.decode()
    assert "tessere: —, 510016" in body and "tessere: Socio cancellato" not in body
