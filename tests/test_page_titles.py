"""Page titles name the page, the game as people name it (dates in words) and the club; month labels in words."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from club.models import Club
from games.models import ClubEvening, Game

pytestmark = pytest.mark.django_db


def _title(response) -> str:
    assert response.status_code == 200
    return re.search(r"<title>(.*?)</title>", response.content.decode(), re.S).group(1).strip()


def test_the_judge_screen_of_a_club_evening_game_has_its_date_in_words_and_the_club(scene):
    club = Club.objects.get()
    evening = ClubEvening.objects.filter(club=club).first()
    evening.date = dt.date(2026, 12, 1)
    evening.save()
    game = Game.objects.create(club=club, evening=evening, ruleset=evening.ruleset, number=1, table=1,
                               date=dt.date(2026, 12, 1), judge=get_user_model().objects.get(username="judge1"))
    client = Client()
    client.force_login(game.judge)
    title = _title(client.get(f"/games/{game.pk}/judge/"))
    assert title == f"Экран судьи — 1 декабря 2026 — игра 1 — {club.name}"
    assert "2026-12-01" not in title


@pytest.mark.parametrize("url", ["/games/", "/ratings/", "/ratings/statistics/", "/ratings/elo/"])
def test_every_page_title_ends_with_the_clubs_name(scene, url):
    assert _title(Client().get(url)).endswith(Club.objects.get().name)


def test_games_per_month_are_named_in_words(scene):
    text = Client().get("/ratings/statistics/").content.decode()
    rows = re.search(r'data-testid="games-per-month">(.*?)</table>', text, re.S).group(1)
    assert not re.search(r"\d{4}-\d{2}", rows)
    assert re.search(r"(Январь|Февраль|Март|Апрель|Май|Июнь|Июль|Август|Сентябрь|Октябрь|Ноябрь|Декабрь) 2026",
                     rows, re.I)
