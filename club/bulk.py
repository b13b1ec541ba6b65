"""Bulk writes of the ratings' derived tables (and a rescoring's seat rows): many rows inserted, updated, deleted or
read back in a few statements. See each function's docstring for what it measured against the public ORM."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

from django.db import connection, transaction
from django.db.models.deletion import Collector
from django.db.models.sql.subqueries import DeleteQuery

UPDATE_CHUNK = 500  # rows per UPDATE statement (SQLite takes at most 32,766 parameters in one)


def update_rows(model, names: list[str], rows: list[tuple[int, dict[str, Any]]]) -> None:
    """Write the fields `names` of many rows with one UPDATE … FROM (VALUES …) statement per UPDATE_CHUNK rows
    (on PostgreSQL one UPDATE … FROM UNNEST(…), an array per column, for all of them): `rows` are (primary key,
    {field name: value}), each key at most once (which of two would win is not defined). Django's `bulk_update`
    builds a CASE per row and column (most of an import's and a rescore's time); an executemany of one UPDATE per
    row is one round trip per row on PostgreSQL (a re-ranked table of 300 players took 18 ms)."""
    if not rows:
        return
    meta = model._meta
    qn = connection.ops.quote_name
    fields = [meta.get_field(name) for name in names]
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


COPY_ROWS = 50  # from this many rows in a batch on, PostgreSQL is given them by COPY (psycopg's copy.write_row)


# Set in a process of a rebuild on SQLite (club.processes): `insert_rows` writes its rows (table, columns, rows
# prepared for the driver) aside instead, to be copied into the database in one statement per table.
row_sink: Callable[[str, list[str], Iterable[tuple]], int] | None = None


def insert_rows(model, names: list[str], rows: Iterable[tuple], *, batch: int = 5000) -> int:
    """Insert many rows with one prepared INSERT run per batch (executemany; on PostgreSQL a COPY for a batch of
    COPY_ROWS or more whose fields the driver takes as they are): `rows` are tuples of the values of
    the fields `names`, in that order. No model instance per row, no SQL compiled per row (`bulk_create` spent
    most of a history rewrite building instances and preparing values). Defaults are not filled in: name every
    column the table requires. Returns the rows inserted (in a process of a rebuild on SQLite: handed over)."""
    meta = model._meta
    qn = connection.ops.quote_name
    fields = [meta.get_field(name) for name in names]
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
    copy = (f"COPY {qn(meta.db_table)} (" + ", ".join(qn(f.column) for f in fields) + ") FROM STDIN"
            if connection.vendor == "postgresql" and not any(preps) else None)
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        while chunk := list(islice(rows, batch)):
            if copy and len(chunk) >= COPY_ROWS:  # PostgreSQL's bulk path: the rows streamed in one COPY
                with cursor.cursor.copy(copy) as stream:
                    for row in chunk:
                        stream.write_row(row)
            else:
                cursor.executemany(sql, chunk)
            done += len(chunk)
    return done


def delete_returning(queryset, field: str) -> list:
    """Delete the queryset's rows in one statement and return `field` of each row deleted, as the driver gives it
    (DELETE … RETURNING: PostgreSQL, SQLite 3.35+), instead of a read of the rows before their DELETE. For a model no
    key points into and no delete signal watches: nothing is collected, as in Django's own fast delete."""
    if not Collector(using=queryset.db, origin=queryset).can_fast_delete(queryset):
        raise ValueError(f"{queryset.model.__name__} rows are deleted with their dependants: use QuerySet.delete()")
    query = queryset.query.chain(DeleteQuery)
    sql, params = query.get_compiler(queryset.db).as_sql()
    column = connection.ops.quote_name(queryset.model._meta.get_field(field).column)
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        cursor.execute(f"{sql} RETURNING {column}", params)
        return [row[0] for row in cursor.fetchall()]


def raw_rows(queryset, *, batch: int = 5000) -> Iterator[tuple]:
    """The rows of a `values_list` queryset as the driver returns them, without Django's per-value converters:
    on SQLite a decimal comes as a float or an int and a date as its ISO text (the converters took a third of a
    history rewrite), on PostgreSQL as Decimal and date. Write such values back as they are (`insert_rows`)."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        while chunk := cursor.fetchmany(batch):
            yield from chunk


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
