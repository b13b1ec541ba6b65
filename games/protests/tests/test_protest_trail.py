"""A protest sent twice is stored once; the game's audit trail holds the head judge's decisions, in local time and
words; the protest queue's cards repeat no element id."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Protest
from games.protests.services import ProtestError, protest_decide, protest_file
from games.protocol.selectors import audit_trail
from games.tests.protest_fixtures import minutes_after_end, protest_cast

pytestmark = pytest.mark.django_db
SK = "Иванов (СК)"


@pytest.fixture
def cast():
    return protest_cast()


def _file(cast, seconds: int = 0, text: str = "Место 8 подглядывало ночью."):
    return protest_file(game=cast.game, by=cast.participant, category="non_game_advantage", text=text,
                        now=minutes_after_end(cast.game, 5, seconds))


def test_the_same_protest_sent_twice_within_seconds_is_refused_as_already_filed(cast):
    _file(cast)
    with translation.override("ru"), pytest.raises(ProtestError) as refused:
        _file(cast, seconds=3)
    assert "этот протест уже подан" in str(refused.value).lower()
    assert Protest.objects.filter(game=cast.game).count() == 1
    # another text from the same seat is another protest
    _file(cast, seconds=4, text="Судья не заметил фол места 2.")
    assert Protest.objects.filter(game=cast.game).count() == 2


def test_the_same_protest_posted_twice_answers_the_second_with_a_clear_refusal(client, cast):
    client.force_login(cast.participant)
    url = reverse("games:protest_file", args=[cast.game.pk])
    data = {"category": "non_game_advantage", "text": "Место 8 подглядывало ночью."}
    from unittest import mock
    with mock.patch("games.protests.services.timezone.now", return_value=minutes_after_end(cast.game, 5)):
        client.post(url, data, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="ru")
        second = client.post(url, data, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="ru")
    assert "уже подан" in second.content.decode()
    assert Protest.objects.filter(game=cast.game).count() == 1


def test_the_games_trail_holds_the_reversal_and_the_penalty_in_local_time_in_words(client, cast):
    protest = _file(cast)
    protest_decide(protest=protest, by=cast.head_judge, decision="uphold", sk_representative=SK,
                   explanation="Видео подтверждает.",
                   outcomes=[{"kind": "reverse_result", "result": "red"},
                             {"kind": "add_penalty", "seat": 8, "points": "-0.5", "clause": "002 App. l.550"}],
                   now=minutes_after_end(cast.game, 9))
    with translation.override("ru"):
        trail = audit_trail(cast.game)
    decisions = [e for e in trail if e.outcomes]
    assert len(decisions) == 1 and decisions[0].who
    kinds = {o["kind"] for o in decisions[0].outcomes}
    assert {"reverse_result", "add_penalty"} <= kinds
    # the page: the protest detail shows the trail in the club's time (ended 19:05 UTC → 22:14 in Moscow)
    client.force_login(cast.head_judge)
    page = client.get(reverse("games:protest_detail", args=[protest.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    trail_html = page.split('data-testid="audit-trail"', 1)[1].split("</details>", 1)[0]
    assert "28 ноября 2026, 22:14" in trail_html
    assert "Результат изменён: Победа чёрных → Победа красных" in trail_html
    assert "Назначен штраф: место 8" in trail_html
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:", trail_html)
    assert "+00:00" not in trail_html


def test_protest_cards_on_the_queue_repeat_no_element_id(client, cast):
    _file(cast)
    _file(cast, seconds=30, text="Судья не заметил фол места 2.")
    client.force_login(cast.head_judge)
    page = client.get(reverse("games:protest_queue")).content.decode()
    assert page.count('data-testid="protest-review"') == 2
    ids = Counter(re.findall(r'\bid="([^"]+)"', page))
    assert [i for i, n in ids.items() if n > 1] == []
