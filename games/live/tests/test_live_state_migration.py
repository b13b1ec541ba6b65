"""The data migration that moved the speeches, the judge's grants, the 3rd-foul speech losses and the first «Стоп
игра» out of the action log onto the protocol's rows (games/migrations/0007_explicit_speech_state.py)."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps
from django.utils import timezone

from games.models import Day, Game, GameAction, Seat
from games.tests.live_fixtures import ROLES, make_cast, seat_everyone

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("games.migrations.0007_explicit_speech_state")


def test_the_old_action_payloads_become_fields_of_the_days_seats_and_game():
    cast = make_cast("xcraft")
    game = cast.game
    seat_everyone(game, cast.players, ROLES)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    Day.objects.create(game=game, index=1, nominations=[])
    Day.objects.create(game=game, index=2, nominations=[])
    Seat.objects.filter(game=game, number=4).update(fouls=3)
    Seat.objects.filter(game=game, number=6).update(fouls=2)  # its 3rd foul was taken back: no loss
    stop = timezone.make_aware(dt.datetime(2026, 11, 28, 21, 5))
    log = [  # kind, payload, undone — as the live entry wrote them before the fields existed
        ("speech", {"day": 1, "seat": 1}, False),
        ("speech", {"day": 1, "seat": 2}, False),
        ("speech", {"day": 1, "seat": 3}, True),  # undone: not a speech
        ("foul", {"seat": 4, "delta": "1", "silenced_day": 1, "phase": "D1"}, False),
        ("foul", {"seat": 6, "delta": "1", "silenced_day": 1, "phase": "D1"}, False),
        ("speech_grant", {"day": 1, "seat": 4}, False),
        ("speech", {"day": 2, "seat": 2}, False),
        ("foul", {"seat": 4, "delta": "1", "silenced_day": 3, "phase": "D2"}, False),  # the latest counts
        ("speech", {"day": 2}, False),  # a payload without the seat is skipped, not a crash
        ("result", {"result": "red", "ended_at": stop.isoformat()}, True),  # the first stop, undone later
        ("result", {"result": "red", "ended_at": stop.isoformat()}, False),
    ]
    for seq, (kind, payload, undone) in enumerate(log, start=1):
        GameAction.objects.create(game=game, seq=seq, action_id=f"a{seq}", kind=kind, payload=payload, before={},
                                  undone=undone)

    MIGRATION.from_the_action_log(apps, None)

    days = {d.index: d for d in Day.objects.filter(game=game)}
    assert (days[1].spoken, days[1].granted) == ([1, 2], [4])
    assert (days[2].spoken, days[2].granted) == ([2], [])
    lost = dict(Seat.objects.filter(game=game).values_list("number", "speech_lost_day"))
    assert lost[4] == 3 and lost[6] is None and lost[1] is None
    assert Game.objects.get(pk=game.pk).stopped_at == stop
