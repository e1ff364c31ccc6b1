from django.urls import path

from . import views

app_name = "clubs"

urlpatterns = [
    path("scegli/", views.choose, name="choose"),
    path("<slug:slug>/arbitri/", views.arbiters, name="arbiters"),
]
