"""The public game page and spectator board are cached (games.page_cache): never shared with staff, never stale."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.live.tests.test_live_spectator import LEAKS, in_night_one, play
from games.models import Game

pytestmark = pytest.mark.django_db


def pages(game):
    return [(reverse("games:game_detail", args=[game.pk]), {}), (reverse("games:live", args=[game.pk]), {}),
            (reverse("games:live", args=[game.pk]), {"HTTP_HX_REQUEST": "true"})]


def leaks(html: str) -> list[str]:
    return [p.pattern for p in LEAKS if p.search(html)]


def _judge(live) -> Client:
    client = Client()
    client.force_login(live.judge)
    return client


def test_a_judge_who_renders_first_leaves_nothing_secret_for_the_anonymous_visitor(live):
    game = in_night_one(live)
    judge = _judge(live)
    for url, headers in pages(game):
        assert leaks(judge.get(url, **headers).content.decode()), url  # the judge sees the roles and checks
        assert leaks(Client().get(url, **headers).content.decode()) == [], url


def test_an_anonymous_visitor_who_renders_first_leaves_the_judge_his_roles_and_audit_trail(live):
    game = in_night_one(live)
    for url, headers in pages(game):
        assert leaks(Client().get(url, **headers).content.decode()) == [], url
        assert leaks(_judge(live).get(url, **headers).content.decode()), url
    detail = _judge(live).get(reverse("games:game_detail", args=[game.pk])).content.decode()
    assert 'data-testid="judge-screen"' in detail


def test_a_judges_tap_shows_at_once_on_the_cached_pages(live):
    game = in_night_one(live)
    url = reverse("games:live", args=[game.pk])
    hx = {"HTTP_HX_REQUEST": "true"}
    before = Client().get(url, **hx).content.decode()
    assert Client().get(url, **hx).content.decode() == before  # a hit
    play(game, live.judge, [("day", {})])
    after = Client().get(url, **hx).content.decode()
    assert after != before and "Day" in after.split('data-testid="live-status"')[1][:200]


def test_a_nickname_change_shows_at_once(live):
    game = in_night_one(live)
    seat = game.seats.select_related("player").order_by("number").first()
    for url, headers in pages(game):
        assert seat.player.nickname in Client().get(url, **headers).content.decode()
    seat.player.nickname = "Совсем Новое Имя"
    seat.player.save()
    for url, headers in pages(game):
        assert "Совсем Новое Имя" in Client().get(url, **headers).content.decode(), url


def test_hiding_the_round_shows_the_placeholder_at_once_and_nothing_from_the_cache(live):
    game = in_night_one(live)
    url = reverse("games:game_detail", args=[game.pk])
    public = Client().get(url).content.decode()
    assert 'data-testid="game-hidden"' not in public
    Game.objects.filter(pk=game.pk).update(results_hidden=True)
    hidden = Client().get(url).content.decode()
    assert 'data-testid="game-hidden"' in hidden and 'data-testid="game-status"' not in hidden
    assert Client().get(reverse("games:live", args=[game.pk])).status_code == 404


def test_a_cached_game_page_costs_at_most_two_queries(live):
    game = in_night_one(live)
    for url, headers in pages(game):
        Client().get(url, **headers)
        with CaptureQueriesContext(connection) as queries:
            assert Client().get(url, **headers).status_code == 200
        assert len(queries) <= 2, (url, [q["sql"] for q in queries])


def test_a_protest_filed_and_decided_shows_at_once_to_the_anonymous_visitor():
    from games.protests.services import protest_decide
    from games.protests.tests.test_protests import file_p1
    from games.tests.protest_fixtures import protest_cast

    cast = protest_cast()
    url = reverse("games:game_detail", args=[cast.game.pk])
    assert 'data-testid="under-protest"' not in Client().get(url).content.decode()
    protest = file_p1(cast)
    assert 'data-testid="under-protest"' in Client().get(url).content.decode()
    protest_decide(protest=protest, by=cast.head_judge, decision="reject", explanation="Видео не подтвердило")
    decided = Client().get(url).content.decode()
    assert 'data-testid="under-protest"' not in decided and "Видео не подтвердило" in decided


def test_an_elo_recompute_drops_the_clubs_cached_game_pages(live):
    from django.core.cache import cache

    from games.page_cache import _generation_key
    from ratings.elo.services import recompute

    game = in_night_one(live)
    Client().get(reverse("games:game_detail", args=[game.pk]))
    assert cache.get(_generation_key(game.club_id)) is not None
    recompute()
    assert cache.get(_generation_key(game.club_id)) is None
