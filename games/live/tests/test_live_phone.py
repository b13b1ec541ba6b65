"""The judge's screen on a phone (390×844): no horizontal scrolling of the page, every column visible."""

import os

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from club.tests.factories import PASSWORD
from games.live.apply import live_apply
from games.models import Game
from games.tests.live_fixtures import ROLES, make_cast, seat_everyone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _login(page) -> None:
    page.goto("/login/")
    page.get_by_label("Имя пользователя").fill("judge")
    page.get_by_label("Пароль").fill(PASSWORD)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_test_id("nav-user")).to_have_text("judge")


def _act(game, by, kind, **payload):
    game.refresh_from_db()
    return live_apply(game_id=game.pk, by=by, kind=kind, payload=payload, version=game.version,
                      action_id=os.urandom(8).hex())


def _width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("phase", ["draft", "day", "finished"])
def test_the_judge_screen_fits_a_phone_without_horizontal_scrolling(page, phase):
    cast = make_cast("xcraft")
    game = cast.game
    if phase != "draft":
        seat_everyone(game, cast.players, ROLES)
        _act(game, cast.judge, "start")
        for _ in range(3):
            _act(game, cast.judge, "foul", seat=4, delta=1)
        _act(game, cast.judge, "foul", seat=6, delta=1)
    if phase == "finished":
        for _ in range(4):
            _act(game, cast.judge, "foul", seat=5, delta=1)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result="red", ended_at=timezone.now())
        _act(game, cast.judge, "extra", seat=1, points="0.6", note="лучший ход дня")
    page.set_viewport_size(PHONE)
    _login(page)
    page.goto(f"/games/{game.pk}/judge/")
    expect(page.get_by_test_id("judge-seats")).to_be_visible()
    shot = os.environ.get("MAFCLUB_SCREENSHOTS")
    if shot:
        page.screenshot(path=os.path.join(shot, f"judge-phone-{phase}.png"), full_page=True)
    assert _width(page) <= PHONE["width"]
    # Every seat tile is on screen, none cut off or scrolled away.
    rights = page.eval_on_selector_all("[data-testid=judge-seats] .tile",
                                       "tiles => tiles.map(t => t.getBoundingClientRect().right)")
    assert len(rights) == 10 and max(rights) <= PHONE["width"]
    if phase == "day":  # what the 3rd foul costs is shown while it matters
        expect(page.get_by_test_id("consequence-4")).to_contain_text("D6.4")
    if phase == "finished":
        expect(page.get_by_test_id("left-5")).to_be_visible()
        expect(page.get_by_test_id("awaiting-approval")).to_contain_text("T6.1.3")
