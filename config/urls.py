from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic.base import RedirectView

urlpatterns = [
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("championships.urls")),
    path("", include("simultaneous.urls")),  # simultaneous evenings (rules.md §20)
    path("circoli/", include("clubs.urls")),  # the current club, a club's arbiters (rules.md §20)
    path("soci/", include("members.urls")),  # the member registry (rules.md §16), arbiters only
    path("tornei/<slug:slug>/cassa/", include("money.urls")),  # fees and the treasurer's sheet (§21)
    path("prenota/", include("bookings.urls_public")),  # bookings (rules.md §21), no account
    path("tornei/<slug:slug>/prenotazioni/", include("bookings.urls")),
    path("", include("tournaments.urls")),
]
