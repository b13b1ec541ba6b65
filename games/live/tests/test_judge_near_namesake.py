"""Seating on the judge's screen: a typed «Лис» next to the club's «Лиса» offers «Лиса» first and asks before
creating a near-namesake (the new chip needs a second tap, and the server refuses a plain create naming the similar
player); an exact nickname offers no new player at all; an unlike nickname is created as before."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from club.models import Player
from games.models import Seat
from games.tests.live_fixtures import act, make_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast(db):
    return make_cast()  # «Лиса» is a player of the club


def _suggest(client, cast, query: str) -> str:
    return client.get(reverse("games:judge_players", args=[cast.game.pk]), {"nickname": query},
                      headers={"HX-Request": "true"}).content.decode()


def test_a_near_namesake_is_offered_first_and_the_new_player_is_asked_for(client, cast):
    client.force_login(cast.judge)
    html = _suggest(client, cast, "Лис")
    lisa = Player.objects.get(nickname="Лиса")
    chips = re.findall(r'data-testid="(suggest-\d+|new-player)"', html)
    assert chips[0] == f"suggest-{lisa.pk}" and chips[-1] == "new-player"
    new_chip = re.search(r'<button[^>]*data-testid="new-player"[^>]*>[^<]*</button>', html).group(0)
    assert "data-confirm" in new_chip and "«Лис», не «Лиса»" in new_chip
    assert 'name="create"' not in new_chip


def test_a_near_namesake_found_only_by_likeness_is_offered_too(client, cast):
    client.force_login(cast.judge)
    lisa = Player.objects.get(nickname="Лиса")
    html = _suggest(client, cast, "Лиза")
    assert f'data-testid="suggest-{lisa.pk}"' in html and "не «Лиса»" in html


def test_an_exact_nickname_offers_no_new_player(client, cast):
    client.force_login(cast.judge)
    html = _suggest(client, cast, "лиса")
    assert 'data-testid="new-player"' not in html


def test_the_server_refuses_a_plain_create_of_a_near_namesake_and_takes_the_confirmed_one(client, cast):
    client.force_login(cast.judge)
    refused = act(client, cast.game, "seat", seat=1, nickname="Лис", create="1")
    assert refused.status_code == 422 and "«Лиса» уже есть в клубе" in refused.content.decode()
    assert not Player.objects.filter(nickname="Лис").exists() and not Seat.objects.filter(game=cast.game).exists()
    assert act(client, cast.game, "seat", seat=1, nickname="Лис", namesake="1").status_code == 200
    assert Seat.objects.get(game=cast.game, number=1).player.nickname == "Лис"


def test_an_unlike_new_nickname_is_created_at_once(client, cast):
    client.force_login(cast.judge)
    html = _suggest(client, cast, "Гроза")
    assert 'name="create" value="1"' in html and "data-confirm" not in html
    assert act(client, cast.game, "seat", seat=2, nickname="Гроза", create="1").status_code == 200
    assert Seat.objects.get(game=cast.game, number=2).player.nickname == "Гроза"
