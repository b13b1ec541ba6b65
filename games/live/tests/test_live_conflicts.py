"""A write that outlasts the database's busy timeout is a conflict answered with a message — 409 with the current
state on the judge's screen, 503 elsewhere — never a 500 (the real overlaps are in test_concurrency)."""

import pytest
from django.db import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory

from club.db import is_conflict
from club.middleware import DatabaseBusyMiddleware
from games.live import apply
from games.models import Game, GameAction
from games.tests.live_fixtures import ROLES, act, seat_everyone

pytestmark = pytest.mark.django_db


class FakePgError(Exception):
    def __init__(self, sqlstate):
        super().__init__("could not obtain lock")
        self.sqlstate = sqlstate


def pg_error(sqlstate: str) -> OperationalError:
    error = OperationalError("could not obtain lock")
    error.__cause__ = FakePgError(sqlstate)
    return error


def test_what_counts_as_a_conflict():
    assert is_conflict(OperationalError("database is locked"))
    assert is_conflict(pg_error("40P01")) and is_conflict(pg_error("40001")) and is_conflict(pg_error("55P03"))
    assert not is_conflict(OperationalError("no such table: games_game"))
    assert not is_conflict(pg_error("42P01"))
    assert not is_conflict(ValueError("database is locked"))


def test_a_locked_database_on_the_judge_screen_is_a_409_with_the_current_board(live, client, monkeypatch):
    seat_everyone(live.game, live.players, ROLES)
    client.force_login(live.judge)
    assert act(client, live.game, "start").status_code == 200
    before = Game.objects.get(pk=live.game.pk).version

    def locked(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(apply, "_apply", locked)
    response = act(client, live.game, "foul", seat=3, delta=1)
    body = response.content.decode()
    assert response.status_code == 409 and "busy" in body and 'id="board"' in body
    assert Game.objects.get(pk=live.game.pk).version == before and GameAction.objects.count() == 1


def test_any_other_page_answers_503_with_a_message():
    request = RequestFactory().post("/anything/")
    middleware = DatabaseBusyMiddleware(lambda r: HttpResponse())
    response = middleware.process_exception(request, OperationalError("database is locked"))
    assert response.status_code == 503 and response["Retry-After"] == "2"
    assert response["Content-Type"].startswith("text/plain") and len(response.content) > 20
    assert middleware.process_exception(request, OperationalError("no such table")) is None
    assert middleware.process_exception(request, ValueError("x")) is None
