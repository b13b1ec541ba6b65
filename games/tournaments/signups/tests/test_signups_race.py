"""A race for the last place: several players tap «Записаться» at the same moment, each in his own thread and
database connection; exactly one gets the place, the others are on the waiting list in order.

The count of taken places is slowed down (a sleep right after it, inside the transaction), so without the sheet's
row lock (PostgreSQL: SELECT … FOR UPDATE) or the write lock of SQLite's BEGIN IMMEDIATE every thread would count
the same free place. Runs on the database the suite runs on (SQLite by default, PostgreSQL with DATABASE_URL)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connections

from games.tests.signup_fixtures import build_cast
from games.tournaments.signups import services
from games.tournaments.signups.models import Signup

pytestmark = [pytest.mark.django_db(transaction=True)]
RACERS = 6


def _slow_count(monkeypatch):
    counted = services._free_places

    def slow(sheet):
        free = counted(sheet)
        time.sleep(0.05)  # every other racer has reached its count by now, unless it waits for the lock
        return free

    monkeypatch.setattr(services, "_free_places", slow)


def test_the_last_place_goes_to_exactly_one_of_the_players_who_tap_at_once(monkeypatch):
    cast = build_cast(limit=2, players=RACERS + 1)
    services.sign_up(sheet=cast.sheet, by=cast.users[RACERS])  # one place left
    _slow_count(monkeypatch)
    start = threading.Barrier(RACERS)
    errors: list[BaseException] = []

    def tap(user):
        try:
            start.wait()
            services.sign_up(sheet=cast.sheet, by=user)
        except BaseException as error:  # noqa: BLE001 (reported below)
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tap, args=(user,)) for user in cast.users[:RACERS]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    statuses = list(Signup.objects.filter(sheet=cast.sheet, player__in=cast.players[:RACERS])
                    .order_by("queued_at", "id").values_list("status", flat=True))
    assert sorted(statuses) == sorted([Signup.Status.CONFIRMED] + [Signup.Status.WAITING] * (RACERS - 1))
    assert Signup.objects.filter(sheet=cast.sheet, status=Signup.Status.CONFIRMED).count() == 2
    assert statuses[0] == Signup.Status.CONFIRMED  # the first to get the lock got the place


def test_a_cancel_racing_a_sign_up_never_overfills_the_sheet(monkeypatch):
    cast = build_cast(limit=2, players=6)
    for user in cast.users[:4]:
        services.sign_up(sheet=cast.sheet, by=user)  # two confirmed, two waiting
    _slow_count(monkeypatch)
    start = threading.Barrier(3)
    errors: list[BaseException] = []

    def run(write):
        try:
            start.wait()
            write()
        except BaseException as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connections.close_all()

    writes = [lambda: services.sign_up_cancel(sheet=cast.sheet, by=cast.users[0]),
              lambda: services.sign_up(sheet=cast.sheet, by=cast.users[4]),
              lambda: services.sign_up(sheet=cast.sheet, by=cast.users[5])]
    threads = [threading.Thread(target=run, args=(w,)) for w in writes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    confirmed = set(Signup.objects.filter(sheet=cast.sheet, status=Signup.Status.CONFIRMED)
                    .values_list("player__nickname", flat=True))
    # the waiting list moved up first come first served: Игрок02 was waiting before the two newcomers
    assert confirmed == {"Игрок01", "Игрок02"}
    assert Signup.objects.filter(sheet=cast.sheet, status=Signup.Status.WAITING).count() == 3
