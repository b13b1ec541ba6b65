"""Tasks queued before the modules moved into rooms (ratings/elo/, ratings/standings/) name the old paths: point
them at the new ones, so a worker started after the upgrade runs them instead of failing them."""

from django.db import migrations

MOVED = {
    "ratings.services_elo.recompute_elo": "ratings.elo.services.recompute_elo",
    "ratings.services.recompute_history": "ratings.standings.services.recompute_history",
}


def forwards(apps, schema_editor):
    task_result = apps.get_model("django_tasks_database", "DBTaskResult")
    for old, new in MOVED.items():
        task_result.objects.filter(task_path=old).update(task_path=new)


def backwards(apps, schema_editor):
    task_result = apps.get_model("django_tasks_database", "DBTaskResult")
    for old, new in MOVED.items():
        task_result.objects.filter(task_path=new).update(task_path=old)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0013_stats_black_nominations"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
