from django.urls import path

from . import views

app_name = "members"

urlpatterns = [
    path("", views.registry, name="registry"),
    path("cerca/", views.search_json, name="search"),
    path("nuovo/", views.member_add, name="add"),
    path("importa/", views.list_import, name="import"),
    path("<int:pk>/", views.member_detail, name="detail"),
    path("<int:pk>/unisci/", views.member_merge, name="merge"),
    path("<int:pk>/dati.json", views.member_export, name="export"),
    path("<int:pk>/cancella/", views.member_erase, name="erase"),
]
