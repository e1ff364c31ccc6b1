"""URL patterns of the VP scale pages, mounted at ``/tabelle-vp/`` (not per tournament:
a custom scale can serve every tournament)."""
from django.urls import path

from .views import scales

urlpatterns = [
    path("", scales.scale_list, name="scales"),
    path("nuova/", scales.scale_create, name="scale_create"),
    path("importa/", scales.scale_upload, name="scale_upload"),
    path("<slug:scale_id>/cancella/", scales.scale_delete, name="scale_delete"),
]
