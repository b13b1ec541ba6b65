"""`manage.py db_worker`: django-tasks-db's worker, holding a lease while it lives and sweeping for lost tasks.

Same name, options and behaviour as django-tasks-db's command (this app is listed before it, so Django runs this
one); on top of it the worker takes its lease before it claims a task, sweeps when it starts and then every
SWEEP_SECONDS in a thread of its own (`club.task_queue`), so the work of a worker that died is queued again within
seconds of any worker running.
"""

from __future__ import annotations

import logging
import threading

from django.db import OperationalError, connection
from django_tasks_db.management.commands import db_worker

from club import task_queue

log = logging.getLogger(__name__)


class Worker(db_worker.Worker):
    def run(self) -> None:
        self.lease = task_queue.hold_lease(self.worker_id)
        self._sweep()
        stop = threading.Event()
        sweeper = threading.Thread(target=self._sweep_every, args=(stop,), daemon=True, name="task-sweeper")
        sweeper.start()
        try:
            super().run()
        finally:
            stop.set()
            self.lease.release()

    def _sweep(self) -> None:
        try:
            task_queue.sweep()
        except OperationalError as e:  # a busy SQLite file: the next sweep tries again
            log.warning("task sweep skipped: %s", e)
        finally:
            connection.close()  # this thread's connection, opened again by the next sweep

    def _sweep_every(self, stop: threading.Event) -> None:
        while not stop.wait(task_queue.SWEEP_SECONDS):
            self._sweep()


class Command(db_worker.Command):
    help = db_worker.Command.help + " (with a lease, re-queueing the work of workers that died)"

    def handle(self, *args, **options) -> None:
        db_worker.Worker, original = Worker, db_worker.Worker  # type: ignore[misc]
        try:
            super().handle(*args, **options)
        finally:
            db_worker.Worker = original  # type: ignore[misc]
