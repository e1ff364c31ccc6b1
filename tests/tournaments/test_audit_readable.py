"""The audit page (Registro) speaks to the arbiter, not in internal codes:
every action has a label, keys have labels, device hashes are hidden, datetimes are local,
booleans read sì/no, a line-up says who partners whom, software reasons are stored in
Italian and shown in the reader's language, stored actors are translated."""
import ast
import datetime
import json
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.i18n.conftest import english_catalogue  # noqa: F401 (the compiled English catalogue)
from tests.tournaments.helpers import audit_constants
from tournaments import services, transfer
from tournaments.models import AuditEntry, Team
from tournaments.server import timesource
from tournaments.services import Actor, HandInput
from tournaments.templatetags.audit import ACTIONS

SOURCE = Path(settings.BASE_DIR) / "tournaments"
ISO_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def page(client, slug="prova", query=""):
    response = client.get(reverse("audit", args=[slug]) + query)
    assert response.status_code == 200
    return response.content.decode()


def english_page(client, slug="prova"):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    try:
        return page(client, slug)
    finally:
        del client.cookies[settings.LANGUAGE_COOKIE_NAME]


# --------------------------------------------------------------------------- 1. every action has a label


def written_actions() -> set[str]:
    """Every action code the app's source passes to the audit trail: ``action="…"`` keyword
    arguments (also inside ``x if … else y``) and positional arguments of helpers whose
    parameter is called ``action`` (``clock._act(rnd, by, "clock_started", …)``)."""
    codes = set()
    for path in SOURCE.rglob("*.py"):
        if "migrations" in path.parts or "management" in path.parts or "templatetags" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        slots = {}
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef):
                names = [a.arg for a in fn.args.posonlyargs + fn.args.args]
                if "action" in names:
                    slots[fn.name] = names.index("action")
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            for kw in call.keywords:
                if kw.arg == "action":
                    codes |= audit_constants(kw.value)
            name = getattr(call.func, "id", None) or getattr(call.func, "attr", None)
            if name in slots and len(call.args) > slots[name]:
                codes |= audit_constants(call.args[slots[name]])
    return codes


def test_every_action_the_services_write_has_a_label():
    codes = written_actions()
    # the scan sees the ways codes are written: a plain keyword, a conditional, a helper's argument
    assert {"tournament_imported", "lineup_set", "sheet_validated_unconfirmed", "sheet_corrected",
            "clock_started", "clock_minutes_added", "pin_table_locked"} <= codes
    assert codes - set(ACTIONS) == set(), "audit actions without a label in templatetags/audit.py ACTIONS"


def test_the_apps_write_every_action_through_the_enum():
    """An action written as a bare string could be a typo no label (and no filter) knows."""
    bare = []
    for root in ("tournaments", "money", "championships", "bookings"):
        for path in (Path(settings.BASE_DIR) / root).rglob("*.py"):
            if {"migrations", "management"} & set(path.parts):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "audit":
                    bare += [f"{path.name}:{node.lineno}" for kw in node.keywords
                             if kw.arg == "action" and isinstance(kw.value, ast.Constant)]
    assert bare == []


def test_every_action_label_is_translated(english_catalogue):  # noqa: F811
    def labels(lang):
        with translation.override(lang):
            return {code: str(label) for code, label in ACTIONS.items()}

    italian, english = labels("it"), labels("en")
    untranslated = [code for code in ACTIONS if italian[code] == english[code]]
    assert untranslated == []


def test_no_raw_action_code_on_the_page(arbiter_client, arbiter, make_teams_tournament):  # noqa: F811
    t = make_teams_tournament(4)
    team = Team.objects.get(tournament=t, number=1)
    p = [x.pk for x in team.members.order_by("last_name")]
    services.set_lineup(team=team, pairs=[[p[0], p[1]], [p[2], p[3]]], by=arbiter)
    body = page(arbiter_client, t.slug)
    assert "Formazione della squadra" in body and "lineup_set" not in body
    assert "Squadra aggiunta" in body and "team_added" not in body


# --------------------------------------------------------------------------- 2. keys, hashes, datetimes, line-ups

def written_keys() -> set[str]:
    """Keys of the dict literals the services pass as an entry's ``old``/``new`` (``audit``)
    or build first in a variable ``old``/``new``/``extra``/``who``, and the sheet fields
    ``_transition`` stores in ``new`` (its extra keyword arguments)."""
    keys = set()
    for path in SOURCE.rglob("*.py"):
        if "migrations" in path.parts or "templatetags" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for assign in ast.walk(tree):
            if (isinstance(assign, ast.Assign) and isinstance(assign.value, ast.Dict)
                    and any(getattr(t, "id", None) in ("old", "new", "extra", "who") for t in assign.targets)):
                keys |= {k.value for k in assign.value.keys if isinstance(k, ast.Constant)}
        for call in ast.walk(tree):
            name = getattr(call.func, "id", None) if isinstance(call, ast.Call) else None
            if name not in ("audit", "_transition"):
                continue
            for kw in call.keywords:
                if kw.arg in ("old", "new", "audit_old", None):
                    keys |= {k.value for d in ast.walk(kw.value) if isinstance(d, ast.Dict)
                             for k in d.keys if isinstance(k, ast.Constant)}
                elif name == "_transition" and kw.arg not in ("allowed", "new_state", "action", "captain_ok",
                                                               "reason", "expected_version"):
                    keys.add(kw.arg)
    return keys


def test_every_key_the_services_write_has_a_label_or_is_hidden():
    from tournaments.templatetags.audit import DEVICE_KEYS, KEYS

    keys = written_keys()
    assert {"file_slug", "tokens_renewed", "confirm_device", "confirmed_by", "wrong"} <= keys  # the scan works
    sheet_keys = {"hands", "declared", "mp", "vp", "state"}  # read by the sheet renderer ("MP … · VP …")
    assert keys - set(KEYS) - set(DEVICE_KEYS) - sheet_keys == set()


def test_a_line_up_says_who_partners_whom(arbiter_client, arbiter, make_teams_tournament):  # noqa: F811
    t = make_teams_tournament(4)
    team = Team.objects.get(tournament=t, number=1)
    p = {x.last_name: x.pk for x in team.members.all()}
    services.set_lineup(team=team, pairs=[[p["T1p1"], p["T1p3"]], [p["T1p2"], p["T1p4"]]], by=arbiter)
    body = page(arbiter_client, t.slug)
    # players are shown "surname name" (conftest: surname T1p1, name N1)
    assert "squadra: 1; coppia 1: T1p1 N1 – T1p3 N3; coppia 2: T1p2 N2 – T1p4 N4" in body
    assert "coppie:" not in body


def test_a_captain_confirmation_hides_the_device_hashes(arbiter_client, arbiter, tournament, make_pairs):
    make_pairs(tournament, 4)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter)
    table = rnd.tables.get(number=1)
    hands = [HandInput(1230, 870), HandInput(0, 0), HandInput(0, 0), HandInput(0, 0)]
    services.save_score_sheet(table=table, hands=hands, by=Actor("capitano N/S tavolo 1"))
    services.confirm_sheet(table=table, by=Actor("capitano E/O tavolo 1"),
                           device=("852287f9aa11bb22cc33dd44ee55ff66", "e6114dcf00112233"))
    body = page(arbiter_client)
    assert "852287f9" not in body and "e6114dcf" not in body
    assert "confirm_device" not in body and "confirm_agent" not in body
    assert "dispositivo registrato" in body
    assert "confermato da: capitano E/O tavolo 1" in body
    english = english_page(arbiter_client)
    # 4. the stored actor text in the reader's language (actor_label)
    assert "capitano E/O tavolo 1" not in english and "capitano N/S tavolo 1" not in english
    assert "confirmed by: E/W captain, table 1" in english
    assert "device recorded" in english


def test_the_public_switch_reads_as_settings_and_yes_no(arbiter_client, arbiter, tournament):
    services.update_tournament(tournament=tournament, by=arbiter, public_enabled=True, projector_enabled=True)
    body = page(arbiter_client)
    assert "public_enabled" not in body and "projector_enabled" not in body
    assert "pagina pubblica attiva: no; vista proiettore attiva: no" in body
    assert "pagina pubblica attiva: sì; vista proiettore attiva: sì" in body
    english = english_page(arbiter_client)
    assert "public_enabled" not in english and ": yes" in english and ": sì" not in english


def test_a_clock_start_shows_local_time_not_utc_iso(arbiter_client, arbiter, tournament, make_pairs, monkeypatch):
    # 1 December 2026, 09:32:10 UTC; Rome is UTC+1 in winter (CET): 10:32:10 on the page
    monkeypatch.setattr(timesource, "now", lambda: datetime.datetime(2026, 12, 1, 9, 32, 10, 248286,
                                                                     tzinfo=datetime.timezone.utc))
    make_pairs(tournament, 4)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter)
    services.start_clock(round=rnd, by=arbiter)
    assert AuditEntry.objects.get(action="clock_started").new["at"].startswith("2026-12-01T09:32:10")
    body = page(arbiter_client)
    assert settings.TIME_ZONE == "Europe/Rome" and ZoneInfo("Europe/Rome").utcoffset(
        datetime.datetime(2026, 12, 1)) == datetime.timedelta(hours=1)
    assert "alle: 01/12 10:32:10" in body
    assert not ISO_DATETIME.search(body) and "+00:00" not in body


def test_an_import_shows_labels_not_internal_fields(arbiter_client, arbiter, tournament, make_pairs):
    make_pairs(tournament, 4)
    data = transfer.export_tournament(tournament)
    transfer.import_tournament(data=data, slug="prova-copia", owner=arbiter, by=arbiter)
    body = page(arbiter_client, "prova-copia")
    assert "Torneo importato da file" in body and "tournament_imported" not in body
    for raw in ("version:", "file_slug", "slug:", "file_name", "tokens_renewed", "team_tokens_renewed", "owner:"):
        assert raw not in body, raw
    # each key on its own: PostgreSQL's jsonb does not keep the order the keys were written in
    assert "indirizzo breve nel file: prova" in body and "indirizzo breve: prova-copia" in body
    assert "proprietario: arbitro" in body


def test_a_penalty_in_mp_is_not_read_as_a_score_sheet(arbiter_client, arbiter, tournament, make_pairs):
    """Regression: ``{"pair": 1, "mp": 50}`` went to the sheet renderer (MP as a pair) and broke the page."""
    make_pairs(tournament, 4)
    services.add_penalty(pair=tournament.pairs.get(number=1), mp=50, reason="ritardo", by=arbiter)
    body = page(arbiter_client)
    assert "Penalità assegnata" in body and "coppia: 1" in body


# --------------------------------------------------------------------------- 3. software reasons in Italian

def test_an_import_reason_is_stored_in_italian_and_shown_in_english(arbiter_client, arbiter, tournament):
    data = transfer.export_tournament(tournament)
    version = json.loads(data)["version"]
    transfer.import_tournament(data=data, slug="prova-copia", owner=arbiter, by=arbiter)
    entry = AuditEntry.objects.get(tournament__slug="prova-copia", action="tournament_imported")
    assert entry.reason == f"importato da file (versione {version})"
    assert f"importato da file (versione {version})" in page(arbiter_client, "prova-copia")
    english = english_page(arbiter_client, "prova-copia")
    assert f"imported from file (version {version})" in english
    assert "importato da file" not in english and "Tournament imported from a file" in english


@pytest.mark.parametrize("lang, expected", [("it", "importato da file (versione 2)"),
                                            ("en", "imported from file (version 2)")])
def test_an_old_english_import_reason_stays_readable(arbiter_client, tournament, lang, expected):
    AuditEntry.objects.create(tournament=tournament, actor="sistema", actor_code="system", actor_params={},
                              action="tournament_imported", reason="imported from file (version 2)")
    body = english_page(arbiter_client) if lang == "en" else page(arbiter_client)
    assert expected in body


def test_the_default_sum_error_reason_is_italian_and_translated(arbiter_client, arbiter, tournament, make_pairs):
    make_pairs(tournament, 4)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter)
    table = rnd.tables.get(number=1)
    hands = [HandInput(1230, 870), HandInput(0, 0), HandInput(0, 0), HandInput(0, 0)]
    services.save_score_sheet(table=table, hands=hands, declared=(1200, 870), by=arbiter)
    services.accept_declared_totals(table=table, by=arbiter)
    assert AuditEntry.objects.filter(reason="errore di somma: valgono le smazzate").exists()
    assert "sum error: the hands count" in english_page(arbiter_client)


def test_a_reason_the_arbiter_typed_is_shown_as_stored(arbiter_client, tournament):
    AuditEntry.objects.create(tournament=tournament, actor="sistema", actor_code="system", actor_params={},
                              action="round_reopened", reason="importato da file: errore mio")
    assert "importato da file: errore mio" in english_page(arbiter_client)


def test_a_played_pairs_spelling_fix_is_stored_in_italian_and_shown_in_english(arbiter_client, arbiter, published):
    """Art. 32 (rules.md §13): the allowed change is written by the software, so it is stored in
    Italian even when the arbiter works in English, and read in the reader's language."""
    from tournaments.services import PlayerData

    tournament = published.tournament
    for t in published.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=[HandInput(0, 0)] * 4, by=arbiter, validate=True)
    services.close_round(round=published, by=arbiter)
    pair = tournament.pairs.get(number=1)  # conftest: Rossi1 Anna1 (A1), Verdi1 Bruno1 (B1)
    with translation.override("en"):
        services.update_pair(pair=pair, by=arbiter, players=[
            PlayerData(first_name="Anna1", last_name="Rosssi1", membership_number="A1"),
            PlayerData(first_name="Bruno1", last_name="Verdi1", membership_number="B1")])
    entry = AuditEntry.objects.filter(action="pair_updated").latest("pk")
    assert entry.reason == "art. 32: grafia del nome: Rossi1 Anna1 → Rosssi1 Anna1"
    assert "art. 32: spelling of the name: Rossi1 Anna1 → Rosssi1 Anna1" in english_page(arbiter_client)
