"""Hidden results reach no one outside the judge staff through the protest pages either: a protest of a hidden
game is a 404 for its filer and is left off his "my protests" list until the organiser reveals."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

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


def _hide(game) -> None:
    Game.objects.filter(pk=game.pk).update(results_hidden=True)


def _pending_game():
    return Protest.objects.filter(filed_by__username="player", status="pending").first().game


def test_a_hidden_game_opens_for_everyone_as_a_placeholder_without_its_result(scene):
    game = _pending_game()
    _hide(game)
    page = Client().get(f"/games/{game.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="game-hidden"' in text and "Результат скрыт до награждения" in text
    assert f"стол {game.table}" in text
    for seat in game.seats.select_related("player"):
        assert seat.player.nickname in text
    assert 'data-testid="game-result"' not in text and "Под протестом" not in text
    assert 'data-testid="protest-deadline"' not in text and "Судья не дал последнее слово" not in text
    assert _client("headjudge").get(f"/games/{game.pk}/").content.decode().count('data-testid="game-result"') == 1


def test_standings_json_marks_no_player_of_a_hidden_game_provisional(scene):
    game = _pending_game()
    seated = set(game.seats.values_list("player__nickname", flat=True))
    url = f"/ratings/tournaments/{game.tournament_id}/standings.json"
    before = {r["player"] for r in Client().get(url).json()["rows"] if r.get("provisional")}
    assert before & seated  # the leak this test guards: the pending protest marks the game's players
    _hide(game)
    after = {r["player"] for r in Client().get(url).json()["rows"] if r.get("provisional")}
    assert not after & seated


def test_the_under_protest_badge_is_gated_by_the_hidden_results(scene):
    game = _pending_game()
    url = f"/games/tournaments/{game.tournament_id}/"
    assert 'data-testid="under-protest"' in Client().get(url).content.decode()
    _hide(game)
    Protest.objects.exclude(game=game).filter(status="pending").delete()
    assert 'data-testid="under-protest"' not in Client().get(url).content.decode()
    assert not Game.objects.get(pk=game.pk).under_protest


def test_a_player_of_a_hidden_game_files_his_protest_and_the_panel_reveals_nothing(scene):
    from club.models import Player

    user = get_user_model().objects.get(username="player")
    mine = Player.objects.filter(user=user).first()
    game = (Game.objects.filter(seats__player=mine, status__in=["finished", "signed"]).exclude(protests__isnull=False)
            .first())
    assert game is not None
    Game.objects.filter(pk=game.pk).update(results_hidden=True, ended_at=timezone.now() - dt.timedelta(minutes=1))
    client = _client("player")
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-testid="protest-form"' in page and 'data-testid="protest-deadline"' not in page
    response = client.post(f"/games/{game.pk}/protests/file/", {"category": "result", "text": "Не дали слово"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert Protest.objects.filter(game=game, filed_by=user, status="pending").count() == 1
    panel = response.content.decode()
    assert "Не дали слово" in panel and 'data-testid="protest-hidden"' in panel
    for leak in ('data-testid="protest-deadline"', 'data-testid="protest-status"', 'data-testid="under-protest"',
                 "Протесты принимаются до", "На рассмотрении"):
        assert leak not in panel
    assert "Не дали слово" not in Client().get(f"/games/{game.pk}/").content.decode()  # his own, no one else's


def _my_unprotested_game():
    from club.models import Player

    mine = Player.objects.filter(user__username="player").first()
    return (Game.objects.filter(seats__player=mine, status__in=["finished", "signed"])
            .exclude(protests__isnull=False).first())


LEAKS = ("Слишком поздно", "принимались до", "не окончена", "Протесты принимаются до", "Срок подачи протестов",
         'data-testid="protest-deadline"')


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize("state", ["late", "in_play"])
def test_a_refused_protest_of_a_hidden_game_says_neither_its_end_nor_its_status(scene, state, htmx):
    game = _my_unprotested_game()
    ended = timezone.now() - dt.timedelta(hours=3)
    fields = {"late": {"ended_at": ended}, "in_play": {"status": "in_progress", "ended_at": None, "result": ""}}[state]
    Game.objects.filter(pk=game.pk).update(results_hidden=True, **fields)
    client = _client("player")
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-testid="protest-form"' in page  # offered as in the window: its absence would tell the state
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(f"/games/{game.pk}/protests/file/", {"category": "result", "text": "Не дали слово"},
                           **extra)
    assert response.status_code == 409
    text = response.content.decode()
    assert "Протест по этой игре сейчас не принимается" in text
    for leak in LEAKS + (ended.strftime("%H:%M"), timezone.localtime(ended).strftime("%H:%M")):
        assert leak not in text
    assert not Protest.objects.filter(game=game).exists()


def test_a_refused_protest_of_a_visible_game_still_gives_its_reason(scene):
    game = _my_unprotested_game()
    Game.objects.filter(pk=game.pk).update(ended_at=timezone.now() - dt.timedelta(hours=3))
    response = _client("player").post(f"/games/{game.pk}/protests/file/",
                                      {"category": "result", "text": "Не дали слово"}, HTTP_HX_REQUEST="true")
    assert "Слишком поздно" in response.content.decode()
    assert not Protest.objects.filter(game=game).exists()


def test_the_api_tells_the_player_of_a_hidden_game_nothing_of_his_pending_protest(scene):
    protest = Protest.objects.filter(filed_by__username="player", status="pending").first()
    game = protest.game
    client = _client("player")
    listed = f"/api/v1/protests/?tournament={game.tournament_id}"
    assert any(row["id"] == protest.pk for row in client.get(listed).json()["items"])  # while not hidden
    _hide(game)
    assert client.get(f"/api/v1/protests/?game={game.pk}").status_code == 404
    assert client.get(f"/api/v1/games/{game.pk}/").status_code == 404
    assert not any(row["game_id"] == game.pk for row in client.get(listed).json()["items"])
    games = client.get(f"/api/v1/games/?tournament={game.tournament_id}").json()["items"]
    assert not any(row["id"] == game.pk for row in games)
