"""The federation's view (rules.md §20): every club's tournaments of a period with their
state, the 10-day deadline list, the download of a period's results, read-only, by hand."""
import csv
import datetime
import io

import pytest
from django.utils import timezone
from openpyxl import load_workbook

from clubs.models import Club, ClubRole, FederationRole, default_club
from tests.championships.helpers import pairs_evening
from tournaments import services
from tournaments.models import AuditEntry, ResultsDownload, Round, Tournament
from tournaments.selectors import federation as reads
from tournaments.services.federation import record_results_download

pytestmark = pytest.mark.django_db

SERRA, SANTORO = ("Serra", "Anna", "402616"), ("Santoro", "Marta", "402617")
BIANCHI, VERDI = ("Bianchi", "Carla", ""), ("=Verdi", "Dario", "402619")
HEAD = ["Tessera", "Cognome", "Nome", "Circolo", "Posizione", "Pari merito", "Numero", "VP", "Scarto MP",
        "Partecipanti", "Torneo", "Data", "Circolo organizzatore", "Nome dell'arbitro",
        "Circolo del torneo", "Codice federale del circolo"]


def closed_days_ago(t: Tournament, days: int) -> None:
    """Move the instant ``t``'s rounds closed to ``days`` days ago (hand-made data)."""
    Round.objects.filter(tournament=t).update(closed_at=timezone.now() - datetime.timedelta(days=days))


@pytest.fixture
def world(django_user_model):
    """Two clubs (codes RM01, FI02); in «Circolo» ``old`` closed 11 days ago (never downloaded)
    and ``done`` closed 11 days ago (downloaded); in «Borgo» ``recent`` closed 9 days ago and
    ``playing`` in play (round 1 published of a one-round plan)."""
    today = timezone.localdate()
    a = default_club()
    a.federation_code = "RM01"
    a.save()
    b = Club.objects.create(name="Borgo", slug="borgo", federation_code="FI02")
    arb_a = django_user_model.objects.create_user(username="arb-a", password="x-Pass-1234")
    arb_b = django_user_model.objects.create_user(username="arb-b", password="x-Pass-1234")
    ClubRole.objects.create(user=arb_a, club=a)
    ClubRole.objects.create(user=arb_b, club=b)
    fed = django_user_model.objects.create_user(username="fed", password="x-Pass-1234")
    FederationRole.objects.create(user=fed)
    old = pairs_evening(arb_a, "old", today - datetime.timedelta(days=12), [(SERRA, SANTORO), (BIANCHI, VERDI)],
                        {1: 15, 2: 5})
    done = pairs_evening(arb_a, "done", today - datetime.timedelta(days=12),
                         [(("Neri", "Ugo", "1"), ("Gialli", "Ada", "2")), (("Blu", "Eva", "3"), ("Rosa", "Ivo", "4"))],
                         {1: 12, 2: 8})
    recent = pairs_evening(arb_b, "recent", today - datetime.timedelta(days=10),
                           [(("Mori", "Lia", "7"), ("Sala", "Teo", "8")), (("Riva", "Rita", "9"), ("Pace", "Gino", ""))],
                           {1: 10, 2: 10})
    playing = services.create_tournament(by=arb_b, name="Serata playing", slug="playing", date=today, plan="M",
                                         hands_per_round=4, vp_scale="vp20-4h")
    for k in (1, 2):
        services.add_pair(tournament=playing, by=arb_b, players=[
            services.PlayerData(last_name=f"P{k}", first_name="A", membership_number=""),
            services.PlayerData(last_name=f"Q{k}", first_name="B", membership_number="")])
    rnd = services.generate_round(tournament=playing, by=arb_b)
    services.publish_round(round=rnd, by=arb_b, acknowledge_warnings=True)
    for t in (old, done):
        closed_days_ago(t, 11)
    closed_days_ago(recent, 9)
    assert record_results_download(done, arb_a, "csv", now=timezone.now() - datetime.timedelta(days=1))
    return {"a": a, "b": b, "arb_a": arb_a, "arb_b": arb_b, "fed": fed, "old": old, "done": done,
            "recent": recent, "playing": playing}


def test_deadline_lists_only_the_closed_and_never_downloaded_beyond_10_days(world):
    assert [r.slug for r in reads.overdue_rows()] == ["old"]  # done downloaded, recent 9 days, playing open


def test_period_rows_carry_club_kind_state_and_download(world):
    rows = {r.slug: r for r in reads.period_rows(timezone.localdate() - datetime.timedelta(days=30),
                                                timezone.localdate())}
    assert set(rows) == {"old", "done", "recent", "playing"}
    assert [rows[s].closed for s in ("old", "done", "recent", "playing")] == [True, True, True, False]
    assert (rows["recent"].club_name, rows["recent"].club_code, rows["recent"].kind) == ("Borgo", "FI02", "A coppie")
    assert rows["done"].downloaded_by == "arb-a" and rows["old"].downloaded_at is None


def test_page_shows_state_downloads_and_the_deadline_section(client, world):
    client.force_login(world["fed"])
    response = client.get("/federazione/")
    assert response.status_code == 200
    html = response.content.decode()
    overdue = html[html.index('id="federation-overdue"'):html.index('id="federation-tournaments"')]
    assert 'data-slug="old"' in overdue and 'data-slug="done"' not in overdue and 'data-slug="recent"' not in overdue
    listing = html[html.index('id="federation-tournaments"'):]
    assert listing.count("<tr data-slug=") == 4
    assert "in corso" in listing and "da arb-a" in listing and "non scaricato" in listing


def test_first_download_by_the_arbiter_is_recorded_once_and_only_when_closed(client, world):
    client.force_login(world["arb_a"])
    before = timezone.now()
    assert client.get("/tornei/old/documenti/federazione.xlsx").status_code == 200
    first = ResultsDownload.objects.get(tournament=world["old"])
    assert first.downloaded_by == world["arb_a"] and first.file_format == "xlsx" and first.downloaded_at >= before
    client.get("/tornei/old/documenti/federazione.csv")
    assert ResultsDownload.objects.get(tournament=world["old"]).downloaded_at == first.downloaded_at
    assert reads.overdue_rows() == []
    client.force_login(world["arb_b"])
    assert client.get("/tornei/playing/documenti/federazione.csv").status_code == 200
    assert not ResultsDownload.objects.filter(tournament=world["playing"]).exists()  # provisional: not counted


def test_download_of_a_period_csv_and_xlsx(client, world):
    client.force_login(world["fed"])
    today = timezone.localdate()
    query = f"?dal={(today - datetime.timedelta(days=12)).isoformat()}&al={today.isoformat()}"
    text = b"".join(client.get("/federazione/risultati.csv" + query).streaming_content).decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0] == HEAD
    # closed tournaments only (playing is not), by date then club then name: done, old (12 days
    # ago, Circolo), recent (10 days ago, Borgo); 4 players each
    assert len(lines) == 1 + 12
    assert [line[10] for line in lines[1::4]] == ["Serata done", "Serata old", "Serata recent"]
    day = (today - datetime.timedelta(days=12)).isoformat()
    assert lines[5] == ["402616", "Serra", "Anna", "", "1", "", "1", "15", "0", "2", "Serata old", day, "", "",
                        "Circolo", "RM01"]
    # recent: 10–10, both entrants first and shared; the CSV's «=» gets the file's apostrophe
    assert lines[9][4:6] == ["1", "'="] and lines[9][14:] == ["Borgo", "FI02"]
    response = client.get("/federazione/risultati.xlsx" + query)
    ws = load_workbook(io.BytesIO(b"".join(response.streaming_content))).active
    rows = [list(r) for r in ws.values]
    assert rows[0] == HEAD and len(rows) == 13
    assert rows[5] == ["402616", "Serra", "Anna", None, 1, None, 1, 15, 0, 2, "Serata old", day, None, None,
                       "Circolo", "RM01"]
    assert rows[8][1] == "=Verdi" and ws.cell(row=9, column=2).data_type == "s"  # text, never a formula
    assert lines[8][1] == "'=Verdi"


def test_period_outside_leaves_tournaments_out_and_a_bad_period_gets_a_sentence(client, world):
    client.force_login(world["fed"])
    today = timezone.localdate()
    text = b"".join(client.get(f"/federazione/risultati.csv?dal={today.isoformat()}&al={today.isoformat()}")
                    .streaming_content).decode("utf-8-sig")
    assert text.count("\r\n") == 1  # headings only: playing is in play
    html = client.get("/federazione/?dal=2026-12-31&al=2026-01-01").content.decode()
    assert "La data iniziale viene dopo quella finale." in html
    response = client.get("/federazione/?dal=ieri&al=2026-01-01")
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert "al massimo di un anno" in client.get("/federazione/risultati.csv?dal=2024-01-01&al=2026-01-01").content.decode()


def test_federation_role_is_read_only(client, world):
    client.force_login(world["fed"])
    counts = (ResultsDownload.objects.count(), AuditEntry.objects.count(), Tournament.objects.count())
    for url in ("/federazione/", "/federazione/risultati.csv", "/federazione/risultati.xlsx"):
        assert client.post(url, {"dal": "2026-01-01"}).status_code == 405
    client.get("/federazione/risultati.csv")
    # the federation changes no tournament: a tournament's pages are not its own
    assert client.get("/tornei/old/impostazioni/").status_code == 404
    assert client.post("/tornei/old/impostazioni/", {"name": "cambiato"}).status_code == 404
    assert client.get("/tornei/old/documenti/federazione.csv").status_code == 404
    assert (ResultsDownload.objects.count(), AuditEntry.objects.count(), Tournament.objects.count()) == counts
    assert Tournament.objects.get(slug="old").name == "Serata old"


def test_an_arbiter_and_a_manager_are_refused_and_an_anonymous_visitor_sent_to_login(client, world):
    ClubRole.objects.filter(user=world["arb_b"]).update(role=ClubRole.Role.MANAGER)
    for user in (world["arb_a"], world["arb_b"]):
        client.force_login(user)
        for url in ("/federazione/", "/federazione/risultati.csv", "/federazione/risultati.xlsx"):
            assert client.get(url).status_code == 404
    client.logout()
    assert client.get("/federazione/").status_code == 302


def test_page_in_english(client, world, settings):
    client.force_login(world["fed"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get("/federazione/").content.decode()
    for text in ("Federation: the clubs", "Beyond 10 days", "Results file", "not downloaded",
                 "downloaded on", "closed tournaments:"):
        assert text in html, text
    assert "Oltre i 10 giorni" not in html and "non scaricato" not in html
