"""Helpers of the browser tests of the judge's screen (templates/games/live/judge.html, static/js/live.js)."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from club.tests.factories import PASSWORD

PHONE = {"width": 390, "height": 844}
QUEUE = ("() => JSON.parse(localStorage.getItem('mafclub:queue:' + "
         "document.getElementById('judge-screen').dataset.game) || '[]').length")


def settle(page, timeout: float = 10.0) -> None:
    """Wait until the screen's queue of taps is empty (every tap answered by the server). Polled from here:
    the site's Content-Security-Policy forbids the eval that `wait_for_function` would need."""
    deadline = time.monotonic() + timeout
    while page.evaluate(QUEUE):
        assert time.monotonic() < deadline, "the taps were not answered"
        page.wait_for_timeout(25)


def pending(page) -> int:
    return page.evaluate(QUEUE)


def login(page, username: str = "judge") -> None:
    page.goto("/login/")
    page.get_by_label("Имя пользователя").fill(username)
    page.get_by_label("Пароль").fill(PASSWORD)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_test_id("nav-user")).to_have_text(username)
