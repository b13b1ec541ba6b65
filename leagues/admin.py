"""/admin/ for leagues: the site's superuser's alone (a league spans clubs, so no club admin's scope reaches it —
club.admin_scope.SuperuserOnlyAdmin). The pages make a league (`/leagues/new/`) and run its clubs and series."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from club.admin_scope import SuperuserOnlyAdmin
from leagues.models import League, LeagueClub, LeagueManager


class LeagueManagerInline(admin.TabularInline):
    model = LeagueManager
    extra = 0
    raw_id_fields = ["user"]


@admin.register(League)
class LeagueAdmin(SuperuserOnlyAdmin, SimpleHistoryAdmin):
    list_display = ["name", "created"]
    search_fields = ["name"]
    inlines = [LeagueManagerInline]


@admin.register(LeagueManager)
class LeagueManagerAdmin(SuperuserOnlyAdmin, SimpleHistoryAdmin):
    list_display = ["league", "user"]
    list_select_related = ["league", "user"]
    search_fields = ["league__name", "user__username"]
    raw_id_fields = ["user"]


@admin.register(LeagueClub)
class LeagueClubAdmin(SuperuserOnlyAdmin, SimpleHistoryAdmin):
    list_display = ["league", "club", "status", "changed"]
    list_filter = ["status", "league"]
    list_select_related = ["league", "club"]
    search_fields = ["league__name", "club__name"]
