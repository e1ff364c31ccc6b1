"""Championship URLs: ``/campionati/…`` for the arbiter, ``/campionato/<slug>/…`` public.
Neither prefix is a tournament's (``/tornei/``, ``/p/``), so slugs never clash."""
from django.urls import path

from . import views

urlpatterns = [
    path("campionati/", views.championship_list, name="championships"),
    path("campionati/<slug:slug>/", views.championship_detail, name="championship"),
    path("campionati/<slug:slug>/aggiungi/", views.championship_add, name="championship_add"),
    path("campionati/<slug:slug>/togli/<slug:tournament>/", views.championship_remove, name="championship_remove"),
    path("campionati/<slug:slug>/circoli/invita/", views.circuit_invite, name="circuit_invite"),
    path("campionati/<slug:slug>/circoli/<slug:club>/accetta/", views.circuit_accept, name="circuit_accept"),
    path("campionati/<slug:slug>/circoli/<slug:club>/lascia/", views.circuit_leave, name="circuit_leave"),
    path("campionati/<slug:slug>/classifica.pdf", views.championship_pdf, name="championship_pdf"),
    path("campionati/<slug:slug>/classifica.xlsx", views.championship_xlsx, name="championship_xlsx"),
    path("campionato/<slug:slug>/", views.public_page, name="championship_public"),
    path("campionato/<slug:slug>/proiettore/", views.projector, name="championship_projector"),
]
