"""No lost update on a real PostgreSQL: two connections write one protocol at the same moment."""

import threading
import time

import pytest
from django.db import connection, transaction

from games.live.apply import live_apply
from games.live.base import StaleVersion
from games.models import Game, Seat
from games.tests.live_fixtures import ROLES, make_cast, seat_everyone

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks): run with DATABASE_URL=postgres://…")


def test_the_second_of_two_simultaneous_edits_is_refused_as_stale(english):
    cast = make_cast()
    seat_everyone(cast.game, cast.players, ROLES)
    live_apply(game_id=cast.game.pk, by=cast.judge, kind="start", payload={}, version=1, action_id="start")
    shown = Game.objects.get(pk=cast.game.pk).version  # both tabs show this version
    locked, outcome = threading.Event(), {}

    def first_tab():
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=cast.game.pk)  # holds the row while "thinking"
                locked.set()
                time.sleep(0.5)
                live_apply(game_id=cast.game.pk, by=cast.judge, kind="foul", payload={"seat": 3, "delta": 1},
                           version=shown, action_id="tab-1")
            outcome["first"] = "ok"
        finally:
            connection.close()

    def second_tab():
        try:
            locked.wait(5)
            started = time.monotonic()
            try:
                live_apply(game_id=cast.game.pk, by=cast.head_judge, kind="foul", payload={"seat": 4, "delta": 1},
                           version=shown, action_id="tab-2")
                outcome["second"] = "ok"
            except StaleVersion as exc:
                outcome["second"] = str(exc)
            outcome["waited"] = time.monotonic() - started
        finally:
            connection.close()

    threads = [threading.Thread(target=first_tab), threading.Thread(target=second_tab)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert outcome["first"] == "ok"
    assert "changed on another screen" in outcome["second"]
    assert outcome["waited"] > 0.3  # the second connection waited for the row lock
    assert Seat.objects.get(game=cast.game, number=3).fouls == 1
    assert Seat.objects.get(game=cast.game, number=4).fouls == 0
    assert Game.objects.get(pk=cast.game.pk).version == shown + 1
