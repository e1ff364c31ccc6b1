"""Simultaneous evenings' URLs (rules.md §20): ``/simultanei/…`` for arbiters,
``/simultaneo/<slug>/…`` public; neither prefix is a tournament's or a championship's."""
from django.urls import path

from . import views

app_name = "simultaneous"
urlpatterns = [
    path("simultanei/", views.event_list, name="list"),
    path("simultanei/<slug:slug>/torneo/", views.create_tournament, name="create_tournament"),
    path("simultanei/<slug:slug>/federazione.csv", views.federation_csv, name="federation_csv"),
    path("simultaneo/<slug:slug>/", views.public_page, name="public"),
    path("simultaneo/<slug:slug>/proiettore/", views.projector, name="projector"),
]
