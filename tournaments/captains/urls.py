"""URL patterns of the captain pages (under /c/), reached by a table's private link.

``captain`` takes the table's token (``tournaments.captains.links.captain_url``); the JSON
endpoints hang below it so a token opens only its own table.
"""
from django.urls import path

from . import call_views, pin_views, views, write_views

urlpatterns: list = [
    # The PIN page is per tournament (/t/<slug>/pin/, in tournaments/urls.py), so that wrong
    # PINs are counted per tournament; the old common page redirects there or explains.
    path("", pin_views.pin_help, name="captain_pin_help"),
    path("<str:token>/", views.sheet_page, name="captain"),
    path("<str:token>/stato/", views.sheet_state, name="captain_state"),
    path("<str:token>/salva/", write_views.save_view, name="captain_save"),
    path("<str:token>/conferma/", write_views.confirm_view, name="captain_confirm"),
    path("<str:token>/contesta/", write_views.dispute_view, name="captain_dispute"),
    path("<str:token>/chiama/", call_views.call_view, name="captain_call"),
]
