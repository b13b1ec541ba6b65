"""club.bulk's helpers write and read exactly what the ORM would, on SQLite and on PostgreSQL (run on both by
./dev.sh test), both ways of their switch (settings.DB_BULK_WRITES, the `bulk_writes` fixture): many rows in one
UPDATE … FROM (VALUES …), a batch in one executemany."""

import datetime as dt
from decimal import Decimal

import pytest

from club import bulk
from club.bulk import insert_rows, update_rows
from club.tests.factories import ClubFactory, PlayerFactory
from games.models import Game, RuleSetVersion
from ratings.models import RatingPoint, RatingScope, Season

pytestmark = pytest.mark.django_db


def _games(club, n: int) -> list[Game]:
    ruleset = RuleSetVersion.objects.get(slug="cml", club__isnull=True, version=1)
    return [Game.objects.create(club=club, ruleset=ruleset, number=i, date=dt.date(2026, 1, 1))
            for i in range(1, n + 1)]


@pytest.mark.usefixtures("bulk_writes")
def test_update_rows_writes_each_row_its_own_values_and_leaves_the_others():
    games = _games(ClubFactory(), 3)
    update_rows(Game, ["table", "results_hidden", "date"], [
        (games[0].pk, {"table": None, "results_hidden": True, "date": dt.date(2026, 2, 1)}),
        (games[1].pk, {"table": 7, "results_hidden": False, "date": dt.date(2026, 3, 1)})])
    got = {g.pk: (g.table, g.results_hidden, g.date) for g in Game.objects.all()}
    assert got == {games[0].pk: (None, True, dt.date(2026, 2, 1)), games[1].pk: (7, False, dt.date(2026, 3, 1)),
                   games[2].pk: (None, False, dt.date(2026, 1, 1))}


@pytest.mark.usefixtures("bulk_writes")
def test_update_rows_takes_a_column_of_nulls_and_more_rows_than_one_statement(monkeypatch):
    games = _games(ClubFactory(), 3)
    Game.objects.update(table=5)
    update_rows(Game, ["table"], [(g.pk, {"table": None}) for g in games])  # PostgreSQL would type it as text
    assert set(Game.objects.values_list("table", flat=True)) == {None}
    monkeypatch.setattr(bulk, "UPDATE_CHUNK", 2)  # three rows: two statements
    update_rows(Game, ["table"], [(g.pk, {"table": 10 + i}) for i, g in enumerate(games)])
    assert dict(Game.objects.values_list("pk", "table")) == {g.pk: 10 + i for i, g in enumerate(games)}


@pytest.mark.usefixtures("bulk_writes")
def test_a_batch_is_inserted_whole_with_its_decimals_and_dates():
    club = ClubFactory()
    game = _games(club, 1)[0]
    player = PlayerFactory(club=club)
    season = Season.objects.create(club=club, name="2026", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31))
    scope = RatingScope.objects.create(kind=RatingScope.Kind.SEASON, club=club, season=season)
    rows = [(scope.pk, player.pk, game.pk, dt.date(2026, 1, 1) + dt.timedelta(days=i), i, i,
             Decimal("0.3") * i, Decimal("-1.25") + i, i + 1) for i in range(60)]
    names = ["scope_id", "player_id", "game_id", "date", "seq", "n", "points", "cumulative", "rank"]
    assert insert_rows(RatingPoint, names, rows) == len(rows)
    stored = list(RatingPoint.objects.order_by("seq").values_list(*names))
    assert stored == rows
