from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from club.models import Club, Membership, Player, PlayerClaim


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "created"]
    search_fields = ["name", "city"]


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["nickname", "club", "city", "active", "user", "joined"]
    list_filter = ["club", "active"]
    search_fields = ["nickname", "real_name", "user__username"]
    list_select_related = ["club", "user"]


@admin.register(Membership)
class MembershipAdmin(SimpleHistoryAdmin):
    list_display = ["user", "role", "club", "created"]
    list_filter = ["club", "role"]
    search_fields = ["user__username"]
    list_select_related = ["club", "user"]


@admin.register(PlayerClaim)
class PlayerClaimAdmin(admin.ModelAdmin):
    list_display = ["user", "player", "status", "created", "decided_by", "decided_at"]
    list_filter = ["status"]
    search_fields = ["user__username", "player__nickname"]
    list_select_related = ["user", "player", "decided_by"]
    # Decisions go through the site's claims page (it links the login); here they are read only.
    readonly_fields = ["user", "player", "status", "created", "decided_by", "decided_at"]
