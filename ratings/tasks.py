"""Background work on the task worker (django-tasks; `manage.py db_worker` with the database backend).

Tasks are defined beside the code they run (`ratings.elo.services.recompute_elo`, …) and queued through `enqueue`.
Tests run them at once (`ImmediateBackend`); a task that fails there raises here, so an error is never swallowed.

A long recompute is announced by a `PendingTail` marker carrying the id of the task that will do it. The marker is
stale when that task can no longer do it — finished or failed without deleting it, or lost with its worker
(`club.task_queue`) — and then the next change (`requeue`) or the workers' sweep (`ratings.services_tasks`) queues a
fresh task. The tasks are safe to run twice: the one that finds the marker gone does nothing.
"""

from __future__ import annotations

import datetime as dt
import os
import time

from django.core.exceptions import ValidationError
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from club.task_queue import enqueue, worker_alive
from ratings.models import PendingTail

UNKNOWN_GRACE = dt.timedelta(minutes=1)  # a marker with no task id (written by an older release) waits this long


def requeue(t, marker: PendingTail, *args, attempts: int = 1) -> None:
    """Queue `t(*args)` for the marker's work and write the task's id on the marker (gone if it already ran)."""
    result = enqueue(t, *args)
    PendingTail.objects.filter(pk=marker.pk).update(task_id=str(result.id), attempts=attempts)


def stale_reason(marker: PendingTail) -> str | None:
    """Why no live task will do the marker's work, or None while one is queued or running."""
    if not marker.task_id:
        return "no task" if marker.queued_at < timezone.now() - UNKNOWN_GRACE else None
    try:
        row = DBTaskResult.objects.filter(pk=marker.task_id).values_list("status", "worker_ids").first()
    except ValidationError:
        row = None
    if row is None:
        return "task missing"
    status, workers = row
    if status == TaskResultStatus.READY:
        return None
    if status == TaskResultStatus.RUNNING:
        return None if workers and worker_alive(workers[-1]) else "worker lost"
    return "task failed" if status == TaskResultStatus.FAILED else "task finished"


def pause_for_tests() -> None:
    """MAFCLUB_TASK_PAUSE=seconds: a recompute sleeps this long per chunk (the fault tests kill it meanwhile)."""
    seconds = float(os.environ.get("MAFCLUB_TASK_PAUSE") or 0)
    if seconds:
        time.sleep(seconds)
