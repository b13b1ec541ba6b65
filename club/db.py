"""Database helpers shared by the apps (club is the bottom layer): conflicts between concurrent writers, recognised
the same way on SQLite and PostgreSQL, and one prepared UPDATE run for many rows."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from functools import cached_property, partial
from itertools import islice
from typing import Any

from django.conf import settings
from django.core.exceptions import EmptyResultSet
from django.db import InterfaceError, OperationalError, connection, models, transaction
from django.db.models.deletion import Collector
from django.db.models.sql.subqueries import DeleteQuery
from django.db.models.utils import create_namedtuple_class

# PostgreSQL SQLSTATEs of a conflict between transactions (serialization failure, deadlock, lock not available).
CONFLICT_SQLSTATES = {"40001", "40P01", "55P03"}


def site_lock(key: int) -> None:
    """Inside a transaction: wait for any other transaction holding the same site-wide lock. PostgreSQL takes an
    advisory transaction lock; SQLite has one writer at a time already (settings: transaction_mode IMMEDIATE)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def is_conflict(error: BaseException) -> bool:
    """Whether a database error is a conflict with another writer (answer 409/503 then, never 500): SQLite's
    "database is locked" after the busy timeout, a PostgreSQL deadlock, serialization failure or lock timeout."""
    if not isinstance(error, OperationalError):
        return False
    if getattr(error.__cause__, "sqlstate", None) in CONFLICT_SQLSTATES:
        return True
    text = str(error).lower()
    return "database is locked" in text or "database table is locked" in text or "deadlock" in text


# PostgreSQL SQLSTATEs of a server that is not there for the moment: class 08 (connection exception), the server
# shutting down or starting (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), too many
# connections (53300).
UNAVAILABLE_SQLSTATES = {"57P01", "57P02", "57P03", "53300"}
UNAVAILABLE_TEXTS = ("connection refused", "could not connect", "server closed the connection", "connection is closed",
                     "terminating connection", "the database system is", "connection timeout expired",
                     "no connection to the server", "unable to open database file", "disk i/o error",
                     "consuming input failed", "connection failed")


def is_unavailable(error: BaseException | None) -> bool:
    """Whether a database error means the database does not answer (answer 503 with Retry-After, never 500): the
    server stopped, restarting or unreachable, a connection it dropped, SQLite's file out of reach. A conflict
    between writers (is_conflict) and a bad query are not."""
    if isinstance(error, InterfaceError):
        return True
    if not isinstance(error, OperationalError) or is_conflict(error):
        return False
    sqlstate = getattr(error.__cause__, "sqlstate", None) or ""
    if sqlstate.startswith("08") or sqlstate in UNAVAILABLE_SQLSTATES:
        return True
    text = str(error).lower()
    return any(part in text for part in UNAVAILABLE_TEXTS)


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


def _sqlite_decimal(value, places: int):
    """A decimal column's value as SQLite returns it (an int, or a float), as a Decimal: the float rounded to the
    field's places and its shortest text give back the decimal written (or summed), without Django's converter (a
    context and a quantize per value, most of the cost of reading a table of points)."""
    if value is None:
        return None
    return Decimal(value) if isinstance(value, int) else Decimal(repr(round(value, places)))


def _sqlite_bool(value):
    return value if value is None else bool(value)


def converted_rows(queryset) -> Iterator[tuple]:
    """The rows of a `values()`/`values_list()` queryset (fields and annotations) as tuples in its SQL order, decimals
    as Decimal and booleans as bool read without Django's per-value converters (a decimal equal in value to what
    the ORM gives, not quantized); the other columns as the driver gives them: use it for numbers, strings and
    keys (a date comes as text on SQLite)."""
    compiler = queryset.query.get_compiler(queryset.db)
    sql, params = compiler.as_sql()
    convert: list[tuple[int, Callable[[Any], Any]]] = []
    if connection.vendor == "sqlite":  # psycopg gives Decimal and bool itself
        for i, (expression, _sql, _alias) in enumerate(compiler.select):
            field = getattr(expression, "output_field", None)
            if isinstance(field, models.DecimalField):
                convert.append((i, partial(_sqlite_decimal, places=field.decimal_places)))
            elif isinstance(field, models.BooleanField):
                convert.append((i, _sqlite_bool))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        while chunk := cursor.fetchmany(5000):
            if not convert:
                yield from chunk
                continue
            for row in chunk:
                row = list(row)
                for i, function in convert:
                    row[i] = function(row[i])
                yield tuple(row)


def values_rows(queryset) -> Iterator[dict]:
    """`converted_rows` of a `values(...)` queryset, as dicts by name."""
    query = queryset.query
    names = [*query.extra_select, *query.values_select, *query.annotation_select]
    for row in converted_rows(queryset):
        yield dict(zip(names, row, strict=True))


_MARK = -7_654_321  # the values a read is compiled with (the i-th is _MARK - i): no key of a row is negative
COMPILED_ARITY = 50  # reads of up to this many values keep one compiled statement per count (the rest compile)


class CompiledRead:
    """A read of `model`'s rows (with the rows of its `related` foreign keys, as `select_related` would) whose SQL
    the ORM compiles once per database and number of values, then runs again with other values: Django compiles a
    queryset on every run, a quarter of a millisecond of Python for a read of a few rows, and a game page's first
    render reads seven. The instances are built as the ORM builds them (every concrete field, Django's own
    converters); `build(*values)` gives the queryset, whose only parameters must be `values`. With `fields` (names
    as `values_list` takes them, annotations of `build`'s queryset included) it reads those only, as named rows;
    `build` may also return the `values_list(*fields)` queryset itself (sliced, say).

    settings.DB_COMPILED_READS off (env DB_COMPILED_READS=0) reads every row through the ORM's own path (the
    queryset compiled on each run): the same rows, for the suite run both ways and for measuring what the compiled
    statement buys (`bench/bench_pages.py --only game_page spectator_view` with and without). It earns its place:
    on the 10k SQLite database (2026-12-07, a loaded machine, CPU time × the base.html page, two runs each) the game
    page's first render 8.6×, 8.3× compiled against 12.1×, 11.1× through the ORM, its cached answer (which reads
    the game for its key) 1.6×, 1.8× against 4.0×, 3.0×, the spectator view's first render 5.4×, 5.9× against
    8.8×, 8.7×.

        SEATS = CompiledRead(Seat, lambda *games: Seat.objects.filter(game_id__in=games).order_by("number"),
                             related=("player",))
        seats = SEATS.instances(*game_ids)
    """

    def __init__(self, model, build: Callable[..., models.QuerySet], *, related: tuple[str, ...] = (),
                 fields: tuple[str, ...] = ()):
        self.model, self.build, self.related, self.fields = model, build, related, fields
        self._shapes: dict[tuple, tuple] = {}

    @cached_property
    def _row(self) -> type:
        return create_namedtuple_class(*self.fields)

    def named_rows(self, *values) -> list:
        """The rows of `fields`, as `values_list(*fields, named=True)` gives them."""
        row = self._row
        return [row(*values_) for values_ in self.rows(*values)]

    @cached_property
    def parts(self) -> list[tuple]:
        """(model, the foreign key to it on the row's instance, that key's column) of each related row. Looked up on
        first use: the models' relations are complete only once every app is loaded."""
        fields = [self.model._meta.get_field(name) for name in self.related]
        return [(field.related_model, field, field.attname) for field in fields]

    def _names(self) -> list[str]:
        if self.fields:
            return list(self.fields)
        names = [f.attname for f in self.model._meta.concrete_fields]
        for part, field, _attname in self.parts:
            names += [f"{field.name}__{f.attname}" for f in part._meta.concrete_fields]
        return names

    def _shape(self, arity: int) -> tuple:
        key = (connection.alias, connection.vendor, arity)
        shape = self._shapes.get(key)
        if shape is None:
            marks = [_MARK - i for i in range(arity)]
            queryset = self.build(*marks)
            if queryset._fields is None:  # type: ignore[attr-defined]  # `build` may shape the rows itself (a values_list with a slice)
                queryset = queryset.values_list(*self._names())
            sql, params, converters = _compiled(queryset)
            where = {mark: i for i, mark in enumerate(marks)}
            if not set(params) <= where.keys():
                raise ValueError(f"{self.model.__name__}: the read has parameters besides its values: {params}")
            shape = (sql, [where[value] for value in params], converters)
            if arity <= COMPILED_ARITY:
                self._shapes[key] = shape
        return shape

    def _orm_rows(self, *values) -> list[list]:
        """The same rows read by the ORM as it reads any queryset (settings.DB_COMPILED_READS off)."""
        queryset = self.build(*values)
        if queryset._fields is None:  # type: ignore[attr-defined]
            queryset = queryset.values_list(*self._names())
        return [list(row) for row in queryset]

    def rows(self, *values) -> list[list]:
        """The rows as lists of column values, converted as the ORM converts them (in `_names` order)."""
        if not settings.DB_COMPILED_READS:
            return self._orm_rows(*values)
        sql, positions, converters = self._shape(len(values))
        if not sql:
            return []
        with connection.cursor() as cursor:
            cursor.execute(sql, [values[i] for i in positions])
            return _converted(cursor.fetchall(), converters)

    def instances(self, *values) -> list:
        """The model's instances, each with its `related` rows cached on it (None where the key is empty)."""
        db = connection.alias
        result = []
        for row in self.rows(*values):
            start = len(self.model._meta.concrete_fields)
            instance = self.model.from_db(db, None, row[:start])
            for part, field, attname in self.parts:
                end = start + len(part._meta.concrete_fields)
                related = part.from_db(db, None, row[start:end]) if getattr(instance, attname) is not None else None
                field.set_cached_value(instance, related)
                start = end
            result.append(instance)
        return result


def _compiled(queryset) -> tuple[str, list, dict]:
    """The queryset's SQL, parameters and the ORM's converters of its columns; ("", [], {}) when the ORM would
    run no statement (an IN of no values: no row)."""
    compiler = queryset.query.get_compiler(queryset.db)
    try:
        sql, params = compiler.as_sql()
    except EmptyResultSet:
        return "", [], {}
    return sql, list(params), compiler.get_converters([expression for expression, _sql, _alias in compiler.select])


def _converted(rows: list[tuple], converters: dict) -> list[list]:
    """Rows as the ORM gives them: each column through its converters (`SQLCompiler.get_converters`)."""
    result = []
    for row in rows:
        values = list(row)
        for i, (functions, expression) in converters.items():
            value = values[i]
            for function in functions:
                value = function(value, expression, connection)
            values[i] = value
        result.append(values)
    return result


def planned_each_time(queryset) -> list[list]:
    """The rows of a `values_list` queryset (converted as the ORM converts them), planned for its own values on
    PostgreSQL: never a prepared statement (settings DATABASE_PREPARED), whose generic plan, chosen after five
    runs, is made without the values. For a read whose best plan depends on them: a regular's two thousand points
    of a season against another player's ten, where the generic plan guessed one row and filtered his whole
    season (5 ms instead of 1.5 for the card's chart at 100,000 games)."""
    sql, params, converters = _compiled(queryset)
    if not sql:
        return []
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            cursor.execute(sql, params)
        else:
            driver = connection.connection  # psycopg's: its threshold None prepares nothing
            saved, driver.prepare_threshold = driver.prepare_threshold, None
            try:
                cursor.execute(sql, params)
            finally:
                driver.prepare_threshold = saved
        return _converted(cursor.fetchall(), converters)


class CoveringIndex(models.Index):
    """An index that holds its `include` columns on either database: PostgreSQL's INCLUDE, and on SQLite, which has
    no INCLUDE (Django leaves those columns out), at the end of the key. A read of rows found by the key that needs
    only these columns then reads no table row (an index-only scan; SQLite's "covering index")."""

    def create_sql(self, model, schema_editor, using="", **kwargs):
        if self.include and not schema_editor.connection.features.supports_covering_indexes:
            keyed = self.clone()
            keyed.fields_orders = [*self.fields_orders, *((name, "") for name in self.include)]
            keyed.include = ()
            return keyed.create_sql(model, schema_editor, using=using, **kwargs)
        return super().create_sql(model, schema_editor, using=using, **kwargs)
