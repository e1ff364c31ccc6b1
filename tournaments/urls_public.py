"""URL patterns of the players' pages (under /p/), read-only, switched on by the arbiter."""
from django.urls import path

from .views import player, public

urlpatterns: list = [
    path("<slug:slug>/", public.public_page, name="public"),
    path("<slug:slug>/proiettore/", public.projector, name="projector"),
    path("<slug:slug>/orologio/", public.projector_clock, name="projector_clock"),
    path("<slug:slug>/cerca/", player.search_view, name="player_search"),
    path("<slug:slug>/<str:word>/<int:number>/", player.entrant_view, name="player_page"),
    path("<slug:slug>/orologio/stato/", public.projector_clock_state, name="projector_clock_state"),
]
