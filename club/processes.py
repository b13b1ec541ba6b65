"""Independent parts of a long rebuild run side by side in forked processes, each with its own database connection.

`ratings.standings.services.recompute_all` rebuilds every derived table: its parts (the facts of a range of games,
the tables and histories of a batch of scopes, a club's Elo) write disjoint rows, so on PostgreSQL two processes
keep both cores busy (while one computes, the other's server process writes). Not on SQLite: its one writer at a
time would make the processes wait for each other. Nor inside a transaction: a forked process has its own
connection and would not see the caller's uncommitted rows.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable
from typing import TypeVar

from django.conf import settings
from django.db import connection, connections

T = TypeVar("T")
R = TypeVar("R")


def usable_workers(requested: int | None = None) -> int:
    """How many processes a rebuild may use: `requested` (else settings.REBUILD_WORKERS), or 1 where processes
    cannot help (SQLite) or could not see the caller's rows (inside a transaction)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return 1
    return max(1, settings.REBUILD_WORKERS if requested is None else requested)


def run_parts(function: Callable[[T], R], parts: Iterable[T], workers: int) -> list[R]:
    """`function` of each part (a picklable value), in `workers` forked processes (in this one when 1), in the
    order the parts finish. Each part commits its own transaction; the first failure is raised here."""
    parts = list(parts)
    if workers <= 1 or len(parts) <= 1:
        return [function(part) for part in parts]
    connections.close_all()  # a forked process must not share this one's socket: each opens its own connection
    with multiprocessing.get_context("fork").Pool(min(workers, len(parts))) as pool:
        return list(pool.imap_unordered(function, parts))
