"""The judge's phone screen (390×844) on day 2 with the best-move panel open: no nominee button is ever under the
timer bar (the bar keeps its own room below the page, and a control scrolled into view stops above it)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from games.live.apply import live_apply
from games.models import Game
from games.tests.judge_screen import PHONE, login
from games.tests.live_fixtures import ROLES, make_cast, seat_everyone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DAY_TWO = [("start", {}), ("speech", {}), ("nominate", {"by": 1, "nominee": 5}), ("nominate", {"by": 2, "nominee": 4}),
           ("votes", {"v5": 7}),
           ("night", {}), ("kill", {"seat": 1}), ("day", {})]


def _play(game, by, steps):
    for kind, payload in steps:
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        live_apply(game_id=game.pk, by=by, kind=kind, payload=payload, version=version, action_id=os.urandom(8).hex())


def _overlap(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_no_nominee_button_is_under_the_timer_bar_on_day_two_with_the_best_move_open(page):
    cast = make_cast("cml")
    seat_everyone(cast.game, cast.players, ROLES)
    _play(cast.game, cast.judge, DAY_TWO)
    page.set_viewport_size(PHONE)
    login(page)
    page.goto(f"/games/{cast.game.pk}/judge/")
    expect(page.get_by_test_id("best-move-save")).to_be_visible()
    bar = page.get_by_test_id("timer-bar")
    expect(bar).to_be_visible()
    buttons = page.locator('[data-testid^="nominee-"]')
    assert buttons.count() == 8  # seat 5 voted out, seat 1 killed
    for position in ("top", "bottom"):
        page.evaluate(f"window.scrollTo(0, {'0' if position == 'top' else 'document.documentElement.scrollHeight'})")
        for i in range(buttons.count()):
            button = buttons.nth(i)
            button.scroll_into_view_if_needed()
            box, bar_box = button.bounding_box(), bar.bounding_box()
            assert box and bar_box and not _overlap(box, bar_box), (position, i, box, bar_box)
        # at the page's end the last of everything stays above the bar
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        last = page.locator("#judge-screen > *:not(#timer-bar):not([hidden])").last.bounding_box()
        assert last is None or last["y"] + last["height"] <= bar.bounding_box()["y"] + 1, (last, bar.bounding_box())
