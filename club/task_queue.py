"""The task queue's health (django-tasks' database backend, `manage.py db_worker`): which workers are alive, the
tasks whose worker died, and the sweep that hands their work to a live worker.

A worker proves it is alive by holding a lock for as long as its process lives — a session advisory lock on
PostgreSQL, an `flock` on a file beside the database on SQLite — so the lease ends the moment the process dies,
SIGKILL included, and a busy worker (a long write transaction) never looks dead. Every worker sweeps when it starts
and every SWEEP_SECONDS: a RUNNING row whose worker holds no lock is marked failed ("worker lost"), and the
healers the apps register (`register_healer`) queue fresh tasks for the work such a task announced. The tasks are
written to be safe to run twice, so a task whose worker only looked dead does no harm when it runs again.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import logging
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.utils import timezone
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, TaskResultStatus
from django_tasks_db.models import DBTaskResult

log = logging.getLogger(__name__)

SWEEP_SECONDS = 15  # a running worker looks for lost tasks this often (and always when it starts)
LOST = "club.task_queue.WorkerLost"


def enqueue(t, *args, **kwargs):
    """Queue `t(*args, **kwargs)`. Tests run tasks at once (`ImmediateBackend`): one that fails there raises here,
    so an error is never swallowed."""
    result = t.enqueue(*args, **kwargs)
    if result.status == TaskResultStatus.FAILED:  # the immediate backend ran it and it failed
        raise RuntimeError(f"task {t.name} failed:\n" + "\n".join(e.traceback for e in result.errors))
    return result


@dataclass
class Stale:
    """Work announced to the pages (e.g. "пересчитывается") that no live task is doing."""

    key: str
    since: str
    task_id: str
    why: str


@dataclass
class Healer:
    """An app's announced work: `stale()` lists what no live task covers, `heal()` queues tasks for it."""

    stale: Callable[[], list[Stale]]
    heal: Callable[[], int]


HEALERS: list[Healer] = []


def register_healer(healer: Healer) -> None:
    if healer not in HEALERS:
        HEALERS.append(healer)


# ---------------------------------------------------------------------------------------------- the lease
def _lock_key(worker_id: str) -> int:
    return int.from_bytes(hashlib.blake2b(worker_id.encode(), digest_size=8).digest(), "big", signed=True)


def _lock_dir() -> Path:
    name = str(settings.DATABASES[DEFAULT_DB_ALIAS].get("NAME") or "")
    if name and name != ":memory:" and not name.startswith("file:"):
        return Path(f"{name}.workers")
    return Path(tempfile.gettempdir()) / "mafclub-workers"


def _lock_file(worker_id: str) -> Path:
    return _lock_dir() / hashlib.blake2b(worker_id.encode(), digest_size=16).hexdigest()


@dataclass
class Lease:
    """Held by a worker process for its whole life; `release()` only for tests and a clean exit."""

    worker_id: str
    _close: list[Callable[[], None]] = field(default_factory=list)

    def release(self) -> None:
        while self._close:
            with contextlib.suppress(Exception):
                self._close.pop()()


def hold_lease(worker_id: str) -> Lease:
    """Take the worker's lock: on a connection of its own (PostgreSQL) or an open file (SQLite)."""
    lease = Lease(worker_id)
    if connection.vendor == "postgresql":
        own = connections.create_connection(DEFAULT_DB_ALIAS)
        own.ensure_connection()
        own.set_autocommit(True)
        with own.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [_lock_key(worker_id)])
        lease._close.append(own.close)
        # the server drops a closed session's locks a moment later; a clean release gives the lock back at once
        lease._close.append(lambda: own.cursor().execute("SELECT pg_advisory_unlock(%s)", [_lock_key(worker_id)]))
    else:
        path = _lock_file(worker_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(fd, f"{worker_id} pid {os.getpid()}\n".encode())
        lease._close.append(functools.partial(path.unlink, missing_ok=True))  # run last: the lease closes in reverse
        lease._close.append(functools.partial(os.close, fd))
    return lease


def worker_alive(worker_id: str, *, tidy: bool = False) -> bool:
    """Does a live process hold this worker's lease? (A worker that never took one counts as gone.) `tidy` removes
    the lock file a dead worker left on SQLite."""
    if connection.vendor == "postgresql":
        key = _lock_key(worker_id)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
            free = cursor.fetchone()[0]
            if free:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
        return not free
    path = _lock_file(worker_id)
    if _held(path):
        return True
    if tidy:  # the lock of a dead worker: nobody holds it
        path.unlink(missing_ok=True)
    return False


def _held(path: Path) -> bool:
    """Does a live process hold the lock on this file? (No file: no.)"""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def live_workers() -> int:
    """How many worker processes hold a lease now (each holds one for its whole life)."""
    if connection.vendor == "postgresql":  # the leases are the only advisory locks the site holds for long
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = "
                           "(SELECT oid FROM pg_database WHERE datname = current_database())")
            return cursor.fetchone()[0]
    folder = _lock_dir()
    if not folder.is_dir():
        return 0
    return sum(1 for path in folder.iterdir() if _starting_or_held(path))


def _starting_or_held(path: Path) -> bool:
    # An empty file is a worker between creating its file and locking it (it writes its line once locked): alive,
    # and not probed, so that the probe's own moment of locking never refuses a starting worker its lease.
    try:
        return path.stat().st_size == 0 or _held(path)
    except FileNotFoundError:  # released while we looked
        return False


# ---------------------------------------------------------------------------------------------- the sweep
def _ours():
    return DBTaskResult.objects.filter(backend_name=DEFAULT_TASK_BACKEND_ALIAS)


def lost_tasks(*, tidy: bool = False) -> Iterator[DBTaskResult]:
    """RUNNING rows whose (last) worker holds no lease: nobody will ever finish them."""
    alive: dict[str, bool] = {}
    for row in _ours().running().only("id", "worker_ids", "task_path", "started_at"):
        worker = row.worker_ids[-1] if row.worker_ids else ""
        if worker not in alive:
            alive[worker] = bool(worker) and worker_alive(worker, tidy=tidy)
        if not alive[worker]:
            yield row


def mark_lost() -> int:
    """Mark the lost tasks failed, naming the worker that died (the healers then queue fresh ones)."""
    marked = 0
    for row in list(lost_tasks(tidy=True)):
        with transaction.atomic():
            updated = _ours().running().filter(pk=row.pk).update(
                status=TaskResultStatus.FAILED, finished_at=timezone.now(), exception_class_path=LOST,
                traceback=f"the worker {row.worker_ids[-1] if row.worker_ids else '?'} stopped while the task ran")
        marked += updated
    if marked:
        log.warning("%d task(s) lost with their worker were marked failed", marked)
    return marked


def sweep() -> int:
    """What a worker does when it starts and every SWEEP_SECONDS. Returns the tasks queued afresh."""
    mark_lost()
    queued = sum(healer.heal() for healer in HEALERS)
    if queued:
        log.warning("%d task(s) queued again for work nobody was doing", queued)
    return queued


# ---------------------------------------------------------------------------------------------- what an admin sees
def summary() -> dict:
    """Queued, running, failed and stale (lost tasks and announced work no live task covers)."""
    lost = list(lost_tasks())
    stale = [s for healer in HEALERS for s in healer.stale()]
    rows = _ours()
    return {
        "queued": rows.ready().count(),
        "running": rows.running().count() - len(lost),
        "failed": rows.failed().count(),
        "stale": len(lost) + len(stale),
        "lost_tasks": [{"id": str(r.id), "task": r.task_path, "worker": r.worker_ids[-1] if r.worker_ids else "",
                        "started_at": r.started_at.isoformat() if r.started_at else None} for r in lost],
        "stale_work": [vars(s) for s in stale],
    }
