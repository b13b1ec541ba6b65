"""`/health/`: the state of what the site runs on, for a load balancer, systemd's watchdog scripts or a monitor.

The database (a `SELECT 1`), the cache (a value written and read back: the site runs without it, only slower) and
the task queue (club.task_queue: queued, running, failed and stale tasks, and the workers holding a lease). Only
states and counts: no address, name or setting of the deployment.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.dummy import DummyCache
from django.db import DatabaseError, connection

from club import task_queue

OK, DOWN, OFF = "ok", "down", "off"


def database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return DOWN
    return OK


def cache_state() -> str:
    """A cache that does not answer is a miss (club.cache.ResilientRedisCache): a value that does not come back."""
    cache = caches["default"]
    if isinstance(cache, DummyCache):  # CACHE_URL=dummy://: no cache by choice
        return OFF
    key, value = f"health:{uuid.uuid4().hex}", uuid.uuid4().hex
    cache.set(key, value, 30)
    answered = cache.get(key) == value
    cache.delete(key)
    return OK if answered else DOWN


def tasks() -> dict | str:
    try:
        summary = task_queue.summary()
        workers = task_queue.live_workers()
    except DatabaseError:
        return DOWN
    return {**{name: summary[name] for name in ("queued", "running", "failed", "stale")}, "workers": workers}


def report() -> dict:
    """{"status": "ok" | "degraded" (the cache is down) | "down" (the database is), "database", "cache", "tasks"}."""
    state: dict[str, Any] = {"database": database(), "cache": cache_state()}
    state["tasks"] = tasks() if state["database"] == OK else DOWN
    if state["database"] != OK:
        status = DOWN
    elif state["cache"] == DOWN or state["tasks"] == DOWN:
        status = "degraded"
    else:
        status = OK
    return {"status": status, **state}
