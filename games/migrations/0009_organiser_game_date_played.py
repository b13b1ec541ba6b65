"""A game's date is the day it was played: games already begun take the date of their start, in the club's zone."""

from django.db import migrations
from django.utils import timezone


def date_from_start(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    zone = timezone.get_default_timezone()
    changed = []
    for game in Game.objects.filter(started_at__isnull=False).only("pk", "date", "started_at").iterator():
        played = timezone.localdate(game.started_at, zone)
        if game.date != played:
            game.date = played
            changed.append(game)
    Game.objects.bulk_update(changed, ["date"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0008_tournament_schedule"),
    ]

    operations = [
        migrations.RunPython(date_from_start, migrations.RunPython.noop),
    ]
