"""«Мой стол сейчас» on the home page for a club evening: the judge of one of today's tables opens his screen, a
player seated at one sees his table and seat; nothing for an evening that is over or for anyone else."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.tests.signup_fixtures import build_cast
from games.tournaments.services_work import game_start_new
from games.tournaments.signups import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated():
    """Ten players signed up for tonight's club evening and seated at table 1 by the organiser's one step."""
    cast = build_cast(limit=None, players=11)
    for user in cast.users[:10]:
        services.sign_up(sheet=cast.sheet, by=user)
    [game] = services.signups_to_tables(sheet=cast.sheet, by=cast.admin, rng=random.Random(3))
    return cast, game


def _home(user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("home")).content.decode()


def test_a_player_seated_at_tonights_table_sees_his_table_and_seat(seated):
    cast, game = seated
    seat = game.seats.get(player=cast.players[4])
    home = _home(cast.users[4])
    assert 'data-testid="my-table"' in home and 'data-testid="my-evening-table"' in home
    assert f"стол {game.table}" in home and f"ваше место {seat.number}" in home and "Вечер пятницы" in home
    assert reverse("games:game_detail", args=[game.pk]) in home
    assert reverse("games:judge", args=[game.pk]) not in home  # a player gets the game page, not the judge's screen
    client = Client()
    client.force_login(cast.users[4])
    assert "Игрок04" in client.get(reverse("games:game_detail", args=[game.pk])).content.decode()


def test_the_judge_of_a_club_evening_table_opens_his_screen_from_the_home_page(seated):
    cast, _game = seated
    judged = game_start_new(by=cast.judge, evening=cast.evening, table=2)
    home = _home(cast.judge)
    assert 'data-testid="my-table"' in home and "стол 2" in home
    assert reverse("games:judge", args=[judged.pk]) in home


def test_nobody_else_and_no_evening_that_is_over_gets_a_table_now(seated):
    cast, game = seated
    assert 'data-testid="my-table"' not in _home(cast.users[10])  # signed up nowhere at a table
    assert 'data-testid="my-table"' not in _home(cast.outsider)
    evening = cast.evening
    evening.date = timezone.localdate() - dt.timedelta(days=1)
    evening.save(update_fields=["date"])
    assert 'data-testid="my-table"' not in _home(cast.users[4])  # yesterday's draft: not now
    Game.objects.filter(pk=game.pk).update(status=Game.Status.IN_PROGRESS)
    assert 'data-testid="my-evening-table"' in _home(cast.users[4])  # played past midnight: still now
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert 'data-testid="my-table"' not in _home(cast.users[4])
