"""The players' whole evening on a 390×844 phone: a player signs up for tonight's club night from the home page,
the organiser turns the sign-ups into two tables in one tap, the player's game is played and signed through the
judge's POST endpoints, and his card (`/players/<id>/`) shows it: first in his recent form, the latest point of
every chart series (each chart label at least 12 px tall as rendered), one more game in his role's bar, and the
Elo change moved by it (real chromium)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game, Seat
from games.tests.judge_screen import login
from games.tests.signup_fixtures import build_cast
from games.tournaments.signups import services
from games.tournaments.signups.models import Signup
from games.tournaments.signups.tests.test_signups_browser import _phone, _play_and_sign, _tap_sign_up
from ratings.models import EloChange, PlayerGame
from ratings.tests.conftest import generated, make_tournament
from ratings.tests.test_card_browser import LABEL_SIZES, ROLE_NAMES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _card(page, player) -> dict:
    page.goto(f"/players/{player.pk}/")
    page.get_by_test_id("recent-form").wait_for()
    return {
        "first_chip": page.get_by_test_id("form-chip").first.get_attribute("href"),
        "elo_change": page.get_by_test_id("elo-change").inner_text(),
        "bars": [b.inner_text() for b in page.get_by_test_id("role-bar").all()],
        "form_games": page.get_by_test_id("form-chip").count(),
    }


def _elo_change(text: str) -> int:
    """"+12 за последние десять игр" → 12, "−7 …" → -7"""
    return int(re.match(r"([+\-−]?\d+)", text.strip()).group(1).replace("−", "-"))


def _role_games(bar: str) -> int:
    """"Д: игр 3, побед 2 · 67%" → 3"""
    return int(re.search(r"игр (\d+)", bar).group(1))


def _chart_shows(page, game: Game) -> None:
    page.locator("#history").scroll_into_view_if_needed()  # the section is loaded when it comes into view
    chart = page.get_by_test_id("rating-chart")
    chart.scroll_into_view_if_needed()
    for key in ("points", "rank", "elo"):
        chart.locator(f'label[for="series-{key}"]').click()
        figure = chart.locator(f'figure[data-series="{key}"]')
        expect(figure).to_be_visible()
        assert figure.locator("a.chart-point").last.get_attribute("href") == f"/games/{game.pk}/", key
        labels = page.evaluate(LABEL_SIZES)
        assert len(labels) >= 4, key
        small = [label for label in labels if label["size"] < 12 or label["height"] < 12]
        assert not small, f"{key}: {small}"


def test_a_player_signs_up_plays_tonight_and_finds_the_game_on_his_card(browser, live_server):
    cast = build_cast(limit=20, players=20)
    player = cast.players[0]
    # his earlier games this season: the card has a history for the new game to join
    autumn = make_tournament(cast.club, "Осень", start=timezone.localdate() - dt.timedelta(days=30))
    generated(autumn, 6, seed=3, start=autumn.start_date, pool=[p.nickname for p in cast.players[:12]])
    for user in cast.users[1:]:
        services.sign_up(sheet=cast.sheet, by=user)  # 19 places taken, the last one is his

    phone, page = _tap_sign_up(browser, live_server, "su-player0", "Вы записаны")
    assert Signup.objects.get(sheet=cast.sheet, player=player).status == Signup.Status.CONFIRMED
    before = _card(page, player)

    organiser, organiser_page = _phone(browser, live_server)
    login(organiser_page, "su-admin")
    organiser_page.goto(f"/games/signups/{cast.sheet.pk}/")
    expect(organiser_page.get_by_test_id("signup-confirmed").locator("li")).to_have_count(20)
    organiser_page.get_by_test_id("signup-convert").click()
    organiser_page.wait_for_url(f"**/games/evenings/{cast.evening.pk}/")
    tables = list(Game.objects.filter(evening=cast.evening).order_by("table"))
    assert [(g.table, g.seats.count()) for g in tables] == [(1, 10), (2, 10)]
    game = Game.objects.get(evening=cast.evening, seats__player=player)
    organiser.close()

    _play_and_sign(game, cast.admin)
    mine = PlayerGame.objects.get(game=game, player=player)
    seat = Seat.objects.get(game=game, player=player)
    assert mine.role == seat.role

    after = _card(page, player)
    assert after["first_chip"] == f"/games/{game.pk}/" != before["first_chip"]
    chip = page.get_by_test_id("form-chip").first
    assert chip.locator(".chip-role").inner_text() == mine.role
    assert ("победа" if mine.won else "поражение") in chip.inner_text()
    role = ROLE_NAMES[mine.role]
    assert _role_games(after["bars"][role]) == _role_games(before["bars"][role]) + 1
    assert all(_role_games(a) == _role_games(b) for i, (a, b) in enumerate(zip(after["bars"], before["bars"],
                                                                                 strict=True)) if i != role)
    # fewer than ten games before tonight: the change over the last ten games moves by tonight's delta exactly
    assert before["form_games"] < 10
    delta = float(EloChange.objects.get(game=game, player=player).delta)
    assert abs(_elo_change(after["elo_change"]) - _elo_change(before["elo_change"]) - delta) <= 1
    assert after["elo_change"] != before["elo_change"] or round(delta) == 0
    _chart_shows(page, game)
    phone.close()
