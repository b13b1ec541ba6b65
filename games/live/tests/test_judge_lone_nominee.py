"""The judge's "night" button says what the core does with a lone nominee: from Day 2 on he leaves the table
without a vote (000 4.4.12, 003 l.51), on Day 1 he is not voted on and stays (002 I.6.17); otherwise «Наступает
ночь». The button's words and the protocol after the tap agree."""

from __future__ import annotations

import os
import re

import pytest
from django.urls import reverse

from games.live.apply import live_apply
from games.models import Day, Game, Seat
from games.tests.live_fixtures import ROLES, make_cast, seat_everyone

pytestmark = pytest.mark.django_db


def _play(game, by, steps):
    for kind, payload in steps:
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        live_apply(game_id=game.pk, by=by, kind=kind, payload=payload, version=version, action_id=os.urandom(8).hex())


def _button(client, game) -> str:
    html = client.get(reverse("games:judge", args=[game.pk])).content.decode()
    match = re.search(r'data-testid="to-night">([^<]*)<', html)
    assert match, "no night button"
    return match.group(1).strip()


@pytest.fixture
def cast(db):
    c = make_cast("cml")
    seat_everyone(c.game, c.players, ROLES)
    return c


def test_a_lone_nominee_on_day_two_leaves_and_the_button_says_so(client, cast):
    speeches = [("speech", {})] * 8
    _play(cast.game, cast.judge, [("start", {}), ("speech", {}), ("nominate", {"by": 1, "nominee": 5}),
                                  ("nominate", {"by": 2, "nominee": 4}), ("votes", {"v5": 7}), ("night", {}),
                                  ("kill", {"seat": 1}), ("best_move", {"seats": "2 5 9"}), ("day", {}),
                                  ("nominate", {"by": 2, "nominee": 6}), *speeches])
    client.force_login(cast.judge)
    label = _button(client, cast.game)
    assert label == "Единственная кандидатура — №6 покидает стол без голосования; наступает ночь"
    _play(cast.game, cast.judge, [("night", {})])
    assert Day.objects.get(game=cast.game, index=2).out == [6]  # what the button said


def test_a_lone_nominee_on_day_one_is_not_voted_on_and_the_button_says_so(client, cast):
    _play(cast.game, cast.judge, [("start", {}), ("nominate", {"by": 1, "nominee": 5}),
                                  *[("speech", {})] * 10])
    client.force_login(cast.judge)
    assert _button(client, cast.game) == ("Единственная кандидатура в первый день — без голосования, игрок "
                                          "остаётся; наступает ночь")
    _play(cast.game, cast.judge, [("night", {})])
    assert Day.objects.get(game=cast.game, index=1).out == []
    assert Seat.objects.get(game=cast.game, number=5).number == 5


def test_two_nominees_voted_and_the_button_is_plain_night(client, cast):
    _play(cast.game, cast.judge, [("start", {}), ("nominate", {"by": 1, "nominee": 5}),
                                  ("nominate", {"by": 2, "nominee": 4}), *[("speech", {})] * 10,
                                  ("votes", {"v5": 7})])
    client.force_login(cast.judge)
    assert _button(client, cast.game) == "Наступает ночь"
