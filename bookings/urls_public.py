"""The public booking page and the private links, under /prenota/ (no account)."""
from django.urls import path

from . import views

urlpatterns = [
    path("<slug:slug>/", views.book_page, name="booking_public"),
    path("<slug:slug>/<str:token>/", views.private_page, name="booking_private"),
]
