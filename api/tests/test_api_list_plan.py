"""The API's list of games reads its page through an index, in order, whatever the number of games: no sort of
every game for a page (api.selectors.games, games/migrations/0019_game_api_latest.py). SQLite's plan is checked;
PostgreSQL chooses by its statistics (bench/README.md gives its figures)."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from api import selectors

pytestmark = pytest.mark.django_db


def _plan(queryset) -> str:
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return " | ".join(str(row[-1]) for row in cursor.fetchall())


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's plan")
def test_a_public_page_of_games_is_read_in_order_from_the_index():
    page = selectors.games(AnonymousUser(), club_id=None, tournament_id=None, season_id=None, date=None)[:50]
    plan = _plan(page)
    assert "USING INDEX game_api_latest" in plan and "TEMP B-TREE" not in plan, plan
