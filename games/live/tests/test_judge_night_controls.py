"""Every legal night event has a control on the judge's screen: the Don may check any living seat (a black one too),
the checks of the night whose shot ends the game are still offered (they happened before the morning), the night
is laid out as it is played; a deliberate miss is a miss, not a repeated tap; a finished game shows as over."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Game, Night
from games.tests.live_fixtures import ROLES, act, seat_everyone

pytestmark = pytest.mark.django_db


def started(live, client):
    seat_everyone(live.game, live.players, ROLES)
    client.force_login(live.judge)
    assert act(client, live.game, "start").status_code == 200
    return live.game


def to_night(client, game):
    for _ in range(10):
        act(client, game, "speech")
    assert act(client, game, "night", day=1).status_code == 200
    assert Game.objects.get(pk=game.pk).phase == "N1"


def screen(client, game) -> str:
    return client.get(reverse("games:judge", args=[game.pk])).content.decode()


def test_the_don_may_check_a_black_seat_and_the_night_is_laid_out_as_played(live, client):
    game = started(live, client)
    to_night(client, game)
    page = screen(client, game)
    # blacks at 2 (the Don), 5 and 9: he may check 5 and 9 as well, never himself
    assert 'data-testid="don-5"' in page and 'data-testid="don-9"' in page and 'data-testid="don-2"' not in page
    steps = re.findall(r'data-night-step="(\w+)"', page)
    assert steps == ["kill", "don_check", "sheriff_check"]  # 002 I.7.3–7.6
    assert act(client, game, "don_check", night=1, seat=9).status_code == 200
    assert Night.objects.get(game=game, index=1).don_check == 9


def test_a_deliberate_miss_is_recorded_as_a_miss_not_as_a_repeated_tap(live, client):
    game = started(live, client)
    to_night(client, game)
    answer = act(client, game, "kill", night=1, seat="")
    text = answer.content.decode()
    assert answer.status_code == 200 and "Miss: nobody was shot tonight." in text
    assert "sent twice" not in text
    assert act(client, game, "kill", night=1, seat=4).status_code == 200
    twin = act(client, game, "kill", night=1, seat=4)  # a repeated seat tap is still absorbed
    assert twin.status_code == 200 and "sent twice" in twin.content.decode()


def test_the_checks_of_the_night_whose_shot_ends_the_game_are_still_offered(live, client):
    game = started(live, client)
    for seat in (1, 3, 4):  # three reds removed by their 4th foul: 4 reds (6, 7, 8, 10) against 3 blacks
        for fouls in range(4):
            assert act(client, game, "foul", seat=seat, delta=1, **{"from": fouls}).status_code == 200
    to_night(client, game)
    assert act(client, game, "kill", night=1, seat=6).status_code == 200  # 3 : 3, the blacks win at the shot
    page = screen(client, game)
    assert 'data-testid="proposed-result"' in page
    assert 'data-testid="don-7"' in page and 'data-testid="sheriff-2"' in page
    assert 'data-testid="to-day"' not in page  # no morning after the game's end
    assert act(client, game, "don_check", night=1, seat=7).status_code == 200
    assert act(client, game, "sheriff_check", night=1, seat=2).status_code == 200
    night = Night.objects.get(game=game, index=1)
    assert (night.kill, night.don_check, night.sheriff_check) == (6, 7, 2)
    assert act(client, game, "result", result="black").status_code == 200
    page = screen(client, game)
    badge = re.search(r'data-testid="phase">([^<]*)<', page).group(1)
    assert badge == "Finished" and "Night" not in badge
    assert " speaking" not in page  # no seat highlighted as the speaker once the game is over


def test_signing_refused_names_the_seats_once_and_says_how_to_fix_it(live, client):
    seat_everyone(live.game, live.players, {})  # no roles entered
    client.force_login(live.judge)
    game = live.game
    assert act(client, game, "start").status_code == 200
    assert act(client, game, "result", result="red").status_code == 200
    answer = act(client, game, "sign")
    text = answer.content.decode()
    assert answer.status_code == 422 and Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    message = re.search(r'data-testid="live-message">(.*?)</div>', text, re.S).group(1)
    assert message.count("the role must be entered") == 1, message
    assert "seats 1, 2, 3, 4, 5, 6, 7, 8, 9, 10" in message and "Correct the role" in message
    assert message.endswith('<details class="clause"><summary>rule</summary>000 P7.4 / 002 I.1.1</details>')
    page = screen(client, game)
    items = re.findall(r"<li class=\"text-danger\">(.*?)</li>", page[page.find('data-testid="problems"'):])
    assert sum("the role must be entered" in item for item in items) == 1, items


def test_the_re_vote_is_said_in_plain_russian(live, client):
    game = started(live, client)
    act(client, game, "nominate", day=1, by=1, nominee=5)
    act(client, game, "nominate", day=1, by=2, nominee=4)
    for _ in range(10):
        act(client, game, "speech")
    assert act(client, game, "votes", round=0, v5=5).status_code == 200  # 5 : 5, a tie
    client.cookies["django_language"] = "ru"
    page = screen(client, game)
    assert '<strong data-testid="revote">Переголосование.</strong>' in page
    assert "Re-vote" not in page and "несказанные" not in page
    assert "кто не поднял руку, голосует за последнего выставленного" in page


def test_the_third_foul_warning_is_said_once_and_short(live, client):
    live.game.ruleset = live.game.ruleset.__class__.objects.get(slug="xcraft", club__isnull=True)
    live.game.save()
    game = started(live, client)
    for fouls in range(3):
        answer = act(client, game, "foul", seat=6, delta=1, **{"from": fouls})
    text = answer.content.decode()
    assert text.count("loses the next speech") == 1, text  # the message only, not again under the seats
    assert "S7.4" not in text and "S7.8" not in text
    assert 'data-testid="consequence-6"' not in text
    assert 'data-testid="consequence-6"' in screen(client, game)  # shown while it matters, once the message is gone
