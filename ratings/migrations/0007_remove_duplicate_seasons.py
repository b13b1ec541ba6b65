"""Before one season per club and date range (ratings.models.Season, `season_unique_dates`, 0008).

Two scorings that made a new year's default season at the same moment could store it twice; such duplicates (the
same club, start and end: the same games, the same table) are removed first, the oldest of each kept. Their rating
scopes, tables and histories go with them (CASCADE); the kept season holds the same.
"""

from django.db import migrations
from django.db.models import Count, Min


def remove_duplicate_seasons(apps, schema_editor):
    Season = apps.get_model("ratings", "Season")
    groups = (Season.objects.values("club_id", "start", "end").annotate(n=Count("id"), keep=Min("id"))
              .filter(n__gt=1))
    for group in groups:
        Season.objects.filter(club_id=group["club_id"], start=group["start"], end=group["end"]).exclude(
            pk=group["keep"]).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("club", "0004_judge_timer_autostart"),
        ("ratings", "0006_scope_summary_computed_when_read"),
    ]

    # The constraint comes in the next migration (its own transaction): PostgreSQL alters no table with the
    # deferred foreign-key checks of these deletions still pending.
    operations = [
        migrations.RunPython(remove_duplicate_seasons, migrations.RunPython.noop),
    ]
