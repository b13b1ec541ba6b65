from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from club.admin_scope import ClubScopedAdmin, administered_club_ids
from club.models import Club, Membership, Player, PlayerClaim


class ScopedClubFilter(admin.RelatedFieldListFilter):
    """The "club" filter of a changelist lists only the clubs the user administers."""

    def field_choices(self, field, request, model_admin):
        ids = administered_club_ids(request.user)
        return [(pk, name) for pk, name in super().field_choices(field, request, model_admin) if ids is None or pk in ids]


@admin.register(Club)
class ClubAdmin(ClubScopedAdmin, admin.ModelAdmin):
    club_path = ""
    list_display = ["name", "city", "created"]
    search_fields = ["name", "city"]

    # A club admin edits his club's name, city and default rule set; creating or deleting clubs is the site owner's.
    def has_add_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser


@admin.register(Player)
class PlayerAdmin(ClubScopedAdmin, SimpleHistoryAdmin):
    list_display = ["nickname", "club", "city", "active", "user", "joined"]
    list_filter = [("club", ScopedClubFilter), "active"]
    search_fields = ["nickname", "real_name", "user__username"]
    list_select_related = ["club", "user"]

    def get_readonly_fields(self, request, obj=None):
        # Linking a login to a player goes through the site (the player's claim, or "create a login" on his
        # profile): a club admin may not hand a player to an arbitrary login here.
        readonly = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            readonly.append("user")
        return readonly


@admin.register(Membership)
class MembershipAdmin(ClubScopedAdmin, SimpleHistoryAdmin):
    list_display = ["user", "role", "club", "created"]
    list_filter = [("club", ScopedClubFilter), "role"]
    search_fields = ["user__username"]
    list_select_related = ["club", "user"]


@admin.register(PlayerClaim)
class PlayerClaimAdmin(ClubScopedAdmin, admin.ModelAdmin):
    club_path = "player__club"
    list_display = ["user", "player", "status", "created", "decided_by", "decided_at"]
    list_filter = ["status"]
    search_fields = ["user__username", "player__nickname"]
    list_select_related = ["user", "player", "decided_by"]
    # Decisions go through the site's claims page (it links the login); here they are read only.
    readonly_fields = ["user", "player", "status", "created", "decided_by", "decided_at"]
