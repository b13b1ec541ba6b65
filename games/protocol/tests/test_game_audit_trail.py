"""The game page's audit trail is the game's one trail (the live entry, the protocol's changes with their reasons,
the head judge's decisions), each moment in the club's time in words; a result's details say it once, with no raw
timestamp."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.audit import log_action
from games.live.tests.test_live_final import SK, play_to_red_win
from games.models import Game
from games.protests.services import protest_decide, protest_file
from games.tests.live_fixtures import make_cast

pytestmark = pytest.mark.django_db
ISO_MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:")


@pytest.fixture
def live(db):
    """The live-entry cast, read in Russian (the site's language)."""
    return make_cast()


def _trail(client, user, game) -> str:
    client.force_login(user)
    html = client.get(reverse("games:game_detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    start = html.index('data-testid="action-log"')
    return html[start:html.index("</details>", start)]


def test_a_live_result_reads_once_in_words_with_no_raw_moment(live, client):
    game = play_to_red_win(live, client)
    for user in (live.judge, live.head_judge):
        trail = _trail(client, user, game)
        assert "Победа красных" in trail
        assert "результат результат" not in trail.lower()
        assert not ISO_MOMENT.search(trail), ISO_MOMENT.search(trail)
    judge_screen = client.get(reverse("games:judge", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert not ISO_MOMENT.search(judge_screen) and "результат результат" not in judge_screen.lower()


def test_the_game_page_trail_has_the_head_judges_decision_and_the_schedule_note(live, client):
    game = play_to_red_win(live, client)
    protest = protest_file(game=game, by=live.player, category="non_game_advantage", text="seat 8 peeked")
    protest_decide(protest=protest, by=live.head_judge, decision="uphold", sk_representative=SK,
                   explanation="an insurmountable advantage", outcomes=[{"kind": "reverse_result", "result": "black"}])
    game = Game.objects.get(pk=game.pk)
    log_action(game, by=live.head_judge, reason="schedule: participants 1 and 2 exchanged seats")
    trail = _trail(client, live.head_judge, game)
    assert "an insurmountable advantage" in trail  # the head judge's decision, not only in the protests section
    assert 'data-testid="trail-outcomes"' in trail
    assert "участники №1 и №2 поменялись местами" in trail
    assert re.search(r"\d{1,2} [а-я]+ 20\d\d, \d\d:\d\d", trail)  # the moment in words, the club's time
    assert not ISO_MOMENT.search(trail)
