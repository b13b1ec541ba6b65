"""Bulk writes of the ratings' derived tables (and a rescoring's seat rows): many rows inserted or updated in a few
statements of plain SQL through `connection.cursor()`, emptied, analyzed. No private API of Django's: the fields'
columns and database values come from the documented field API (`get_field`, `column`, `get_db_prep_save`,
`db_type`, `rel_db_type`).

`update_rows` and `insert_rows` each measured their gain against the public ORM (their docstrings): with
settings.DB_BULK_WRITES off (env DB_BULK_WRITES=0) both take it (`bulk_update`, `bulk_create`; the same rows), so
that the suite runs both ways (the `bulk_writes` fixture; the whole suite with the variable set)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice
from typing import Any

from django.conf import settings
from django.db import connection, transaction

UPDATE_CHUNK = 500  # rows per UPDATE statement (SQLite takes at most 32,766 parameters in one)


def update_rows(model, names: list[str], rows: list[tuple[int, dict[str, Any]]]) -> None:
    """Write the fields `names` of many rows with one UPDATE … FROM (VALUES …) statement per UPDATE_CHUNK rows
    (on PostgreSQL one UPDATE … FROM UNNEST(…), an array per column, for all of them): `rows` are (primary key,
    {field name: value}), each key at most once (which of two would win is not defined). Django's `bulk_update`
    builds a CASE per row and column (most of an import's and a rescore's time); an executemany of one UPDATE per
    row is one round trip per row on PostgreSQL (a re-ranked table of 300 players took 18 ms).

    Measured (2026-12-07, 1k games, SQLite and PostgreSQL, a 2-core machine shared with five other jobs, the
    median of 7 decisions per run, 3 interleaved runs): an upheld protest on the season's last game (the head
    judge's `protest_decide`, which rescores the game and re-ranks its scopes' tables) takes 53–83 ms of CPU on
    SQLite with this statement, 327–363 ms with `bulk_update` (the writes bench's ratio 109–129× the base.html page
    against 22–33×, its goal 30×); on PostgreSQL 90–93 ms against 332–370 ms. Command: `DB_BULK_WRITES=0 bench/bench_ratings.py --games 1000
    --writes`, then without the variable (bench/README.md)."""
    if not rows:
        return
    meta = model._meta
    fields = [meta.get_field(name) for name in names]
    if not settings.DB_BULK_WRITES:  # the public path: an instance a row, Django's CASE per row and column
        model.objects.bulk_update([model(pk=key, **{f.attname: values[f.name] for f in fields})
                                   for key, values in rows], names, batch_size=UPDATE_CHUNK)
        return
    qn = connection.ops.quote_name
    table, pk = qn(meta.db_table), qn(meta.pk.column)
    columns = ", ".join(["pk_", *(qn(f.column) for f in fields)])
    sets = ", ".join(f"{qn(f.column)} = v.{qn(f.column)}" for f in fields)
    raw = [f.name for f in fields if f.get_internal_type() in RAW_TYPES]

    def values_of(chunk):  # each row's values as the driver takes them (RAW_TYPES as they are)
        if len(raw) == len(fields):
            return [(key, *(values[name] for name in raw)) for key, values in chunk]
        return [(key, *(f.get_db_prep_save(values[f.name], connection) for f in fields)) for key, values in chunk]

    with transaction.atomic(savepoint=False), connection.cursor() as cursor:  # one transaction (insert_rows)
        if connection.vendor == "postgresql":
            # One array a column, unnested into rows: the same statement text whatever the number of rows, so
            # the driver does not split and quote a placeholder per value, and the server plans it as one.
            # Each array is cast to its column's type (an array of NULLs has none).
            types = [meta.pk.rel_db_type(connection), *(f.db_type(connection) for f in fields)]
            arrays = ", ".join(f"CAST(%s AS {db_type}[])" for db_type in types)
            cursor.execute(f"UPDATE {table} SET {sets} FROM UNNEST({arrays}) AS v({columns}) "
                           f"WHERE {table}.{pk} = v.pk_",
                           [list(column) for column in zip(*values_of(rows), strict=True)])
            return
        for start in range(0, len(rows), UPDATE_CHUNK):
            chunk = rows[start:start + UPDATE_CHUNK]
            params = [v for row in values_of(chunk) for v in row]
            placeholders = ", ".join(["(" + ", ".join(["%s"] * (len(fields) + 1)) + ")"] * len(chunk))
            cursor.execute(f"WITH v({columns}) AS (VALUES {placeholders}) "
                           f"UPDATE {table} SET {sets} FROM v WHERE {table}.{pk} = v.pk_", params)


# Field types whose Python values the drivers take as they are (sqlite3 has Django's adapters for Decimal and date,
# psycopg takes them natively): no per-value preparation, which was most of bulk_create's time.
RAW_TYPES = {"AutoField", "BigAutoField", "IntegerField", "BigIntegerField", "SmallIntegerField",
             "PositiveIntegerField", "PositiveSmallIntegerField", "PositiveBigIntegerField", "BooleanField",
             "CharField", "TextField", "FloatField", "DecimalField", "DateField", "ForeignKey", "OneToOneField"}


# Set in a process of a rebuild on SQLite (club.processes): `insert_rows` writes its rows (table, columns, rows
# prepared for the driver) aside instead, to be copied into the database in one statement per table.
row_sink: Callable[[str, list[str], Iterable[tuple]], int] | None = None


def insert_rows(model, names: list[str], rows: Iterable[tuple], *, batch: int = 5000) -> int:
    """Insert many rows with one prepared INSERT run per batch (executemany): `rows` are tuples of the values of
    the fields `names`, in that order. No model instance per row, no SQL compiled per row (`bulk_create` spent
    most of a history rewrite building instances and preparing values). Defaults are not filled in: name every
    column the table requires. Returns the rows inserted (in a process of a rebuild on SQLite: handed over).

    Measured (2026-12-07, a 2-core machine shared with five other jobs, 2 interleaved runs each): the worker's
    history tail of the largest season took 0.05–0.08 s of CPU on SQLite 1k (0.30 s with `bulk_create`), 0.6–0.7 s
    on SQLite 10k (2.1–2.8 s), 0.04 s on PostgreSQL 1k (0.22 s); the Elo tail over it 0.16–0.19 s on SQLite 1k
    (0.74–0.76 s), 1.8–2.0 s on SQLite 10k (7.3–7.4 s); `recompute_all` on PostgreSQL 1k 10–11 s of wall and
    1.0–1.2 s of CPU (17–19 s, 3.1–3.5 s); an upheld protest on SQLite 1k 67 ms of CPU (86 ms, +28%; the writes
    bench's ratio 31–34× the base.html page with `bulk_create`, over its goal of 30×). Commands: `DB_BULK_WRITES=0 bench/bench_ratings.py
    --games 1000 --writes` and `… --recompute-season` (bench/README.md), then without the variable."""
    meta = model._meta
    fields = [meta.get_field(name) for name in names]
    if row_sink is None and not settings.DB_BULK_WRITES:
        return _created(model, fields, rows, batch)
    qn = connection.ops.quote_name
    sql = (f"INSERT INTO {qn(meta.db_table)} (" + ", ".join(qn(f.column) for f in fields) + ") VALUES ("
           + ", ".join(["%s"] * len(fields)) + ")")
    preps = [None if f.get_internal_type() in RAW_TYPES else f for f in fields]
    if any(preps):
        rows = (tuple(v if p is None else p.get_db_prep_save(v, connection) for p, v in zip(preps, row, strict=True))
                for row in rows)
    if row_sink is not None:
        return row_sink(meta.db_table, [f.column for f in fields], rows)
    done = 0
    rows = iter(rows)
    # One transaction for the whole run when the caller has none: in autocommit every row of an executemany is a
    # transaction of its own (a WAL commit each: a hundred microseconds a row, most of a full recompute's time).
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        while chunk := list(islice(rows, batch)):
            cursor.executemany(sql, chunk)
            done += len(chunk)
    return done


def _created(model, fields: list, rows: Iterable[tuple], batch: int) -> int:
    """insert_rows by the public path (DB_BULK_WRITES off): an instance a row, `bulk_create` a batch."""
    made = 0
    rows = iter(rows)
    with transaction.atomic(savepoint=False):
        while chunk := list(islice(rows, batch)):
            made += len(model.objects.bulk_create(
                [model(**{f.attname: v for f, v in zip(fields, row, strict=True)}) for row in chunk]))
    return made


def clear_tables(*models_) -> None:
    """Empty whole tables at once: TRUNCATE on PostgreSQL, a DELETE without a condition on SQLite (which empties
    the table in one step). For tables no database constraint points into (the ratings' derived tables)."""
    qn = connection.ops.quote_name
    tables = [qn(m._meta.db_table) for m in models_]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("TRUNCATE " + ", ".join(tables))
        else:
            for table in tables:
                cursor.execute(f"DELETE FROM {table}")


def analyze_tables(*models_) -> None:
    """Refresh the query planner's statistics after a bulk rewrite of these tables (ANALYZE): emptied and refilled
    tables otherwise keep the statistics of before, and a plan made for an empty table may scan a million rows.
    On SQLite each table by name (three seconds for 100,000 games' ratings): `PRAGMA optimize` analyzes only what
    this connection's own queries used, and a rebuild in processes (club.processes) reads and writes in others."""
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Outside a transaction, VACUUM too: it frees the rows the rewrite deleted and marks the pages all
            # visible, which an index-only scan needs (ratings.models.PlayerGame's covering index).
            verb = "ANALYZE " if connection.in_atomic_block else "VACUUM (ANALYZE) "
            cursor.execute(verb + ", ".join(qn(m._meta.db_table) for m in models_))
            return
        for m in models_:
            cursor.execute("ANALYZE " + qn(m._meta.db_table))
