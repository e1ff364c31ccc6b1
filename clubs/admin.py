from django.contrib import admin

from .models import Club, ClubRole, FederationRole


class ClubRoleInline(admin.TabularInline):
    model = ClubRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "city", "federation_code")
    search_fields = ("name", "slug", "city", "federation_code")
    inlines = [ClubRoleInline]


@admin.register(ClubRole)
class ClubRoleAdmin(admin.ModelAdmin):
    list_display = ("user", "club", "role")
    list_filter = ("role", "club")
    search_fields = ("user__username", "club__name", "club__slug")


@admin.register(FederationRole)
class FederationRoleAdmin(admin.ModelAdmin):
    list_display = ("user", "granted_at")
    search_fields = ("user__username",)
