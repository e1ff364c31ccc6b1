"""The Registro reads as Italian words (and English when the UI is English): one test that plays,
through the services, every audit action the apps write (collected from their source, as
test_audit_readable.py collects the labels) and renders the Registro of each tournament.

In Italian no value may show an internal English word (a call's state, a prize scope, a
boolean…) nor a Python repr (``{'``, ``['``, ``': ``): a new arbiter's season found
«open → taken → resolved» and ``{'prize': …, 'scope': 'overall'}``.
"""
import ast
import datetime
import html
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.i18n.conftest import english_catalogue  # noqa: F401 (the compiled English catalogue)
from tests.tournaments.helpers import audit_constants
from tests.tournaments.individual_helpers import register
from tournaments import services, transfer
from tournaments.captains import pins
from tournaments.models import AuditEntry, Pair, Player, Seat, Table, Team
from tournaments.services import Actor, HandInput, PlayerData
from tournaments.services import prizes as prize_services
from tournaments.services.lateness import record_lateness, undo_lateness

# the apps that write the tournaments' audit trail (members keep their own events, not in the Registro)
ROOTS = [Path(settings.BASE_DIR) / app for app in ("tournaments", "championships")]
#: English words an Italian Registro must not show as a value (whole words, case-sensitive for
#: the Python literals): call states, prize scopes, sheet states, booleans, None.
ENGLISH = ("open", "taken", "resolved", "overall", "category", "group", "True", "False", "None", "null",
           "true", "false", "entered", "confirmed", "validated", "disputed", "empty", "draft", "published",
           "closed", "rest", "forced", "forfeit", "snake", "hand", "transcription", "arbitral", "card",
           "dispute", "yes", "pair", "player", "team", "table", "round", "withdrawn", "late", "lot", "danish",
           "captain", "system", "arbiter", "prize", "scope", "cells", "parts", "state", "number", "name")
#: An internal code (``public_enabled``, ``h1_ns``, ``round_robin``): lower case words joined by "_".
CODE = re.compile(r"(?<![\w/.-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/.-])")
REPR = ("{'", "['", "': ", "{\"", "[\"")


def audited_actions() -> set[str]:
    """Every action code the apps' source writes to the audit trail: ``action="…"`` keyword
    arguments (also ``x if … else y``), positional arguments of helpers whose parameter is
    ``action``, values assigned to a variable ``action`` and the values of a mapping named
    ``…_ACTIONS`` (``services.withdrawals``)."""
    codes = set()
    for root in ROOTS:
        for path in root.rglob("*.py"):
            if {"migrations", "management", "templatetags"} & set(path.parts):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            slots = {fn.name: [a.arg for a in fn.args.posonlyargs + fn.args.args].index("action")
                     for fn in ast.walk(tree) if isinstance(fn, ast.FunctionDef)
                     and "action" in [a.arg for a in fn.args.posonlyargs + fn.args.args]}
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    codes |= {c for kw in node.keywords if kw.arg == "action" for c in audit_constants(kw.value)}
                    name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                    if name in slots and len(node.args) > slots[name]:
                        codes |= audit_constants(node.args[slots[name]])
                elif isinstance(node, ast.Assign):
                    names = [getattr(t, "id", "") for t in node.targets]
                    if "action" in names:
                        codes |= audit_constants(node.value)
                    if any(n.endswith("_ACTIONS") for n in names) and isinstance(node.value, ast.Dict):
                        codes |= {c for v in node.value.values for c in audit_constants(v)}
    return codes


def test_the_scan_finds_the_ways_actions_are_written():
    assert {"arbiter_call_taken", "arbiter_call_resolved",          # a variable ``action``
            "pair_withdrawal_undone", "team_withdrawal_undone",     # a mapping _ACTIONS
            "championship_added", "clock_started",                  # another app; a helper's argument
            "sheet_validated_unconfirmed", "prize_list"} <= audited_actions()


WIN = [HandInput(600, 200), HandInput(400, 150), HandInput(250, 300), HandInput(300, 195)]    # 1550–845


def pairs_evening(arbiter):
    """A pair tournament through most of the actions: settings, pairs, import, rounds, clock,
    sheets in every state, corrections, penalties, withdrawals, calls, PINs, prizes, groups."""
    from tournaments.registrations import reading

    t = services.create_tournament(by=arbiter, name="Registro", slug="registro", date=datetime.date(2026, 12, 3),
                                   plan="MMMM")
    services.update_tournament(tournament=t, by=arbiter, public_enabled=True, venue="Circolo")
    for k in range(1, 7):
        services.add_pair(tournament=t, by=arbiter, players=[
            PlayerData(first_name=f"Anna{k}", last_name=f"Rossi{k}", membership_number=f"51001{k}"),
            PlayerData(first_name=f"Bruno{k}", last_name=f"Verdi{k}")])
    services.update_pair(pair=t.pairs.get(number=6), by=arbiter, number=8, players=[
        PlayerData(first_name="Anna6", last_name="Rossi6", membership_number="510016"),
        PlayerData(first_name="Bruno6", last_name="Verdi6")])
    services.remove_pair(pair=t.pairs.get(number=8), by=arbiter)
    services.update_pair(pair=t.pairs.get(number=1), by=arbiter, players=[   # pair 1's entry lists 510011
        PlayerData(first_name="Anna1", last_name="Rossi1", membership_number="510011"),
        PlayerData(first_name="Bruno Uno", last_name="Verdi1")])
    parsed = reading.parse("coppie.csv", "numero;cognome_1;nome_1;cognome_2;nome_2\n6;Neri;Carla;Gialli;Dario\n"
                                 "7;Galli;Ada;Monti;Ugo\n".encode(), existing_numbers=[1, 2, 3, 4, 5])
    services.import_pairs(tournament=t, rows=parsed.rows, by=arbiter)
    services.add_arbiter(tournament=t, username=make_user("vice").username, by=arbiter)
    prize_services.set_prize_list(tournament=t, by=arbiter, prizes=[
        {"prize": "1° assoluto", "scope": "overall"}, {"prize": "1ª Dame", "scope": "category:Dame"},
        {"prize": "1° girone 2", "scope": "group:2"}])

    r1 = services.generate_round(tournament=t, by=arbiter)
    services.swap_pairs(round=r1, pair_a=1, pair_b=2, by=arbiter)
    r1 = services.publish_round(round=r1, by=arbiter, acknowledge_warnings=True)
    # 7 pairs: the late pair 8 takes the resting pair's table (art. 33)
    services.add_late_pair(tournament=t, by=arbiter, players=[PlayerData("Zeno", "Tardi"), PlayerData("Ugo", "Ritardo")])
    services.start_clock(round=r1, by=arbiter)
    services.pause_clock(round=r1, by=arbiter)
    services.resume_clock(round=r1, by=arbiter)
    services.add_clock_minutes(round=r1, minutes=2, by=arbiter)
    tables = list(r1.tables.filter(bye="").order_by("number"))
    assert len(tables) == 4
    services.give_table_extra_time(table=tables[0], round=r1, minutes=3, by=arbiter)
    Table.objects.filter(round=r1).update(pin="9731")

    # table 1: a captain's call, taken and resolved; his sheet confirmed by the other line
    captain_ns, captain_ew = Actor("capitano N/S tavolo 1"), Actor("capitano E/O tavolo 1")
    call, _new = services.call_arbiter(table=tables[0], by=captain_ns, reason="card")
    services.take_call(call_id=call.pk, rnd=r1, by=arbiter)
    services.resolve_call(call_id=call.pk, rnd=r1, by=arbiter)
    services.save_score_sheet(table=tables[0], hands=WIN, by=captain_ns)
    services.confirm_sheet(table=tables[0], by=captain_ew, device=("852287f9aa11bb22", "e6114dcf00112233"))
    services.validate_sheet(table=tables[0], by=arbiter)
    services.unvalidate_sheet(table=tables[0], by=arbiter, reason="ricontrollo")
    services.validate_sheet(table=tables[0], by=arbiter)
    # table 2: disputed, validated without the other line's confirmation
    services.save_score_sheet(table=tables[1], hands=WIN, by=Actor("capitano N/S tavolo 2"))
    services.dispute_sheet(table=tables[1], by=Actor("capitano E/O tavolo 2"), note="smazzata 3 sbagliata")
    services.validate_sheet(table=tables[1], by=arbiter, reason="verificato")
    # table 3: the arbiter's half-typed grid kept then thrown away, then the sheet
    services.save_sheet_draft(table=tables[2], cells={"h1_ns_base": "500", "h1_ns_cards": "100", "declared_ew": "845"},
                              parts=True, by=arbiter)
    services.discard_sheet_draft(table=tables[2], by=arbiter)
    services.save_score_sheet(table=tables[2], hands=WIN, by=arbiter, validate=True)
    # table 4: a pair 20 minutes late (rules.md §22, a forfeit), then the lateness undone
    late = Seat.objects.filter(round=r1, table=tables[3]).values_list("pair__number", flat=True).first()
    record_lateness(round=r1, pair_number=late, minutes=20, by=arbiter)
    undo_lateness(round=r1, pair_number=late, by=arbiter)
    services.save_score_sheet(table=tables[3], hands=WIN, by=arbiter, validate=True)
    # PINs: a table locked by wrong tries, the whole page too, both unlocked
    for _try in range(pins.TABLE_MAX_WRONG):
        pins.open_table_by_pin(tournament=t, table_number=str(tables[0].number), pin="0000")
    for _try in range(pins.TOURNAMENT_MAX_WRONG):
        pins.open_table_by_pin(tournament=t, table_number="99", pin="0000")
    pins.unlock_table_pin(table=tables[0], by=arbiter)
    pins.unlock_tournament_pin(tournament=t, by=arbiter)
    r1 = services.close_round(round=r1, by=arbiter)
    services.reopen_round(round=r1, by=arbiter, reason="errore di chiusura")
    r1 = services.close_round(round=r1, by=arbiter)
    # after closing: a correction, swapped lines, an arbitral score, penalties
    services.save_score_sheet(table=tables[2], hands=WIN[:3] + [HandInput(100, 195)], by=arbiter,
                              kind="transcription", reason="letto male")
    services.swap_sheet_lines(table=tables[1], by=arbiter, reason="linee invertite")
    services.set_arbitral_score(table=tables[0], by=arbiter, vp_ns=Decimal(12), vp_ew=Decimal(8), reason="art. 15")
    services.add_penalty(pair=t.pairs.get(number=1), vp=1, reason="ritardo", by=arbiter)
    services.add_penalty(pair=t.pairs.get(number=2), mp=50, reason="cellulare", by=arbiter)
    services.remove_penalty(penalty=t.pairs.get(number=2).penalties.get(), by=arbiter, reason="errore")
    # round 2: a withdrawal and its undoing on the draft
    r2 = services.generate_round(tournament=t, by=arbiter)
    pair3 = t.pairs.get(number=3)
    services.withdraw_pair(pair=pair3, from_round=2, by=arbiter, reason="malore")
    r2 = services.redraw_round(round=r2, by=arbiter)
    services.undo_withdrawal(entrant=Pair.objects.get(pk=pair3.pk), by=arbiter, reason="rientrata")
    services.update_tournament(tournament=t, by=arbiter, public_enabled=False, prizes_cumulative=True)
    # the season: in a championship and out again; a copy from its file; a member erased
    from championships import services as championship_services
    from members import services as member_services
    from members.models import Member

    season = championship_services.create_championship(by=arbiter, slug="sociale", name="Sociale",
                                                       tournaments=[t.slug])
    championship_services.remove_tournament(championship=season, by=arbiter, tournament=t)
    transfer.import_tournament(data=transfer.export_tournament(t), slug="registro-copia", owner=arbiter, by=arbiter)
    member_services.erase_member(member=Member.objects.get(membership_number="510011"), by=arbiter)
    return t


def idle_pairs(arbiter):
    """7 pairs; pair 1 withdraws during round 1: its opponent's forced rest and the resting
    pair sit together (rules.md §5)."""
    t = services.create_tournament(by=arbiter, name="Sette", slug="sette", date=datetime.date(2026, 12, 3))
    for k in range(1, 8):
        services.add_pair(tournament=t, by=arbiter, players=[PlayerData(f"A{k}", f"Sette{k}"),
                                                             PlayerData(f"B{k}", f"Otto{k}")])
    r1 = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    services.withdraw_pair(pair=t.pairs.get(number=1), from_round=1, by=arbiter)
    services.seat_idle_pairs_together(round=r1, by=arbiter)
    return t


def groups(arbiter):
    """8 pairs split in two groups, snake (rules.md §14)."""
    t = services.create_tournament(by=arbiter, name="Gironi", slug="gironi", date=datetime.date(2026, 12, 3),
                                   plan="DDD")
    for k in range(1, 9):
        services.add_pair(tournament=t, by=arbiter, players=[PlayerData(f"A{k}", f"Gir{k}"),
                                                             PlayerData(f"B{k}", f"One{k}")])
    services.split_groups(tournament=t, by=arbiter, count=2, method="snake")
    return t


def individual(arbiter):
    """An individual tournament (rules.md §9): players added and removed, round 1 by hand,
    two players swapped, a late player, a withdrawal undone, a player's penalty."""
    t = services.create_tournament(by=arbiter, name="Individuale", slug="individuale", kind="individual",
                                   date=datetime.date(2026, 12, 3), plan="DDD")
    register(t, arbiter, 12)
    services.remove_player(player=Player.objects.get(tournament=t, number=12), by=arbiter)
    r1 = services.generate_round(tournament=t, by=arbiter)
    services.set_first_round_by_hand(round=r1, text="1+2 v 3+4\n5+6 v 7+8", by=arbiter)
    services.swap_players(round=r1, player_a=1, player_b=9, by=arbiter)
    r1 = services.publish_round(round=r1, by=arbiter, acknowledge_warnings=True)
    services.add_late_player(tournament=t, by=arbiter, player=PlayerData("Tardi", "Vo"))
    player = Player.objects.get(tournament=t, number=5)
    services.withdraw_player(player=player, from_round=2, by=arbiter, reason="malore")
    services.undo_withdrawal(entrant=Player.objects.get(pk=player.pk), by=arbiter, reason="rientrato")
    services.add_player_penalty(player=Player.objects.get(tournament=t, number=2), reason="ritardo", vp=1, by=arbiter)
    # rules.md §22: player 3's line forfeits table 1, then it is undone; player 6 is 7 minutes late
    record_lateness(round=r1, pair_number=3, minutes=12, by=arbiter)
    undo_lateness(round=r1, pair_number=3, by=arbiter)
    record_lateness(round=r1, pair_number=6, minutes=7, by=arbiter)
    return t


def teams(arbiter):
    """A team tournament (rules.md §15): teams, a captain, a line-up, a late team, a forfeit
    undone, a withdrawal undone."""
    from tests.teams.helpers import players

    t = services.create_tournament(by=arbiter, name="Squadre", slug="squadre", kind="teams",
                                   date=datetime.date(2026, 12, 3), plan="RRRRR", hands_per_round=4,
                                   vp_scale="vp20-4h")
    for k in range(1, 6):
        services.add_team(tournament=t, name=f"Squadra {k}", players=players(f"T{k}p"), by=arbiter)
    team = Team.objects.get(tournament=t, number=1)
    members = [p.pk for p in team.members.order_by("last_name")]
    services.set_team_captain(team=team, player=team.members.get(pk=members[0]), by=arbiter)
    services.set_lineup(team=team, pairs=[[members[0], members[2]], [members[1], members[3]]], by=arbiter)
    r1 = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    services.add_late_team(tournament=t, name="Tardi", players=players("L"), by=arbiter)
    match = r1.matches.filter(bye="").order_by("number").first()
    services.forfeit_match(match=match, team=match.team_b, by=arbiter, reason="tre giocatori")
    services.undo_forfeit(match=type(match).objects.get(pk=match.pk), by=arbiter, reason="arrivato il quarto")
    services.withdraw_team(team=Team.objects.get(tournament=t, number=2), from_round=2, by=arbiter, reason="malore")
    services.undo_withdrawal(entrant=Team.objects.get(tournament=t, number=2), by=arbiter, reason="rientrata")
    # rules.md §22: the late team loses both tables of its match, then it is undone
    record_lateness(round=r1, pair_number=match.team_b.number, minutes=11, by=arbiter)
    undo_lateness(round=r1, pair_number=match.team_b.number, by=arbiter)
    return t


def make_user(name):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=name, password="segreta-123")


def registro(client, slug) -> str:
    response = client.get(reverse("audit", args=[slug]))
    assert response.status_code == 200
    body = response.content.decode()
    return html.unescape(body.split('id="audit"', 1)[1].split("</table>", 1)[0])





def play_every_action(arbiter) -> list[str]:
    """Run the scenarios; the slugs of the tournaments whose Registro shows them."""
    pairs_evening(arbiter)
    idle_pairs(arbiter)
    groups(arbiter)
    individual(arbiter)
    teams(arbiter)
    return ["registro", "registro-copia", "sette", "gironi", "individuale", "squadre"]


def english_in(text: str) -> list[str]:
    """The words of :data:`ENGLISH`, the reprs of :data:`REPR` and the codes (:data:`CODE`)
    found in ``text``."""
    found = [w for w in ENGLISH if re.search(rf"(?<![\w-]){w}(?![\w-])", text)]
    return found + [r for r in REPR if r in text] + CODE.findall(text)


@pytest.mark.slow  # plays a whole season's actions: about 3 s
def test_every_action_reads_as_italian_words_and_english_in_english(arbiter_client, arbiter,
                                                                    english_catalogue):  # noqa: F811
    slugs = play_every_action(arbiter)
    # every action the services write is in one of these trails (a new action: add it above)
    assert audited_actions() - set(AuditEntry.objects.values_list("action", flat=True)) == set()
    shown = {}
    for slug in slugs:
        table = registro(arbiter_client, slug)
        text = re.sub(r"<[^>]+>", " ", table)
        shown[slug] = text
        assert english_in(text) == [], (slug, english_in(text))
    # what a new arbiter's season found, now in words
    evening = shown["registro"]
    assert "stato: chiamata" in evening and "stato: l'arbitro arriva" in evening and "stato: risolta" in evening
    assert "premi: 1° assoluto | assoluto; 1ª Dame | categoria:Dame; 1° girone 2 | girone:2" in evening
    assert "tessere: —, —" in evening and "Socio cancellato #" in evening   # pair 1's 510011 blanked
    assert "510011" not in evening
    assert "ritardo di 12 minuti; giocatore 3; partita persa a tavolino: tavolo 1: N/S 12 VP, scarto +305; " \
           "E/O 6 VP, scarto −705" in shown["individuale"]
    assert "ritardo di 7 minuti; giocatore 6; penalità di 100 MP" in shown["individuale"]
    assert re.search(r"ritardo di 11 minuti; squadra \d+; partita persa a tavolino: tavolo \d+: .* · tavolo \d+:",
                     shown["squadre"])
    assert not re.search(r"tessere: Socio cancellato", evening)
    # the arbiter's draft of a sheet, by the grid's labels (each cell alone: jsonb may reorder keys)
    for cell in ("Smazzata 1 base N/S 500", "Smazzata 1 carte N/S 100", "Totale dichiarato E/O 845", "; base + carte"):
        assert cell in evening, cell

    # the same values in English
    arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    evening = re.sub(r"<[^>]+>", " ", registro(arbiter_client, "registro"))
    assert "status: called" in evening and "status: the arbiter is coming" in evening and "status: resolved" in evening
    assert "prizes: 1° assoluto | overall; 1ª Dame | category:Dame; 1° girone 2 | group:2" in evening
    assert "l'arbitro arriva" not in evening and "categoria:Dame" not in evening
    assert "Hand 1 base N/S 500" in evening and "base + cards" in evening


def test_the_check_finds_what_the_trial_found():
    """The issue's own examples are caught (so a passing Registro is not a blind check)."""
    assert english_in("stato: open → taken → resolved") == ["open", "taken", "resolved"]
    assert english_in("premi: {'prize': '1° assoluto', 'scope': 'overall'}") == [
        "overall", "prize", "scope", "{'", "': "]
    assert english_in("pagina pubblica attiva: sì; public_enabled: True") == ["True", "public_enabled"]
    assert english_in("smazzata 1 N/S 600; arbitro (arbitro); tavolo 2; Mitchell") == []
