"""The team captains' slips (rules.md §15): one slip per team with the captain's line-up
link as a QR code and in full, cut from an A4 sheet of six, as the table links are for the
table captains. Plain values in, HTML and PDF out (like :mod:`tournaments.printing.documents`)."""
from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string

from ..captains import links
from ..models import Tournament
from .documents import html_to_pdf, long_date


@dataclass(frozen=True)
class TeamSlip:
    """One slip: the team's number and name, its captain's name ("" when none), the link
    and its QR code (a PNG data URI)."""

    number: int
    name: str
    captain: str
    url: str
    qr_src: str


def team_slips(tournament: Tournament, *, number: int | None = None, request=None) -> list[TeamSlip]:
    """The slips of every team of ``tournament`` by number, or of team ``number`` only
    (an empty list when it has no such team)."""
    teams = tournament.teams.select_related("captain").order_by("number")
    if number is not None:
        teams = teams.filter(number=number)
    slips = []
    for team in teams:
        url = links.team_captain_url(team, request)
        slips.append(TeamSlip(number=team.number, name=team.name,
                              captain=team.captain.display_name if team.captain else "",
                              url=url, qr_src=links.qr_png_uri(url)))
    return slips


def team_slips_html(tournament: Tournament, slips: list[TeamSlip]) -> str:
    """HTML (A4, six slips a page in two columns, dashed cut lines) of ``slips``."""
    return render_to_string("print/team_slips.html", {
        "tournament": tournament.name, "date_text": long_date(tournament.date), "slips": slips})


def team_slips_pdf(tournament: Tournament, slips: list[TeamSlip]) -> bytes:
    """PDF of :func:`team_slips_html`."""
    return html_to_pdf(team_slips_html(tournament, slips))
