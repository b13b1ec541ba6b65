from django.contrib import admin

from club.admin import ScopedClubFilter
from club.admin_scope import ClubScopedAdmin
from ratings.models import Lot, Season
from ratings.standings.services import season_changed


@admin.register(Season)
class SeasonAdmin(ClubScopedAdmin, admin.ModelAdmin):
    list_display = ["name", "club", "start", "end"]
    list_filter = [("club", ScopedClubFilter)]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        season_changed(obj)  # the season's table and history follow its new dates


@admin.register(Lot)
class LotAdmin(ClubScopedAdmin, admin.ModelAdmin):
    club_path = "tournament__club"
    list_display = ["tournament", "player", "number"]
    readonly_fields = ["number", "drawn_at"]
