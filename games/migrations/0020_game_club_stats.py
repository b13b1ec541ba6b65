"""The statistics page's one read (ratings.standings.selectors.season_summary): a season's counted games grouped
by day, result and rule set, from this index alone, in its order (club, date, result, rule set), with the two
columns that tell a counted game (status, results_hidden) in it too. Before it three scans of the season's games
visited every game's row (the month truncated in Python on SQLite): 22 ms of CPU for 3,050 games."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_game_api_latest'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['club', 'date', 'result', 'ruleset', 'status', 'results_hidden'],
                               name='game_club_stats'),
        ),
    ]
