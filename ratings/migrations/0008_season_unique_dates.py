"""One season per club and date range (ratings.models.Season): duplicates were removed by 0007."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0007_remove_duplicate_seasons"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="season",
            constraint=models.UniqueConstraint(fields=("club", "start", "end"), name="season_unique_dates"),
        ),
    ]
