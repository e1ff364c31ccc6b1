"""The money pages of a tournament, under ``/tornei/<slug>/cassa/`` (arbiters of the tournament only)."""
from django.urls import path

from . import views

urlpatterns = [
    path("", views.cash_desk, name="money"),
    path("rendiconto.pdf", views.sheet_pdf, name="money_sheet_pdf"),
    path("rendiconto.xlsx", views.sheet_xlsx, name="money_sheet_xlsx"),
]
