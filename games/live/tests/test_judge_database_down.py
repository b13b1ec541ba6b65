"""The judge's screen while the site's database does not answer (static/js/live.js): the server answers 503 with
Retry-After (club/views_errors.py); the screen treats that as offline — the taps stay queued on the phone, the
judge is told the site is unavailable for a moment — and sends them, each applied once, when the site is back.
(The 503 itself, from a real stopped PostgreSQL under gunicorn: tests/test_faults_server.py.)"""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from playwright.sync_api import expect

from club.views_errors import database_unavailable
from games.live.tests.test_judge_phone_offline import foul, open_screen, started_game
from games.models import GameAction, Seat
from games.tests.judge_screen import pending, settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_taps_answered_503_stay_queued_and_are_sent_when_the_database_is_back(page):
    cast = started_game()
    game = cast.game
    open_screen(page, cast)
    down = database_unavailable(RequestFactory().get("/"))
    refused = []

    def database_down(route):
        if route.request.method != "POST":
            return route.continue_()
        refused.append(route.request.url)
        return route.fulfill(status=503, headers={"Retry-After": "1", "Content-Type": down["Content-Type"]},
                             body=down.content)

    page.route(f"**/games/{game.pk}/judge/**", database_down)
    foul(page, 3)
    foul(page, 3)
    expect(page.get_by_test_id("unsaved")).to_contain_text("2 не сохранено")
    expect(page.get_by_test_id("unsaved")).to_contain_text("Сайт ненадолго недоступен")
    expect(page.get_by_test_id("fouls-3").locator(".fouls-count")).to_have_text("2")  # followed on the screen
    page.wait_for_timeout(2500)  # the screen tries again after the Retry-After (1 s), and is refused again
    assert len(refused) >= 2 and pending(page) == 2
    assert GameAction.objects.filter(game=game).count() == 1  # only the start: nothing reached the database

    page.unroute(f"**/games/{game.pk}/judge/**")
    settle(page, timeout=15)  # sent by itself, without a tap or a reload
    expect(page.get_by_test_id("unsaved")).to_be_hidden()
    assert Seat.objects.get(game=game, number=3).fouls == 2
    assert list(GameAction.objects.filter(game=game).order_by("seq").values_list("kind", flat=True)) == [
        "start", "foul", "foul"]
