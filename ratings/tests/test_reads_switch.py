"""club.reads.planned_each_time both ways of its switch (settings.DB_PLANNED_EACH_TIME): the ORM's rows either way,
never a generic plan on PostgreSQL when on, and the connection's own plan mode back after it, an error or not.
(CompiledRead's both ways: games/protocol/tests/test_compiled_read.py.)"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection

from club.tests.factories import ClubFactory, PlayerFactory
from games.models import Game, RuleSetVersion, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def seats():
    club = ClubFactory()
    ruleset = RuleSetVersion.objects.get(slug="cml", club__isnull=True, version=1)
    game = Game.objects.create(club=club, ruleset=ruleset, number=1, date=dt.date(2026, 1, 1))
    for number, (main, won) in enumerate([(Decimal("0.3"), True), (Decimal("-0.25"), False),
                                          (Decimal("1.123456"), True), (Decimal("2"), None)], start=1):
        Seat.objects.create(game=game, number=number, player=PlayerFactory(club=club), role="К", main=main,
                            extras=Decimal(0), total=main, tiebreak_extras=Decimal(0), won=bool(won),
                            first_night_death=won is None)
    return game


@pytest.fixture(params=[True, False], ids=["planned", "prepared"])
def planned(request, settings) -> bool:
    settings.DB_PLANNED_EACH_TIME = request.param
    return request.param


def _plans(sql_part: str) -> tuple[int, int]:
    """(generic, custom) plans PostgreSQL made for this connection's prepared statement of the read."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(sum(generic_plans), 0), coalesce(sum(custom_plans), 0) "
                       "FROM pg_prepared_statements WHERE statement LIKE %s", [f"%{sql_part}%"])
        generic, custom = cursor.fetchone()
    return int(generic), int(custom)


def _mode() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        return cursor.fetchone()[0]


def test_a_read_planned_each_time_gives_the_orms_rows_and_never_a_generic_plan(planned, seats):
    from club.reads import planned_each_time

    query = Seat.objects.filter(game=seats, number__in=[1, 3]).order_by("number").values_list("number", "main", "won")
    expected = [(1, Decimal("0.3"), True), (3, Decimal("1.123456"), True)]
    postgresql = connection.vendor == "postgresql" and connection.connection.prepare_threshold is not None
    before = _mode() if postgresql else None
    for _ in range(12):  # more runs than the prepared statements' threshold (settings DATABASE_PREPARE_AFTER)
        with planned_each_time():
            assert list(query.all()) == expected
    if not postgresql:
        pytest.skip("SQLite: no prepared statement's plan to choose")
    assert _mode() == before  # the connection's own mode back after the read
    generic, custom = _plans('"games_seat"."number" IN (')
    assert custom >= 1  # the statement was prepared and run
    if planned:
        assert generic == 0
    else:
        assert generic >= 1  # what the switch prevents: after five runs PostgreSQL keeps the generic plan


def test_an_error_inside_a_read_planned_each_time_leaves_the_connection_as_it_was(planned):
    from django.db import DatabaseError, transaction

    from club.reads import planned_each_time

    if connection.vendor != "postgresql":
        pytest.skip("SQLite: nothing is set")
    before = _mode()
    with pytest.raises(DatabaseError), transaction.atomic(), planned_each_time():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 / 0")
    assert _mode() == before
    with pytest.raises(ZeroDivisionError), planned_each_time():
        raise ZeroDivisionError
    assert _mode() == before
