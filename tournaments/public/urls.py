"""URL patterns of the players' pages (under /p/), read-only, switched on by the arbiter."""
from django.urls import path

from . import player_views, views

urlpatterns: list = [
    path("<slug:slug>/", views.public_page, name="public"),
    path("<slug:slug>/proiettore/", views.projector, name="projector"),
    path("<slug:slug>/orologio/", views.projector_clock, name="projector_clock"),
    path("<slug:slug>/cerca/", player_views.search_view, name="player_search"),
    path("<slug:slug>/<str:word>/<int:number>/", player_views.entrant_view, name="player_page"),
    path("<slug:slug>/orologio/stato/", views.projector_clock_state, name="projector_clock_state"),
]
