"""Hidden results reach no one outside the judge staff through the protest pages either: a protest of a hidden
game is a 404 for its filer and is left off his "my protests" list until the organiser reveals."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Game, Protest

pytestmark = pytest.mark.django_db


def _client(username):
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def test_a_protest_of_a_hidden_game_is_the_judge_staffs_only(scene):
    protest = Protest.objects.filter(filed_by__username="player", status="pending").first()
    game = protest.game
    player, head_judge = _client("player"), _client("headjudge")
    assert player.get(f"/games/protests/{protest.pk}/").status_code == 200  # visible while the game is not hidden
    assert f"/games/{game.pk}/" in player.get("/games/protests/mine/").content.decode()

    Game.objects.filter(pk=game.pk).update(results_hidden=True)
    assert player.get(f"/games/protests/{protest.pk}/").status_code == 404
    assert f"/games/{game.pk}/" not in player.get("/games/protests/mine/").content.decode()
    assert head_judge.get(f"/games/protests/{protest.pk}/").status_code == 200

    Game.objects.filter(pk=game.pk).update(results_hidden=False)  # the organiser reveals
    assert player.get(f"/games/protests/{protest.pk}/").status_code == 200
