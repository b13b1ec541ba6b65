"""Background work on the task worker (django-tasks; `manage.py db_worker` with the database backend).

Tasks are defined beside the code they run (`ratings.services_elo.recompute_elo`, …) and queued through `enqueue`.
Tests run them at once (`ImmediateBackend`); a task that fails there raises here, so an error is never swallowed.
"""

from __future__ import annotations

from django_tasks import TaskResultStatus


def enqueue(t, *args, **kwargs):
    result = t.enqueue(*args, **kwargs)
    if result.status == TaskResultStatus.FAILED:  # the immediate backend ran it and it failed
        raise RuntimeError(f"task {t.name} failed:\n" + "\n".join(e.traceback for e in result.errors))
    return result
