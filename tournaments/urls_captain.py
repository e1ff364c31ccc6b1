"""URL patterns of the captain pages (under /c/), reached by a table's private link."""
from django.http import Http404
from django.urls import path


def _placeholder(request, token):  # replaced by the captain views (issue 6)
    raise Http404


urlpatterns: list = [path("<str:token>/", _placeholder, name="captain")]
