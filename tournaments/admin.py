"""Admin (/admin/, superusers and staff with permissions): arbiter accounts are made in
Django's own «Utenti» section (or ``manage.py create_arbiter``); here a superuser sees which
arbiters direct each tournament and can change them (a tournament belongs to its arbiters).
Everything that changes results goes through the arbiter's pages and ``tournaments.services``, so the
tournament's own settings are read-only here."""
from django.contrib import admin

from .models import Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "date", "venue", "created_by")
    search_fields = ("name", "slug", "arbiters__username")
    filter_horizontal = ("arbiters",)
    fields = ("name", "slug", "date", "venue", "created_by", "arbiters")
    readonly_fields = ("name", "slug", "date", "venue", "created_by")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
