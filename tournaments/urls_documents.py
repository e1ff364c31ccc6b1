"""URL patterns of the documents pages (included under /tornei/<slug>/ unless said otherwise)."""
from django.urls import path  # noqa: F401

urlpatterns: list = []
