"""A full rebuild of the ratings in two processes (club.processes) stores exactly what one process stores.

`recompute_all` splits its work: the facts by ranges of games, then the scopes in batches and each club's Elo,
each part in a forked process with its own connection. On PostgreSQL each process writes its rows; on SQLite
each writes them to a file of its own, copied in at the end. The rows must not depend on how the work was split:
every derived table is compared row for row (without the row ids). The tests' SQLite database lives in memory,
where processes cannot share it: that case runs in a child process on a database file.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from django.db import connection, transaction

from club.models import Club
from club.processes import run_parts, usable_workers
from ratings.models import EloChange, EloRating, PlayerGame, PlayerStats, RatingPoint
from ratings.standings import services
from ratings.tests.conftest import generated, make_tournament

ROOT = Path(__file__).resolve().parents[2]
POOL = [f"Игрок {i}" for i in range(1, 15)]


def _rows(model, order: tuple[str, ...]) -> list[tuple]:
    names = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
    return list(model.objects.order_by(*order).values_list(*names))


def _stored() -> dict[str, list[tuple]]:
    return {
        "facts": _rows(PlayerGame, ("game_id", "player_id")),
        "tables": _rows(PlayerStats, ("scope_id", "player_id")),
        "history": _rows(RatingPoint, ("scope_id", "seq", "player_id")),
        "elo": _rows(EloChange, ("club_id", "date", "game_id", "player_id")),
        "ratings": _rows(EloRating, ("player_id",)),
    }


def one_and_two_processes() -> tuple[dict, dict]:
    """Two clubs' games (four tournaments over two seasons), rebuilt in one process, then in two: what each stored."""
    clubs = [Club.objects.create(name="Полночь"), Club.objects.create(name="Рассвет")]
    for n, (club, start) in enumerate([(clubs[0], dt.date(2025, 3, 1)), (clubs[0], dt.date(2025, 11, 20)),
                                       (clubs[0], dt.date(2026, 2, 1)), (clubs[1], dt.date(2025, 5, 5))]):
        generated(make_tournament(club, f"Кубок {n}", start=start), 9, seed=n, start=start, pool=POOL)
    assert usable_workers(2) == 2
    services.recompute_all(workers=1)
    one = _stored()
    services.recompute_all(workers=2)
    return one, _stored()


def _compared(one: dict, two: dict) -> None:
    assert two == one
    assert all(one.values())  # every table has rows: the comparison compared something
    # every scope (four tournaments, the seasons 2025 and 2026 of the first club, 2025 of the second) rebuilt
    assert len({row[0] for row in one["history"]}) == 7


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_processes_store_what_one_stores_on_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (the tests' SQLite database is in memory: see the test on a file below)")
    _compared(*one_and_two_processes())
    # Outside a transaction the rebuild ends with VACUUM: the rewritten table's pages are marked all visible,
    # which the card's index-only scans of a player's games need (ratings.models.PlayerGame).
    with connection.cursor() as cursor:
        cursor.execute("SELECT relpages, relallvisible FROM pg_class WHERE relname = 'ratings_playergame'")
        pages, visible = cursor.fetchone()
    assert pages > 0 and visible == pages


@pytest.mark.parametrize("switch", ["1", "0"], ids=["bulk-sql", "bulk-orm"])  # club.bulk's switch
def test_two_processes_store_what_one_stores_on_a_sqlite_file(tmp_path, switch):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'rebuild.sqlite3'}", "DB_BULK_WRITES": switch,
           "DJANGO_SETTINGS_MODULE": "club.settings", "DEBUG": "1", "SECRET_KEY": "rebuild-test-" + "x" * 40}
    script = ("import django; django.setup(); from django.core.management import call_command; "
              "call_command('migrate', verbosity=0); from ratings.tests import test_rebuild_processes as t; "
              "t._compared(*t.one_and_two_processes()); print('same rows')")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "same rows" in done.stdout


def test_a_database_in_memory_is_told_by_its_name():
    from club.processes import _in_memory

    assert _in_memory({"NAME": ":memory:"}) and _in_memory({"NAME": "file:memorydb_default?mode=memory&cache=shared"})
    assert not _in_memory({"NAME": "/srv/mafclub/db.sqlite3"}) and not _in_memory({"NAME": Path("/tmp/x.sqlite3")})


@pytest.mark.django_db(transaction=True)
def test_one_process_where_processes_cannot_help():
    with transaction.atomic():  # a forked process would not see this transaction's rows
        assert usable_workers(3) == 1
    assert usable_workers(3) == (3 if connection.vendor == "postgresql" else 1)  # the tests' SQLite is in memory


def _dies_on_two(part: int) -> int:
    if part == 2:
        os._exit(3)  # as a process killed mid-part (out of memory, a kill -9) ends: no exception, no word
    return part


@pytest.mark.django_db(transaction=True)
def test_a_process_that_dies_stops_the_rebuild_instead_of_leaving_it_waiting():
    with pytest.raises(BrokenProcessPool):
        run_parts(_dies_on_two, [1, 2, 3, 4], 2)
    assert sorted(run_parts(_dies_on_two, [1, 3, 4], 2)) == [1, 3, 4]
