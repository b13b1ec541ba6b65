"""The single-column indexes of the rating tables' keys are dropped: each key is the first column of a composite
index or unique constraint that serves the same lookups, and every index is written on each insert of a recompute.

Only the indexes are dropped (the state changes to db_index=False): SQLite would otherwise copy each table whole.
"""

import django.db.models.deletion
from django.db import migrations, models

FIELDS = [("elochange", "club"), ("elochange", "game"), ("elochange", "player"), ("playergame", "club"),
          ("playergame", "game"), ("playergame", "player"), ("playergame", "tournament"), ("playerstats", "player"),
          ("playerstats", "scope"), ("ratingpoint", "scope")]


def _indexes(apps, schema_editor):
    for model_name, field_name in FIELDS:
        model = apps.get_model("ratings", model_name)
        field = model._meta.get_field(field_name)
        yield model, field, schema_editor._create_index_name(model._meta.db_table, [field.column])


def drop(apps, schema_editor):
    for _model, _field, name in _indexes(apps, schema_editor):
        schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(name)}")


def create(apps, schema_editor):
    for model, field, name in _indexes(apps, schema_editor):
        schema_editor.execute(f"CREATE INDEX {schema_editor.quote_name(name)} ON "
                              f"{schema_editor.quote_name(model._meta.db_table)} ({schema_editor.quote_name(field.column)})")


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0005_web_club_trusted_addresses'),
        ('games', '0008_tournament_schedule'),
        ('ratings', '0011_worker_pending_task'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(drop, create)],
            state_operations=[
                migrations.AlterField(
                    model_name='elochange',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='club.club'),
                ),
                migrations.AlterField(
                    model_name='elochange',
                    name='game',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='elo_changes', to='games.game'),
                ),
                migrations.AlterField(
                    model_name='elochange',
                    name='player',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='club.player'),
                ),
                migrations.AlterField(
                    model_name='playergame',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='club.club'),
                ),
                migrations.AlterField(
                    model_name='playergame',
                    name='game',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.game'),
                ),
                migrations.AlterField(
                    model_name='playergame',
                    name='player',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='club.player'),
                ),
                migrations.AlterField(
                    model_name='playergame',
                    name='tournament',
                    field=models.ForeignKey(db_index=False, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.tournament'),
                ),
                migrations.AlterField(
                    model_name='playerstats',
                    name='player',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='club.player'),
                ),
                migrations.AlterField(
                    model_name='playerstats',
                    name='scope',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='stats', to='ratings.ratingscope'),
                ),
                migrations.AlterField(
                    model_name='ratingpoint',
                    name='scope',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='points', to='ratings.ratingscope'),
                ),
            ],
        ),
    ]
