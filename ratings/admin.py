from django.contrib import admin

from ratings.models import Lot, Season
from ratings.services import season_changed


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "start", "end"]
    list_filter = ["club"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        season_changed(obj)  # the season's table and history follow its new dates


@admin.register(Lot)
class LotAdmin(admin.ModelAdmin):
    list_display = ["tournament", "player", "number"]
    readonly_fields = ["number", "drawn_at"]
