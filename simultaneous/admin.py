"""The operator's view of simultaneous evenings (rules.md §20): settings are set by
``manage.py simultaneous create``; here the public switches are turned on or off."""
from django.contrib import admin

from .models import Participation, SimultaneousEvent


@admin.register(SimultaneousEvent)
class SimultaneousEventAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "date", "kind", "plan", "hands_per_round", "vp_scale", "public_enabled")
    readonly_fields = ("kind", "plan", "hands_per_round", "vp_scale", "tiebreaks", "bye_percent", "bye_mp", "date",
                       "prize_list")
    filter_horizontal = ("clubs",)


@admin.register(Participation)
class ParticipationAdmin(admin.ModelAdmin):
    list_display = ("event", "club", "tournament")
    readonly_fields = ("event", "club", "tournament")
