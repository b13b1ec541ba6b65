"""`python manage.py tasks [--format table|json]`: the background task queue (django-tasks' database backend).

Counts the tasks queued, running and failed, and what is stale: tasks RUNNING on a worker that is gone, and
announced work (a page saying "пересчитывается") that no live task covers. A worker re-queues stale work when it
starts and every few seconds (`club.task_queue`); JSON: `{"queued", "running", "failed", "stale", "lost_tasks":
[{"id", "task", "worker", "started_at"}], "stale_work": [{"key", "since", "task_id", "why"}]}`.
"""

import json

from django.core.management.base import BaseCommand

from club.task_queue import summary


class Command(BaseCommand):
    help = "Show the background task queue: queued, running, failed and stale tasks."

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=["table", "json"], default="table")

    def handle(self, *args, format="table", **options):
        data = summary()
        if format == "json":
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        for name in ("queued", "running", "failed", "stale"):
            self.stdout.write(f"{name:<8} {data[name]}")
        for row in data["lost_tasks"]:
            self.stdout.write(f"lost     {row['task']} {row['id']} (worker {row['worker']}, since {row['started_at']})")
        for row in data["stale_work"]:
            self.stdout.write(f"stale    {row['key']} from {row['since']}: {row['why']}")
