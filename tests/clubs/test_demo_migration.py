"""The migration of a one-club database, the demo (rules.md §20: a club laptop stays as it is).

``tests/data/demo-before-clubs/`` was made with the code before the clubs (commit 23da4c8):
``seed_demo`` on an empty database, then ``dumpdata`` (``data.json``), ``export_tournament``
of its two tournaments (``export-*.json``) and, as the demo arbiter, every page reached by
following the links from the home page (at most two pages per URL pattern): its status,
redirect, ``<title>`` and ``<h1>``, and the body of a CSV download (``pages.json``).

The test migrates the test database back to the state before the clubs, loads the dump with
the models of that state, migrates forward and asks the same pages: they answer as they did,
the exports are byte-identical (an export carries no club), and no page names the club while
the server has one.
"""
import json
import re
from html import unescape
from pathlib import Path

import pytest
from django.core.serializers import python as python_serializer
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

DATA = Path(__file__).resolve().parents[1] / "data" / "demo-before-clubs"
BEFORE = [("members", "0003_membership_numbers_stored_form"), ("tournaments", "0022_membership_numbers_stored_form"),
          ("championships", "0002_evening_placings"), ("clubs", None)]
CLUB_NAME = "Circolo Zefiro"  # a name no page of the demo contains by itself


def _key_texts(response) -> dict:
    """What the recording kept of a page (the same rules as the recording script)."""
    kind = response.get("Content-Type", "").split(";")[0]
    out = {"status": response.status_code, "type": kind}
    if response.status_code in (301, 302):
        out["location"] = response["Location"]
    if kind == "text/csv":
        out["body"] = response.content.decode("utf-8-sig")
    if kind == "text/html" and response.status_code == 200:
        body = response.content.decode()
        for tag in ("title", "h1"):
            found = re.search(rf"<{tag}[^>]*>(.*?)</{tag}>", body, re.S)
            out[tag] = " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split()) if found else None
    return out


def _load_before_clubs(executor) -> None:
    """Load ``data.json`` into the pre-club schema with that state's historical models (the
    serializer looks models up in the global registry, which has today's models)."""
    applied = MigrationExecutor(connection).loader.applied_migrations
    old_apps = executor.loader.project_state(list(applied)).apps  # every app, as migrated now
    real_apps = python_serializer.apps
    python_serializer.apps = old_apps
    try:
        objects = json.loads((DATA / "data.json").read_text(encoding="utf-8"))
        for obj in python_serializer.Deserializer(objects):
            obj.save()
    finally:
        python_serializer.apps = real_apps


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_demo_migrated_into_one_club_answers_as_before(monkeypatch, client):
    monkeypatch.setenv("ARBITRO_CLUB_NAME", CLUB_NAME)
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)  # later migrations that depend on these are unapplied too
    try:
        _load_before_clubs(executor)
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        _check_demo(client)
    finally:  # the database as the other tests expect it, whatever happened
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


def _check_demo(client):
    from django.contrib.auth import get_user_model

    from clubs.models import Club
    from tournaments import transfer
    from tournaments.models import Tournament

    club = Club.objects.get()
    assert club.name == CLUB_NAME
    assert set(Tournament.objects.values_list("club", flat=True)) == {club.pk}

    for slug in ("demo", "prossima"):
        before = (DATA / f"export-{slug}.json").read_bytes()
        assert transfer.export_tournament(Tournament.objects.get(slug=slug)) == before, slug

    client.force_login(get_user_model().objects.get(username="arbitro"))
    pages = json.loads((DATA / "pages.json").read_text(encoding="utf-8"))
    assert len(pages) > 80
    differences = []
    for page in pages:
        response = client.get(page["url"])
        now = {"url": page["url"], **_key_texts(response)}
        if now != page:
            differences.append((page, now))
        if now["type"] == "text/html":  # neither its name nor its address (the manager's page link)
            body = response.content.decode()
            assert CLUB_NAME not in body and f"/circoli/{club.slug}/" not in body, page["url"]
    assert differences == []
