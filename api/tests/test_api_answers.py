"""A public reader's game answer is built once per version (api.answers) and served from the cache until anything it
shows changes (a tap, a renamed player, a protest, a hidden round shown); a judge's answer is never served to the
public, nor the public's to a judge; with the switch off every answer is built."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from api import selectors
from api.tests.helpers import bearer, cast_in_night_one, play, token_for
from club.models import Player
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def builds(monkeypatch):
    """Count the game answers built."""
    calls = []
    original = selectors.game_detail

    def counting(pk, user):
        calls.append(pk)
        return original(pk, user)

    monkeypatch.setattr(selectors, "game_detail", counting)
    return calls


def _read(client, game, **headers) -> dict:
    response = client.get(f"/api/v1/games/{game.pk}/", **headers)
    assert response.status_code == 200
    return json.loads(response.content)


@pytest.mark.parametrize("switch", [True, False])
def test_the_public_answer_is_built_once_per_version(settings, builds, switch):
    settings.API_ANSWER_CACHE = switch
    cast = cast_in_night_one()
    first = _read(Client(), cast.game)
    assert _read(Client(), cast.game) == first
    assert len(builds) == (1 if switch else 2)
    play(cast.game, cast.judge, [("day", {})])  # a tap: the version moves
    after = _read(Client(), cast.game)
    assert after != first and len(builds) == (2 if switch else 3)


def test_a_judges_answer_and_the_publics_never_cross(builds):
    cast = cast_in_night_one()
    judge = Client()
    judge.force_login(cast.judge)
    token = bearer(token_for(cast, cast.judge, name="судья"))
    for order in (["public", "judge", "token"], ["judge", "token", "public"]):
        for who in order:
            data = _read(judge, cast.game) if who == "judge" else _read(Client(), cast.game, **(
                token if who == "token" else {}))
            roles = {s["role"] for s in data["seats"]}
            assert (roles == {None}) is (who == "public"), who
            assert data["secrets_shown"] is (who != "public"), who


def test_a_renamed_player_is_in_the_next_public_answer(builds):
    cast = cast_in_night_one()
    seat = _read(Client(), cast.game)["seats"][0]
    player = Player.objects.get(pk=seat["player_id"])
    player.nickname = "Новое имя"
    player.save()
    again = _read(Client(), cast.game)
    assert again["seats"][0]["nickname"] == "Новое имя" and len(builds) == 2


def test_a_hidden_round_is_never_served_from_the_public_cache(builds):
    cast = cast_in_night_one()
    _read(Client(), cast.game)
    Game.objects.filter(pk=cast.game.pk).update(results_hidden=True)
    assert Client().get(f"/api/v1/games/{cast.game.pk}/").status_code == 404
    Game.objects.filter(pk=cast.game.pk).update(results_hidden=False)  # shown again: the answer as before
    assert _read(Client(), cast.game)["id"] == cast.game.pk
