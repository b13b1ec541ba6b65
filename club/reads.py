"""Reads tuned past the ORM's own path: a read compiled once (CompiledRead), reads planned for their own values
(planned_each_time). See each docstring for what it measured and its switch."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, cached_property

from django.conf import settings
from django.core.exceptions import EmptyResultSet
from django.db import DatabaseError, connection, models


@cache
def _columns(model) -> tuple:
    """The model's fields with a column of its table, in the order `Model.from_db` takes their values (the
    documented `_meta.get_fields()` and `Field.concrete`; a many-to-many field has its own table)."""
    return tuple(f for f in model._meta.get_fields() if f.concrete and not f.many_to_many)


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
        return namedtuple("Row", self.fields)  # noqa: PYI024  # as values_list(named=True) names its rows

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
        names = [f.attname for f in _columns(self.model)]
        for part, field, _attname in self.parts:
            names += [f"{field.name}__{f.attname}" for f in _columns(part)]
        return names

    def _query(self, *values) -> models.QuerySet:
        """`build`'s queryset as rows of `_names` (the same queryset when `build` shaped it itself, sliced say)."""
        return self.build(*values).values_list(*self._names())

    def _shape(self, arity: int) -> tuple:
        key = (connection.alias, connection.vendor, arity)
        shape = self._shapes.get(key)
        if shape is None:
            marks = [_MARK - i for i in range(arity)]
            sql, params, converters = _compiled(self._query(*marks))
            where = {mark: i for i, mark in enumerate(marks)}
            if not set(params) <= where.keys():
                raise ValueError(f"{self.model.__name__}: the read has parameters besides its values: {params}")
            shape = (sql, [where[value] for value in params], converters)
            if arity <= COMPILED_ARITY:
                self._shapes[key] = shape
        return shape

    def _orm_rows(self, *values) -> list[list]:
        """The same rows read by the ORM as it reads any queryset (settings.DB_COMPILED_READS off)."""
        return [list(row) for row in self._query(*values)]

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
            start = len(_columns(self.model))
            instance = self.model.from_db(db, None, row[:start])
            for part, field, attname in self.parts:
                end = start + len(_columns(part))
                related = part.from_db(db, None, row[start:end]) if getattr(instance, attname) is not None else None
                setattr(instance, field.name, related)  # the related row kept on it, as select_related keeps it
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


@contextmanager
def planned_each_time() -> Iterator[None]:
    """The reads run inside planned for their own values on PostgreSQL (its `plan_cache_mode` set to
    force_custom_plan for them, plain SQL through connection.cursor()): a prepared statement (settings
    DATABASE_PREPARED) is otherwise run with a generic plan after five runs, made without the values. For a read
    whose best plan depends on them: a regular's two thousand points of a season against another player's ten,
    where the generic plan guessed one row and filtered his whole season. On SQLite, which has no such plan, it
    does nothing.

        with planned_each_time():
            rows = list(queryset)

    settings.DB_PLANNED_EACH_TIME off (env DB_PLANNED_EACH_TIME=0) runs them as any other read, for the suite run
    both ways and for measuring what it buys (`DATABASE_URL=postgres://… bench/bench_pages.py --only card_history`
    with and without). It touches no private name (it was psycopg's `prepare_threshold` swapped on
    `connection.connection` around a statement compiled by hand). What it buys shows with a player of thousands of
    points: at 100k games on PostgreSQL the chart's read took 5.2 ms with the generic plan, 1.8 ms planned for his
    values (2026-12-05, bench/README.md). At 10k (2026-12-07, his 245 points of a season, a loaded machine) it is
    within the noise: the page 31.7×, 37.7× the bare response in CPU planned against 39.1×, 40.2× (the server's
    work, which the change is about, is not in that figure), the read alone 9.4 ms against 10.8 ms (median of 30)."""
    if connection.vendor != "postgresql" or not settings.DB_PLANNED_EACH_TIME:
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET plan_cache_mode = force_custom_plan")
    failed = False
    try:
        yield
    except BaseException:
        failed = True
        raise
    finally:
        # The connection (kept between requests) gets the server's own mode back; after an error that aborted a
        # transaction no statement runs, and the transaction's rollback undoes the SET.
        try:
            with connection.cursor() as cursor:
                cursor.execute("RESET plan_cache_mode")
        except DatabaseError:
            if not failed:
                raise
