from django.db import migrations

FILLFACTOR = 70  # per cent of each page filled by inserts; the rest is room for updates in place


def leave_room(apps, schema_editor):
    """On PostgreSQL, pages of PlayerStats keep room for the re-ranked rows' new versions (HOT updates need the new
    version on the same page). SQLite has no such setting."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE ratings_playerstats SET (fillfactor = {FILLFACTOR})")


def fill_pages(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE ratings_playerstats RESET (fillfactor)")


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0016_derived_tables_without_database_keys'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='playerstats',
            name='ratings_pla_scope_i_5b34e1_idx',
        ),
        migrations.RunPython(leave_room, fill_pages, elidable=True),
    ]
