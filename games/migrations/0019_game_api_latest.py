"""The API's list of games (`/api/v1/games/`, api.selectors.games): a page of the games the public sees, newest
first (WHERE results_hidden = false ORDER BY date DESC, id DESC LIMIT n), read in order from (results_hidden, date,
id), and their count from the same index alone. Without it SQLite drove the read from the clubs and sorted every
game for a page (1.8 s at 100,000 games on a loaded machine, bench/README.md)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0018_game_home_indexes'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['results_hidden', '-date', '-id'], name='game_api_latest'),
        ),
    ]
