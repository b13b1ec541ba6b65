"""club.reads.converted_rows and values_rows run both ways of their switch (settings.DB_RAW_READS): without Django's
per-value converters, and through the queryset's own rows; the values are the same either way, and a standings
rebuild that reads its seats and tables through them stores the same rows. club.reads.planned_each_time both ways
of its own (settings.DB_PLANNED_EACH_TIME): the ORM's rows, never a generic plan on PostgreSQL when on."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection

from club.reads import converted_rows, values_rows
from club.tests.factories import ClubFactory, PlayerFactory
from games.models import Game, RuleSetVersion, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[True, False], ids=["raw", "orm"])
def raw(request, settings) -> bool:
    settings.DB_RAW_READS = request.param
    return request.param


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


@pytest.fixture
def converters_run(monkeypatch) -> list:
    """The columns whose converters Django looked up (the ORM's path does it for each query it runs)."""
    seen: list = []
    original = type(connection.ops).get_db_converters

    def counted(ops, expression):
        seen.append(expression)
        return original(ops, expression)

    monkeypatch.setattr(type(connection.ops), "get_db_converters", counted)
    return seen


def test_converted_rows_give_the_orms_values_either_way(raw, seats, converters_run):
    query = Seat.objects.order_by("number").values_list("number", "main", "total", "won", "first_night_death",
                                                        "player_id")
    read = list(converted_rows(query))
    assert bool(converters_run) is not raw  # the raw path never asks the ORM for its converters
    assert read == list(query)
    assert [row[1] for row in read] == [Decimal("0.3"), Decimal("-0.25"), Decimal("1.123456"), Decimal("2")]
    assert all(isinstance(row[3], bool) and isinstance(row[4], bool) and isinstance(row[1], Decimal) for row in read)


def test_values_rows_give_the_orms_dicts_either_way(raw, seats, converters_run):
    from django.db.models import Sum

    query = Seat.objects.order_by("number").values("number", "won", "player__nickname")
    read = list(values_rows(query))
    assert bool(converters_run) is not raw
    assert read == list(query)
    summed = Seat.objects.values("game_id").annotate(sum=Sum("total")).order_by("game_id")
    assert list(values_rows(summed)) == list(summed) == [{"game_id": seats.pk, "sum": Decimal("3.173456")}]


def test_a_tournaments_rebuild_stores_the_same_rows_either_way(settings):
    from games.tests.protest_fixtures import ex18_tournament
    from ratings.models import PlayerGame, PlayerStats, RatingScope
    from ratings.standings.services import recompute_scope
    from ratings.statistics.registry import STAT_FIELDS

    tournament = ex18_tournament()
    scope = RatingScope.objects.get(kind=RatingScope.Kind.TOURNAMENT, tournament=tournament)

    def stored() -> tuple[list, list]:
        return (list(PlayerStats.objects.filter(scope=scope).order_by("player_id").values_list(
                    "player_id", "rank", *STAT_FIELDS)),
                list(PlayerGame.objects.filter(tournament=tournament).order_by("game_id", "seat").values_list(
                    "player_id", "seat", "won", "total")))

    settings.DB_RAW_READS = True
    recompute_scope(scope, rebuild_games=True)
    raw = stored()
    assert raw[0] and raw[1]
    settings.DB_RAW_READS = False
    PlayerStats.objects.filter(scope=scope).update(total=Decimal("-99"))  # wrong tables, set right by the rebuild
    PlayerGame.objects.filter(tournament=tournament).delete()
    recompute_scope(scope, rebuild_games=True)
    assert stored() == raw


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
