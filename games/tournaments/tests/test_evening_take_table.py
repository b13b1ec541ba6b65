"""«Judge this table»: a plain judge of the club takes a table «Make tonight's tables» made from the sign-up list
(no table judge) from the evening's page in one tap, and then has the judge's screen — refused, with the database
unchanged, to a non-judge, for a table that has a judge, for a table he sits at, for a game that is over and for an
evening that is not today's."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from club.models import Membership
from club.tests.factories import MembershipFactory
from games.models import Game
from games.permissions import can_edit_protocol
from games.tests.signup_fixtures import build_cast
from games.tournaments.signups import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    cast = build_cast(limit=None, players=10)
    for user in cast.users:
        services.sign_up(sheet=cast.sheet, by=user)
    services.signups_to_tables(sheet=cast.sheet, by=cast.admin)
    return cast


def _game(cast) -> Game:
    return cast.evening.games.get()


def _take(client, game):
    return client.post(reverse("games:evening_table_take", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ru", follow=True)


def _judge(game) -> tuple:
    game.refresh_from_db()
    return game.judge_id, game.judge_name, game.history.count()


def test_a_plain_judge_takes_the_table_made_from_the_list_in_one_tap(client, cast):
    game = _game(cast)
    assert game.judge_id is None and not can_edit_protocol(cast.judge, game)
    client.force_login(cast.judge)
    page = client.get(reverse("games:evening_detail", args=[cast.evening.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    assert "Судить этот стол" in page.content.decode()
    response = _take(client, game)
    assert response.redirect_chain[-1][0] == reverse("games:game_detail", args=[game.pk])
    assert 'data-testid="judge-screen"' in response.content.decode()
    game.refresh_from_db()
    assert game.judge == cast.judge and can_edit_protocol(cast.judge, game)
    assert game.history.first().history_user == cast.judge
    page = client.get(reverse("games:evening_detail", args=[cast.evening.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    assert "Судить этот стол" not in page.content.decode()


def test_a_table_with_a_judge_is_not_taken_again(client, cast):
    game = _game(cast)
    client.force_login(cast.judge)
    _take(client, game)
    before = _judge(game)
    client.force_login(cast.head_judge)
    response = _take(client, game)
    assert "уже есть судья" in response.content.decode()
    assert _judge(game) == before and game.judge == cast.judge


@pytest.mark.parametrize("who", ["outsider", "player"])
def test_a_non_judge_is_refused(client, cast, who):
    game = _game(cast)
    before = _judge(game)
    client.force_login(cast.outsider if who == "outsider" else cast.users[0])
    response = client.post(reverse("games:evening_table_take", args=[game.pk]))
    assert response.status_code == 403 and _judge(game) == before == (None, "", before[2])


def test_a_judge_seated_at_the_table_cannot_judge_it(client, cast):
    game = _game(cast)
    MembershipFactory(club=cast.club, role=Membership.Role.JUDGE, user=cast.users[3])
    before = _judge(game)
    client.force_login(cast.users[3])
    response = _take(client, game)
    assert "не может сесть за него игроком" in response.content.decode()
    assert _judge(game) == before


def test_only_a_game_of_todays_evening_not_over(client, cast):
    game = _game(cast)
    client.force_login(cast.judge)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.SIGNED)
    before = _judge(game)
    assert "закончена" in _take(client, game).content.decode() and _judge(game) == before
    Game.objects.filter(pk=game.pk).update(status=Game.Status.DRAFT)
    type(cast.evening).objects.filter(pk=cast.evening.pk).update(date=cast.evening.date - dt.timedelta(days=1))
    assert "сегодняшнего" in _take(client, game).content.decode() and _judge(game) == before
