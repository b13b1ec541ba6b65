"""A full rebuild of the ratings in two processes (club.processes) stores exactly what one process stores.

`recompute_all` splits its work on PostgreSQL: the facts by ranges of games, then the scopes in batches and each
club's Elo, each part in a forked process with its own connection and transaction. The rows must not depend on
how the work was split: every derived table is compared row for row (without the row ids).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection, transaction

from club.models import Club
from club.processes import usable_workers
from ratings.models import EloChange, EloRating, PlayerGame, PlayerStats, RatingPoint
from ratings.standings import services
from ratings.tests.conftest import generated, make_tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

POOL = [f"Игрок {i}" for i in range(1, 15)]


@pytest.fixture(autouse=True)
def _needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (processes are used there only: SQLite writes one transaction at a time)")


def _rows(model, order: tuple[str, ...]) -> list[tuple]:
    names = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
    return list(model.objects.order_by(*order).values_list(*names))


def _stored() -> dict[str, list[tuple]]:
    return {
        "facts": _rows(PlayerGame, ("game_id", "player_id")),
        "tables": _rows(PlayerStats, ("scope_id", "player_id")),
        "history": _rows(RatingPoint, ("scope_id", "seq", "player_id")),
        "elo": _rows(EloChange, ("club_id", "date", "game_id", "player_id")),
        "ratings": _rows(EloRating, ("club_id", "player_id")),
    }


def test_two_processes_store_what_one_stores():
    clubs = [Club.objects.create(name="Полночь"), Club.objects.create(name="Рассвет")]
    for n, (club, start) in enumerate([(clubs[0], dt.date(2025, 3, 1)), (clubs[0], dt.date(2025, 11, 20)),
                                       (clubs[0], dt.date(2026, 2, 1)), (clubs[1], dt.date(2025, 5, 5))]):
        generated(make_tournament(club, f"Кубок {n}", start=start), 9, seed=n, start=start, pool=POOL)
    assert usable_workers(2) == 2

    services.recompute_all(workers=1)
    one = _stored()
    services.recompute_all(workers=2)
    assert _stored() == one
    assert all(one.values())  # every table has rows: the comparison compared something
    # every scope (four tournaments, the seasons 2025 and 2026 of the first club, 2025 of the second) rebuilt
    assert len({row[0] for row in one["history"]}) == 7


def test_one_process_where_processes_cannot_help():
    assert usable_workers(3) == 3 and usable_workers(1) == 1
    with transaction.atomic():  # a forked process would not see this transaction's rows
        assert usable_workers(3) == 1
