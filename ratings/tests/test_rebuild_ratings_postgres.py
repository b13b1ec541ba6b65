"""`rebuild_ratings` beside a live write on a real PostgreSQL: the rebuild holds a part's lock (a tournament's
scoring lock while it rewrites the facts, a scope's row while it recomputes the table) and, in another connection,
a game of that tournament is annulled and rescored (as a protest decision does). The write waits for the part,
then applies its change: the result is what a rebuild from nothing gives for the games as they end up — the
write neither lost nor counted twice.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from ratings.standings import services
from ratings.standings.rebuild import rebuild
from ratings.tests.test_rebuild_ratings import annul_and_rescore, history, stored

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HOLD = 0.7  # seconds the rebuild keeps its part open once the write has started


@pytest.fixture(autouse=True)
def _needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (two connections writing at once): run with DATABASE_URL=postgres://…")


def _in_thread(function, errors: list) -> threading.Thread:
    def run():
        try:
            function()
        except Exception as exc:  # noqa: BLE001 — handed to the test
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.parametrize("held", ["refresh", "recompute_scope"])
def test_a_write_waits_for_the_part_it_meets_and_is_counted_once(club, monkeypatch, held):
    games = history(club)
    inside, release = threading.Event(), threading.Event()
    real = getattr(services, held)

    def holding(*args, **kwargs):
        if not inside.is_set():  # the first part of the pass: the first tournament's games, or its scope
            inside.set()
            release.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(services, held, holding)
    errors: list = []
    rebuilding = _in_thread(lambda: rebuild(workers=1), errors)
    assert inside.wait(20)
    writing = _in_thread(lambda: annul_and_rescore(games[2]), errors)  # a game of the first tournament
    writing.join(HOLD)
    assert writing.is_alive()  # waiting for the rebuild's lock
    release.set()
    rebuilding.join(60)
    writing.join(60)
    assert not errors
    monkeypatch.undo()
    after = stored()
    services.recompute_all()
    assert after == stored()
