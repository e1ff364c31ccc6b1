"""URL patterns of the printed documents (included under /tornei/<slug>/), login required."""
from django.urls import path

from . import views

urlpatterns: list = [
    path("documenti/turno-<int:number>/tabellone.pdf", views.tablelist_pdf, name="tablelist_pdf"),
    path("documenti/turno-<int:number>/score.pdf", views.scoresheets_pdf, name="scoresheets_pdf"),
    path("documenti/turno-<int:number>/score.xlsx", views.scoresheets_xlsx, name="scoresheets_xlsx"),
    path("documenti/turno-<int:number>/pacchetto/", views.print_pack_start, name="print_pack_start"),
    path("documenti/turno-<int:number>/pacchetto/<str:key>/", views.print_pack, name="print_pack"),
    path("documenti/turno-<int:number>/pacchetto/<str:key>/stato.json", views.print_pack_status,
         name="print_pack_status"),
    path("documenti/turno-<int:number>/pacchetto/<str:key>.pdf", views.print_pack_pdf, name="print_pack_pdf"),
    path("documenti/capitani-squadre.pdf", views.team_slips_pdf, name="team_slips_pdf"),
    path("documenti/classifica.pdf", views.standings_pdf, name="standings_pdf"),
    path("documenti/classifica.xlsx", views.standings_xlsx, name="standings_xlsx"),
    # one document too big to render inside the request, rendered by a background job
    path("documenti/stampa/<str:key>/", views.print_job, name="print_job"),
    path("documenti/stampa/<str:key>/stato.json", views.print_job_status, name="print_job_status"),
    path("documenti/stampa/<str:key>.pdf", views.print_job_pdf, name="print_job_pdf"),
]
