"""The home page's two reads of games, flat whatever the club has played: its latest results (ORDER BY date,
ended_at, id, all descending) read backwards from (club, date, ended_at), ten entries for LIMIT 10; its games in
play from a partial index of the games in progress. Without them both databases sorted every game of the club for
each (2.5 s at 100,000 games on SQLite, measured on a loaded machine; 2 ms with them)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0009_club_time_zone'),
        ('games', '0017_summary_and_voters'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['club', 'date', 'ended_at'], name='game_club_latest'),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('status', 'in_progress')), fields=['club', 'table'], name='game_in_progress'),
        ),
    ]
