"""URL patterns of the public pages (included under /tornei/<slug>/ unless said otherwise)."""
from django.urls import path  # noqa: F401

urlpatterns: list = []
