"""Independent parts of a long rebuild run side by side in forked processes, each with its own database connection.

`ratings.standings.services.recompute_all` rebuilds every derived table: its parts (the facts of a range of games,
the tables and histories of a batch of scopes, a club's Elo) write disjoint rows, so two processes keep both cores
busy. `manage.py rebuild_ratings` (`ratings.standings.rebuild`, beside the running site) runs its parts here on
PostgreSQL only, each taking its own row locks; the SQLite way below (rows written aside, copied in at the end)
is for a rebuild with no other writer. On PostgreSQL each process writes its own rows (while one computes, the other's server process writes). On
SQLite one writer holds the database at a time: each process writes the rows it would insert (`club.bulk.insert_rows`,
nearly every row of a rebuild) into a file of its own, and once all are done this process copies them in with
one INSERT … SELECT a table (SQLite's own loop, no row through Python); their few other writes (a table's changed
rows, a scope's version) are short transactions of their own. Not inside a transaction (a forked process has its
own connection and would not see the caller's uncommitted rows), nor on a database in memory.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection, connections, transaction

from club import bulk

T = TypeVar("T")
R = TypeVar("R")

_aside: Any = None  # in a process of a rebuild on SQLite: its own file, where its inserted rows go


def usable_workers(requested: int | None = None) -> int:
    """How many processes a rebuild may use: `requested` (else settings.REBUILD_WORKERS), or 1 inside a
    transaction (a forked process could not see the caller's rows) or on a database in memory (the tests')."""
    if connection.in_atomic_block or (connection.vendor == "sqlite" and _in_memory(connection.settings_dict)):
        return 1
    return max(1, settings.REBUILD_WORKERS if requested is None else requested)


def _in_memory(settings_dict: dict) -> bool:
    """A SQLite database in memory (":memory:", or a URI with mode=memory as Django's test database is): a forked
    process would open a database of its own, empty."""
    name = str(settings_dict["NAME"])
    return name == ":memory:" or "mode=memory" in name


def part_transaction():
    """The transaction of one part of a rebuild: `atomic`, except in a process of a rebuild on SQLite, where it
    would hold the database's one write lock while the part computes (its rows go to its own file meanwhile)."""
    return contextlib.nullcontext() if _aside is not None else transaction.atomic(savepoint=False)


def run_parts(function: Callable[[T], R], parts: Iterable[T], workers: int,
              done: Callable[[R], None] | None = None) -> list[R]:
    """`function` of each part (a picklable value), in `workers` forked processes (in this one when 1). Each part
    commits its own writes; the first failure is raised here, and a process that dies (killed, out of memory)
    stops the rebuild with BrokenProcessPool instead of leaving it waiting. `done` is called here with each
    part's result as it comes (in the parts' order): a rebuild's progress."""
    parts = list(parts)
    if workers <= 1 or len(parts) <= 1:
        return [_reported(function(part), done) for part in parts]
    connections.close_all()  # a forked process must not share this one's socket: each opens its own connection
    processes = min(workers, len(parts))
    fork = multiprocessing.get_context("fork")
    if connection.vendor != "sqlite":
        with ProcessPoolExecutor(processes, mp_context=fork) as pool:
            return [_reported(result, done) for result in pool.map(function, parts)]
    with tempfile.TemporaryDirectory(prefix="rebuild-") as aside:
        with ProcessPoolExecutor(processes, mp_context=fork, initializer=_write_aside, initargs=(aside,)) as pool:
            results = [_reported(result, done)
                       for result in pool.map(_part_then_commit, [(function, part) for part in parts])]
        _copy_in(sorted(Path(aside).glob("*.sqlite3")))
    return results


def _reported(result: R, done: Callable[[R], None] | None) -> R:
    if done is not None:
        done(result)
    return result


def _write_aside(directory: str) -> None:
    """In a forked process of a rebuild on SQLite: `insert_rows` writes into a file of its own (no index, no
    journal: it is thrown away once copied), so that the processes do not wait for each other's write lock."""
    global _aside
    _aside = sqlite3.connect(Path(directory) / f"{os.getpid()}.sqlite3", isolation_level=None)
    for statement in ("PRAGMA journal_mode=OFF", "PRAGMA synchronous=OFF", "BEGIN"):
        _aside.execute(statement)
    bulk.row_sink = _insert_aside


def _insert_aside(table: str, columns: list[str], rows: Iterable[tuple]) -> int:
    quoted = ", ".join(f'"{c}"' for c in columns)
    _aside.execute(f'CREATE TABLE IF NOT EXISTS "{table}" ({quoted})')
    before = _aside.total_changes
    _aside.executemany(f'INSERT INTO "{table}" ({quoted}) VALUES ({", ".join("?" * len(columns))})', rows)
    return _aside.total_changes - before


def _part_then_commit(item: tuple[Callable[[Any], R], Any]) -> R:
    function, part = item
    try:
        return function(part)
    finally:
        _aside.execute("COMMIT")
        _aside.execute("BEGIN")


def _copy_in(files: list[Path]) -> None:
    """The rows the processes wrote aside, copied into the database table by table: one INSERT … SELECT each, run
    by SQLite itself (no row through Python), in one transaction."""
    with connection.cursor() as cursor:
        for path in files:
            cursor.execute("ATTACH DATABASE %s AS aside", [str(path)])
            try:
                with transaction.atomic():
                    cursor.execute("SELECT name FROM aside.sqlite_master WHERE type = 'table'")
                    for (table,) in cursor.fetchall():
                        cursor.execute(f'SELECT * FROM aside."{table}" LIMIT 0')
                        quoted = ", ".join(f'"{d[0]}"' for d in cursor.description)
                        cursor.execute(f'INSERT INTO main."{table}" ({quoted}) SELECT {quoted} FROM aside."{table}"')
            finally:
                cursor.execute("DETACH DATABASE aside")
