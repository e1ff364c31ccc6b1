"""``manage.py club …``, ``create_arbiter --club`` and ``--club`` on the commands that create
club data (rules.md §20): optional with one club, required with several (a sentence naming
them, exit code 1, no traceback)."""
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from clubs.models import Club, ClubRole, FederationRole, default_club
from members.models import Member

pytestmark = pytest.mark.django_db
DATA = Path(__file__).resolve().parent.parent / "data"
LIST = "tessera,cognome,nome\n1001,Serra,Anna\n"


def run(*args) -> str:
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture
def borgo():
    return Club.objects.create(name="Bridge Borgo", slug="borgo", city="Lucca", federation_code="LU01")


def test_club_create_and_list(tmp_path):
    run("club", "create", "borgo", "--name", "Bridge Borgo", "--city", "Lucca", "--code", "LU01")
    club = Club.objects.get(slug="borgo")
    assert (club.name, club.city, club.federation_code) == ("Bridge Borgo", "Lucca", "LU01")
    rows = json.loads(run("club", "list", "--json"))
    assert [r["slug"] for r in rows] == ["borgo", "circolo"]
    assert rows[0] | {} == {"slug": "borgo", "name": "Bridge Borgo", "city": "Lucca", "federation_code": "LU01",
                           "arbiters": [], "managers": []}
    assert "borgo\tBridge Borgo\tLucca\tLU01" in run("club", "list")


def test_club_create_refuses_a_taken_or_bad_slug(borgo):
    with pytest.raises(CommandError, match="già in uso"):
        run("club", "create", "borgo", "--name", "Altro")
    with pytest.raises(CommandError, match="non valido"):
        run("club", "create", "Borgo Due", "--name", "Altro")
    assert Club.objects.count() == 2


def test_add_and_remove_arbiters(borgo, django_user_model):
    django_user_model.objects.create_user("anna", password="x-Pass-1234")
    django_user_model.objects.create_user("bruno", password="x-Pass-1234")
    run("club", "add-arbiter", "borgo", "anna", "--manager")
    run("club", "add-arbiter", "borgo", "bruno")
    assert dict(ClubRole.objects.filter(club=borgo).values_list("user__username", "role")) == {
        "anna": "manager", "bruno": "arbiter"}
    rows = {r["slug"]: r for r in json.loads(run("club", "list", "--json"))}
    assert rows["borgo"]["arbiters"] == ["anna", "bruno"] and rows["borgo"]["managers"] == ["anna"]
    run("club", "remove-arbiter", "borgo", "bruno")
    with pytest.raises(CommandError, match="unico responsabile"):
        run("club", "remove-arbiter", "borgo", "anna")
    with pytest.raises(CommandError, match="non è arbitro"):
        run("club", "remove-arbiter", "borgo", "bruno")
    with pytest.raises(CommandError, match="Nessun utente"):
        run("club", "add-arbiter", "borgo", "carla")
    with pytest.raises(CommandError, match="Nessun circolo"):
        run("club", "add-arbiter", "nessuno", "anna")
    assert list(ClubRole.objects.values_list("user__username", flat=True)) == ["anna"]


def test_grant_federation(django_user_model):
    django_user_model.objects.create_user("fed", password="x-Pass-1234")
    run("club", "grant-federation", "fed")
    run("club", "grant-federation", "fed")  # again: nothing new
    assert list(FederationRole.objects.values_list("user__username", flat=True)) == ["fed"]
    with pytest.raises(CommandError, match="Nessun utente"):
        run("club", "grant-federation", "nessuno")


def test_create_arbiter_with_one_club_needs_no_club():
    run("create_arbiter", "anna", "--password", "x-Pass-1234")
    assert not ClubRole.objects.exists()  # belongs to the only club without a row
    run("create_arbiter", "bruno", "--password", "x-Pass-1234", "--manager")
    assert ClubRole.objects.get().role == "manager" and ClubRole.objects.get().club == default_club()


def test_create_arbiter_with_two_clubs_needs_one(borgo):
    with pytest.raises(CommandError, match="borgo, circolo"):
        run("create_arbiter", "anna", "--password", "x-Pass-1234")
    assert not get_user_model().objects.filter(username="anna").exists()  # nothing created
    run("create_arbiter", "anna", "--password", "x-Pass-1234", "--club", "borgo", "--manager")
    assert list(ClubRole.objects.values_list("user__username", "club__slug", "role")) == [
        ("anna", "borgo", "manager")]
    run("create_arbiter", "root", "--password", "x-Pass-1234", "--superuser")  # sees every club


def test_import_members_goes_to_the_named_club(borgo, tmp_path):
    path = tmp_path / "soci.csv"
    path.write_text(LIST)
    with pytest.raises(CommandError, match="più circoli"):
        run("import_members", str(path))
    assert not Member.objects.exists()
    run("import_members", str(path), "--club", "borgo")
    assert list(Member.objects.values_list("club__slug", "membership_number")) == [("borgo", "1001")]
    with pytest.raises(CommandError, match="Nessun circolo"):
        run("import_members", str(path), "--club", "nessuno")


def test_import_members_with_one_club_needs_no_club(tmp_path):
    path = tmp_path / "soci.csv"
    path.write_text(LIST)
    run("import_members", str(path))
    assert list(Member.objects.values_list("club__slug", flat=True)) == ["circolo"]


def test_simulate_belongs_to_the_named_club(borgo, tmp_path):
    args = ["simulate", "--registrations", str(DATA / "registrations-29.csv"), "--plan", "M", "--hands", "4",
            "--out", str(tmp_path), "--name", "Serata"]
    with pytest.raises(CommandError, match="più circoli"):
        run(*args)
    run(*args, "--club", "borgo")
    from tournaments.models import Tournament

    t = Tournament.objects.get()
    assert t.club == borgo
    # its players' members were made in the tournament's club
    assert set(Member.objects.values_list("club__slug", flat=True)) == {"borgo"}


def test_championship_create_and_seed_demo_and_import_registrations_refuse_without_club(borgo, tmp_path):
    with pytest.raises(CommandError, match="più circoli"):
        run("championship", "create", "camp", "--name", "Campionato")
    with pytest.raises(CommandError, match="più circoli"):
        run("seed_demo")
    with pytest.raises(CommandError, match="più circoli"):
        run("import_registrations", "demo", str(DATA / "registrations-29.csv"))
    with pytest.raises(CommandError, match="più circoli"):
        run("import_tournament", str(tmp_path / "none.json"))


def test_championship_create_in_the_named_club(borgo, django_user_model):
    owner = django_user_model.objects.create_user("anna", password="x-Pass-1234")
    ClubRole.objects.create(user=owner, club=borgo)
    run("championship", "create", "camp", "--name", "Campionato", "--owner", "anna", "--club", "borgo")
    from championships.models import Championship

    assert Championship.objects.get(slug="camp").club == borgo


def test_a_refusal_is_one_line_and_exit_code_1(borgo, capsys):
    from django.core.management import ManagementUtility

    with pytest.raises(SystemExit) as leaving:
        ManagementUtility(["manage.py", "club", "add-arbiter", "nessuno", "anna"]).execute()
    assert leaving.value.code == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.strip() == "CommandError: Nessun circolo «nessuno»."
