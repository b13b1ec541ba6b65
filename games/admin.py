"""The protocol models in the admin. A protocol is written through services (validation, scoring, audit), so the
game's own rows are read-only here; rule sets and tournaments are edited normally (a used rule-set version is
never changed in place: edit the club's copy on the site, which makes a new version)."""

from django.contrib import admin
from django.db.models import Q
from simple_history.admin import SimpleHistoryAdmin

from club.admin import ScopedClubFilter
from club.admin_scope import ClubScopedAdmin
from games import models


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyInline):
    model = models.Seat
    fields = ["number", "player", "role", "fouls", "main", "extras", "total"]


class DayInline(ReadOnlyInline):
    model = models.Day
    fields = ["index", "nominations", "votes", "revotes", "lift_for", "out"]


class NightInline(ReadOnlyInline):
    model = models.Night
    fields = ["index", "kill", "don_check", "sheriff_check"]


@admin.register(models.RuleSetVersion)
class RuleSetVersionAdmin(ClubScopedAdmin, admin.ModelAdmin):
    shared_q = Q(club__isnull=True)  # the presets: every club sees and chooses them, only a superuser edits them
    list_display = ["slug", "version", "name", "club", "is_preset"]
    list_filter = ["is_preset", ("club", ScopedClubFilter)]

    def get_readonly_fields(self, request, obj=None):
        # A preset or a version a game was scored under is never edited in place.
        if obj is not None and (obj.is_preset or obj.is_used):
            return [f.name for f in self.model._meta.fields]
        return ["is_preset", "created"]

    def has_delete_permission(self, request, obj=None):
        return obj is None or not (obj.is_preset or obj.is_used)


@admin.register(models.Tournament)
class TournamentAdmin(ClubScopedAdmin, SimpleHistoryAdmin):
    list_display = ["name", "club", "ruleset", "start_date", "end_date", "head_judge"]
    list_filter = [("club", ScopedClubFilter)]
    search_fields = ["name"]


@admin.register(models.ClubEvening)
class ClubEveningAdmin(ClubScopedAdmin, admin.ModelAdmin):
    list_display = ["date", "name", "club", "ruleset"]


@admin.register(models.Game)
class GameAdmin(ClubScopedAdmin, SimpleHistoryAdmin):
    list_display = ["__str__", "date", "table", "status", "result", "judge"]
    list_filter = ["status", "result"]
    search_fields = ["tournament__name", "judge_name"]
    inlines = [SeatInline, DayInline, NightInline]
    readonly_fields = ["club", "tournament", "evening", "ruleset", "number", "table", "stage", "date", "judge",
                       "judge_name", "status", "started_at", "ended_at", "phase", "result", "best_move", "signed_at",
                       "signed_by", "replay_of", "version", "created"]

    def has_add_permission(self, request):
        return False


@admin.register(models.GameAction)
class GameActionAdmin(ClubScopedAdmin, admin.ModelAdmin):
    club_path = "game__club"
    list_display = ["game", "seq", "kind", "by", "at", "undone"]
    list_filter = ["kind", "undone"]
    readonly_fields = [f.name for f in models.GameAction._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(models.Protest)
class ProtestAdmin(ClubScopedAdmin, SimpleHistoryAdmin):
    club_path = "game__club"
    list_display = ["game", "category", "player", "filed_at", "status", "decided_by"]
    list_filter = ["status", "category"]
    readonly_fields = [f.name for f in models.Protest._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


for model, club_path in ((models.Removal, "game__club"), (models.RecordedColour, "game__club"),
                         (models.JudgeExtra, "game__club"), (models.Adjustment, "game__club"),
                         (models.ScoreItem, "seat__game__club")):
    admin.site.register(model, type(f"{model.__name__}Admin", (ClubScopedAdmin, admin.ModelAdmin), {
        "club_path": club_path,
        "list_display": [f.name for f in model._meta.fields][:6],
        "has_add_permission": lambda self, request, obj=None: False,
        "has_change_permission": lambda self, request, obj=None: False,
    }))
