"""URL patterns of the captain pages (under /c/), reached by a table's private link.

``captain`` takes the table's token (``tournaments.captains.links.captain_url``); the JSON
endpoints hang below it so a token opens only its own table.
"""
from django.urls import path

from .views import captain, captain_call, teams

urlpatterns: list = [
    # issue 10: the PIN page is per tournament (/t/<slug>/pin/, in tournaments/urls.py);
    # the old common page redirects there or explains.
    path("", captain.pin_help, name="captain_pin_help"),
    path("squadra/<str:token>/", teams.team_captain, name="team_captain"),  # issue 15: line-up
    path("<str:token>/", captain.sheet_page, name="captain"),
    path("<str:token>/stato/", captain.sheet_state, name="captain_state"),
    path("<str:token>/salva/", captain.save_view, name="captain_save"),
    path("<str:token>/conferma/", captain.confirm_view, name="captain_confirm"),
    path("<str:token>/contesta/", captain.dispute_view, name="captain_dispute"),
    path("<str:token>/chiama/", captain_call.call_view, name="captain_call"),
]
