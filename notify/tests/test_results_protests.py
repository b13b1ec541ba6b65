"""A signed game's result to each linked player who played it (result, his points, Elo change, the protocol's
link), nothing of a game in play or of a hidden round; a protest filed to the head judges, decided to the filer and
the table judge."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games.live.tests.test_live_final import play_to_red_win
from games.models import Game
from games.protests.services import protest_decide, protest_file
from games.tests.live_fixtures import act, make_cast
from games.tests.protest_fixtures import fresh, now_in_window, protest_cast
from notify import delivery
from notify.models import Outbox
from notify.tests.conftest import link_user, no_sleep
from ratings.models import EloChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(db):
    return make_cast()


def play_and_sign(live, client, capture, *, sign=True):
    with capture(execute=True):
        play_to_red_win(live, client)
        if sign:
            assert act(client, live.game, "sign").status_code == 200
    return Game.objects.get(pk=live.game.pk)


def test_the_result_goes_to_each_linked_player_after_the_sign_off(live, bot_api, client,
                                                                  django_capture_on_commit_callbacks):
    link_user(live.player, 7000)  # the login of the player at seat 4
    game = play_and_sign(live, client, django_capture_on_commit_callbacks, sign=False)
    assert game.status == Game.Status.FINISHED and bot_api.sent(chat_id=7000) == []  # nothing before the sign-off
    with django_capture_on_commit_callbacks(execute=True):
        assert act(client, live.game, "sign").status_code == 200
    delivery.deliver_due(now=timezone.now() + dt.timedelta(minutes=3), sleep=no_sleep)  # past the Elo's grace
    [message] = bot_api.sent(chat_id=7000)
    text = message["text"]
    assert text.startswith("Результат игры Кубок — стол 1, игра 1: Победа красных.")
    assert "Ваши баллы: " in text and f"/games/{live.game.pk}/" in text
    delta = EloChange.objects.get(game=live.game, player=live.players[3]).delta
    assert f"Elo: {delta:+.1f}" in text
    # his own result only: no other player's name, no role
    assert not any(p.nickname in text for p in live.players)
    assert Outbox.objects.filter(key__startswith="result:").count() == 1


def test_a_hidden_rounds_game_sends_no_result(live, bot_api, client, django_capture_on_commit_callbacks):
    link_user(live.player, 7000)
    Game.objects.filter(pk=live.game.pk).update(results_hidden=True)
    play_and_sign(live, client, django_capture_on_commit_callbacks)
    delivery.deliver_due(now=timezone.now() + dt.timedelta(minutes=3), sleep=no_sleep)
    assert bot_api.sent(chat_id=7000) == []


@pytest.fixture
def protests(db):
    return protest_cast()


def test_a_protest_filed_goes_to_the_head_judge_and_its_decision_to_the_filer_and_the_table_judge(
        protests, bot_api, django_capture_on_commit_callbacks):
    cast = protests
    link_user(cast.head_judge, 8001)
    link_user(cast.participant, 8002)
    link_user(cast.table_judge, 8003)
    link_user(cast.outsider, 8004)
    with django_capture_on_commit_callbacks(execute=True):
        protest = protest_file(game=fresh(cast.game), by=cast.participant, category="non_game_advantage",
                               text="seat 3 was prompted", now=now_in_window(cast.game))
    [filed] = bot_api.sent(chat_id=8001)
    assert "ждёт вашего решения" in filed["text"] and f"/games/protests/{protest.pk}/" in filed["text"]
    assert bot_api.sent(chat_id=8002) == bot_api.sent(chat_id=8003) == []
    with django_capture_on_commit_callbacks(execute=True):
        protest_decide(protest=protest, by=cast.head_judge, decision="reject", explanation="no evidence")
    for chat in (8002, 8003):
        [decided] = bot_api.sent(chat_id=chat)
        assert "принято решение" in decided["text"]
    assert bot_api.sent(chat_id=8004) == []
    assert len(bot_api.sent(chat_id=8001)) == 1
