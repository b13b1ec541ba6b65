"""A paper protest's written time: kept beside the moment it was entered on the site, refused after the window,
before the end and in the future, with a message naming the times; the page answers the same."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Protest
from games.protests.services import ProtestError, protest_file, protest_record_paper
from games.tests.protest_fixtures import fresh, minutes_after_end, now_in_window, protest_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return protest_cast()


def _record(cast, written_at):
    return protest_record_paper(game=fresh(cast.game), by=cast.table_judge, seat=2, category="result",
                                text="written on the sheet", written_at=written_at)


def test_a_paper_protest_keeps_the_written_time_and_when_it_was_entered(cast):
    written = minutes_after_end(cast.game, 4)  # the game ended days ago: the entry is late, and it shows
    before = timezone.now()
    protest = _record(cast, written)
    protest.refresh_from_db()
    assert protest.filed_at == written
    assert before <= protest.entered_at <= timezone.now()
    assert protest.entered_later


def test_an_online_protest_is_entered_when_filed(cast):
    now = now_in_window(cast.game)
    protest = protest_file(game=cast.game, by=cast.participant, category="non_game_advantage", text="x", now=now)
    assert protest.entered_at == protest.filed_at == now and not protest.entered_later


@pytest.mark.parametrize("written, words", [
    (lambda g: minutes_after_end(g, 10, 1), ("позже срока", "принимались до 28 ноября 2026 г. 22:15:00")),
    (lambda g: minutes_after_end(g, -1), ("раньше записанного окончания игры (28 ноября 2026 г. 22:05:00",)),
    (lambda g: timezone.now() + dt.timedelta(minutes=5), ("ещё не наступило", "сейчас")),
])
def test_a_written_time_outside_the_window_is_refused_with_the_times(cast, written, words):
    with pytest.raises(ProtestError) as refused:
        _record(cast, written(cast.game))
    for word in words:
        assert word in str(refused.value)
    assert not Protest.objects.exists()


def test_the_window_edge_is_inclusive(cast):
    assert _record(cast, minutes_after_end(cast.game, 10)).pk


def test_the_page_refuses_a_late_written_time_in_russian_and_shows_when_a_protest_was_entered(cast, client):
    client.force_login(cast.table_judge)
    url = reverse("games:protest_paper", args=[cast.game.pk])
    late = timezone.localtime(minutes_after_end(cast.game, 12)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(url, {"seat": 2, "category": "result", "text": "on paper", "written_at": late},
                           HTTP_HX_REQUEST="true")
    assert "позже срока: протесты на эту игру принимались до" in response.content.decode()
    assert not Protest.objects.exists()
    written = timezone.localtime(minutes_after_end(cast.game, 3)).strftime("%Y-%m-%dT%H:%M")
    client.post(url, {"seat": 2, "category": "result", "text": "on paper", "written_at": written})
    protest = Protest.objects.get()
    client.force_login(cast.head_judge)
    page = client.get(reverse("games:protest_detail", args=[protest.pk])).content.decode()
    assert 'data-testid="protest-entered-at"' in page and "позже времени, написанного на протесте" in page
    assert Game.objects.get(pk=cast.game.pk).ended_at == cast.game.ended_at
