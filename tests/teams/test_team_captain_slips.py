"""The team captain's link (rules.md §15): on the team list as a QR code, and printed as one
slip per team (A4, six a page), like the table captains' links."""
from __future__ import annotations

import subprocess

from django.urls import reverse

from tournaments.captains import links
from tournaments.printing.team_slips import team_slips, team_slips_html


def _text(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                          check=True).stdout.decode()


def test_team_list_shows_each_captain_s_qr_and_slip(arbiter_client, make_teams_tournament):
    t = make_teams_tournament(3)
    html = arbiter_client.get(reverse("teams", args=[t.slug])).content.decode()
    slips = reverse("team_slips_pdf", args=[t.slug])
    assert html.count('<div class="team-qr"><svg') == 3
    assert f'href="{slips}?squadra=2"' in html and f'id="team-slips" href="{slips}"' in html
    team = t.teams.get(number=2)
    assert f'value="{links.team_captain_url(team)}"' in html.replace("http://testserver", "http://127.0.0.1:8000")


def test_slips_pdf_has_every_team_with_captain_and_link(arbiter_client, make_teams_tournament):
    t = make_teams_tournament(7)
    response = arbiter_client.get(reverse("team_slips_pdf", args=[t.slug]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = _text(response.content)
    slips = team_slips(t)
    html = team_slips_html(t, slips)
    for k in range(1, 8):
        team = t.teams.get(number=k)
        assert f"Squadra {k} · Squadra {k}" in text
        # the link in full on the slip (the PDF's text interleaves the two columns' wrapped links)
        assert f'<p class="slip-url">{links.team_captain_url(team)}</p>' in html
    assert "Capitano: T1p1 N1" in text
    assert text.count("\f") == 2  # 7 slips, six a page: two pages


def test_one_team_s_slip(arbiter_client, make_teams_tournament):
    t = make_teams_tournament(3)
    text = _text(arbiter_client.get(reverse("team_slips_pdf", args=[t.slug]), {"squadra": "3"}).content)
    assert "Squadra 3 · Squadra 3" in text and "Squadra 1 ·" not in text


def test_slips_refuse_unknown_teams_and_other_kinds(arbiter_client, make_teams_tournament, tournament, client):
    t = make_teams_tournament(3)
    url = reverse("team_slips_pdf", args=[t.slug])
    assert arbiter_client.get(url, {"squadra": "9"}).status_code == 404
    assert arbiter_client.get(url, {"squadra": "x1"}).status_code == 404
    assert arbiter_client.get(reverse("team_slips_pdf", args=[tournament.slug])).status_code == 404
    client.logout()
    assert client.get(url).status_code in (302, 403)
