"""The organiser makes an overlay on his phone, OBS opens it at 1920×1080, a judge's tap shows on it within a
second, and the revoked overlay empties."""

import time

import pytest
from playwright.sync_api import expect

from broadcast.models import OverlayToken
from games.live.apply import live_apply
from games.tests.judge_screen import PHONE, login, settle
from games.tests.live_fixtures import ROLES, make_cast, seat_everyone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
OBS = {"width": 1920, "height": 1080}


def wait_for_text(page, test_id: str, text: str, limit: float, started: float) -> float:
    """Seconds from `started` until the element shows `text` (polled from here: the CSP forbids the eval of
    wait_for_function)."""
    while time.monotonic() - started < limit:
        locator = page.get_by_test_id(test_id)
        if locator.count() and text in locator.inner_text():
            return time.monotonic() - started
        page.wait_for_timeout(10)
    raise AssertionError(f"{test_id} did not show {text!r} within {limit} s: {page.get_by_test_id('ov-board').inner_text()}")


def test_a_judges_tap_shows_on_the_overlay_within_a_second(browser, live_server):
    cast = make_cast()
    seat_everyone(cast.game, cast.players, ROLES)
    live_apply(game_id=cast.game.pk, by=cast.judge, kind="start", payload={}, version=1, action_id="start")

    # The organiser, on his phone: the tournament's page → "overlay" → create → the URL of table 1.
    contexts = [browser.new_context(base_url=live_server.url, viewport=PHONE, locale="ru-RU") for _ in range(2)]
    organiser = contexts[0].new_page()
    login(organiser, "club_admin")
    organiser.goto(f"/games/tournaments/{cast.tournament.pk}/")
    organiser.get_by_test_id("overlay-link").click()
    organiser.get_by_label("Вид").select_option("public")
    organiser.get_by_role("button", name="Создать оверлей").click()
    expect(organiser.get_by_test_id("overlay-token")).to_have_count(1)
    url = organiser.get_by_test_id("overlay-url").first.input_value()
    assert "/tables/1/" in url
    width = organiser.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert width <= 1, f"the organiser's page scrolls sideways by {width} px on a phone"

    # OBS's browser source: no login, a transparent page, the table's ten seats, no role.
    errors = []
    obs_context = browser.new_context(viewport=OBS, locale="ru-RU")
    obs = obs_context.new_page()
    obs.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    obs.goto(url)
    expect(obs.get_by_test_id("ov-seats").locator("li")).to_have_count(10)
    assert obs.evaluate("() => getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    assert obs.locator("[data-testid^=ov-role-]").count() == 0

    # The judge, on his phone, gives seat 3 a foul: the overlay shows it within a second of the tap.
    judge = contexts[1].new_page()
    login(judge)
    judge.goto(f"/games/{cast.game.pk}/judge/")
    judge.get_by_test_id("seat-3").click()
    tapped = time.monotonic()
    judge.get_by_test_id("foul-plus").click()
    delay = wait_for_text(obs, "ov-fouls-3", "1 фол", 1.0, tapped)
    print(f"tap to overlay: {delay:.3f} s")
    settle(judge)
    expect(judge.get_by_test_id("fouls-3").locator(".fouls-count")).to_have_text("1")

    # The organiser revokes it: the overlay empties on its next poll.
    organiser.get_by_test_id("overlay-revoke").click()
    expect(organiser.get_by_test_id("overlay-url")).to_have_count(0)
    expect(obs.get_by_test_id("ov-seats")).to_have_count(0, timeout=2000)
    assert not [e for e in errors if "Content Security Policy" in e], errors
    for context in (obs_context, *contexts):  # no poll may outlive the test's server and database
        context.close()


def test_the_overlay_pages_fit_a_phone_that_opens_them(browser, live_server):
    cast = make_cast()
    seat_everyone(cast.game, cast.players, ROLES)
    live_apply(game_id=cast.game.pk, by=cast.judge, kind="start", payload={}, version=1, action_id="start")
    token = OverlayToken.objects.create(club=cast.club, tournament=cast.tournament, kind=OverlayToken.Kind.DIRECTOR)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, locale="ru-RU")
    phone = context.new_page()
    for url in (f"/broadcast/{token.token}/tables/1/", f"/broadcast/{token.token}/tables/1/result/",
                f"/broadcast/{token.token}/standings/", f"/broadcast/{token.token}/players/{cast.players[0].pk}/"):
        phone.goto(url)
        width = phone.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert width <= 1, f"{url} scrolls sideways by {width} px on a phone"
    context.close()  # the table page polls: stop it before the server and the database go
