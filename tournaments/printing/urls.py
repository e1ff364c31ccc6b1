"""URL patterns of the printed documents (included under /tornei/<slug>/), login required."""
from django.urls import path

from . import views as documents

urlpatterns: list = [
    path("documenti/turno-<int:number>/tabellone.pdf", documents.tablelist_pdf, name="tablelist_pdf"),
    path("documenti/turno-<int:number>/score.pdf", documents.scoresheets_pdf, name="scoresheets_pdf"),
    path("documenti/turno-<int:number>/score.xlsx", documents.scoresheets_xlsx, name="scoresheets_xlsx"),
    path("documenti/turno-<int:number>/pacchetto/", documents.print_pack_start, name="print_pack_start"),
    path("documenti/turno-<int:number>/pacchetto/<str:key>/", documents.print_pack, name="print_pack"),
    path("documenti/turno-<int:number>/pacchetto/<str:key>/stato.json", documents.print_pack_status,
         name="print_pack_status"),
    path("documenti/turno-<int:number>/pacchetto/<str:key>.pdf", documents.print_pack_pdf, name="print_pack_pdf"),
    path("documenti/capitani-squadre.pdf", documents.team_slips_pdf, name="team_slips_pdf"),
    path("documenti/classifica.pdf", documents.standings_pdf, name="standings_pdf"),
    path("documenti/classifica.xlsx", documents.standings_xlsx, name="standings_xlsx"),
    # one document too big to render inside the request, rendered by a background job
    path("documenti/stampa/<str:key>/", documents.print_job, name="print_job"),
    path("documenti/stampa/<str:key>/stato.json", documents.print_job_status, name="print_job_status"),
    path("documenti/stampa/<str:key>.pdf", documents.print_job_pdf, name="print_job_pdf"),
]
