"""The arbiter's bookings pages, under /tornei/<slug>/prenotazioni/."""
from django.urls import path

from . import views

urlpatterns = [
    path("", views.arbiter_page, name="bookings_arbiter"),
    path("accoglienza/", views.check_in_page, name="bookings_check_in"),
    path("accoglienza/presente/", views.check_in, name="bookings_check_in_post"),
]
