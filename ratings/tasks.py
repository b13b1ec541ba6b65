"""Background work run by the task worker (django-tasks; `manage.py db_worker` with the database backend).

Tests and a site without a worker configured run tasks at once (`ImmediateBackend`); a task that fails there raises,
so an error is never swallowed.
"""

from __future__ import annotations

from django_tasks import TaskResultStatus, task


def enqueue(t, *args, **kwargs):
    result = t.enqueue(*args, **kwargs)
    if result.status == TaskResultStatus.FAILED:  # the immediate backend ran it and it failed
        raise RuntimeError(f"task {t.name} failed:\n" + "\n".join(e.traceback for e in result.errors))
    return result


@task()
def recompute_elo(club_id: int) -> int:
    """The club's queued Elo tail (ratings.services_elo.schedule)."""
    from ratings.services_elo import run_pending

    return run_pending(club_id)
