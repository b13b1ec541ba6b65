"""The Content-Security-Policy in Debian's chromium: the site and Django's admin work under it with no violation —
htmx runs without eval (live player search, the ratings filter), our scripts come from static files (the season
delete asks first, the judge's screen loads live.js), the admin's own scripts and styles run.

Every page gets a `securitypolicyviolation` listener; any report (or a console message about the policy) fails."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
    e => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.fixture
def demo(transactional_db):
    from club.models import Club
    from games.models import Game
    from ratings.models import Season

    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get()
    Season.objects.get_or_create(club=club, name="Проверка CSP",
                                 defaults={"start": dt.date(2030, 1, 1), "end": dt.date(2030, 12, 31)})
    return {"live": Game.objects.filter(status="in_progress").first(),
            "finished": Game.objects.filter(status="finished").first()}


@pytest.fixture
def csp_page(page):
    page.add_init_script(LISTEN)
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text) if "Content Security Policy" in m.text else None)
    page.csp_messages = messages
    return page


def _no_violation(page, where: str) -> None:
    reports = page.evaluate("window.__csp || []")
    assert not reports and not page.csp_messages, f"{where}: {reports} {page.csp_messages}"


def _login(page, username: str, password: str) -> None:
    page.goto("/login/")
    page.get_by_label("Имя пользователя").fill(username)
    page.get_by_label("Пароль").fill(password)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_test_id("nav-user")).to_be_visible()


def test_the_site_and_the_admin_run_under_the_policy(demo, csp_page):
    page = csp_page
    response = page.goto("/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    _no_violation(page, "home")
    # htmx without eval: the live player search swaps the list
    page.goto("/players/")
    rows = page.get_by_test_id("player-row")
    total = rows.count()
    page.get_by_role("searchbox").press_sequentially("Бен", delay=40)
    expect(rows).not_to_have_count(total)
    _no_violation(page, "players search")
    page.goto("/ratings/")
    _no_violation(page, "ratings")
    page.goto(f"/games/{demo['live'].pk}/live/")
    _no_violation(page, "live view")

    _login(page, "admin", "demo-admin-2026")
    page.goto(f"/games/{demo['live'].pk}/judge/")
    assert page.evaluate("typeof htmx") == "object"
    _no_violation(page, "judge screen")
    # our static script asks before a season is deleted; dismissing keeps it
    page.goto("/ratings/seasons/")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Удалить").first.click()
    page.wait_for_timeout(300)
    assert asked and "Удалить" in asked[0]
    assert page.url.endswith("/ratings/seasons/")
    _no_violation(page, "seasons")

    # Django's admin: index, a change list with its filters and search, a change form with its widgets, history
    user = get_user_model().objects.get(username="admin")
    for path in ("/admin/", "/admin/club/player/", "/admin/games/game/", f"/admin/games/game/{demo['finished'].pk}/change/",
                 f"/admin/games/game/{demo['finished'].pk}/history/", f"/admin/auth/user/{user.pk}/change/"):
        response = page.goto(path)
        assert response.status == 200, path
        assert response.headers.get("content-security-policy"), path
        _no_violation(page, path)
    page.goto("/admin/club/player/")
    page.locator("#searchbar").fill("Бен")
    page.locator("#searchbar").press("Enter")
    expect(page.locator("#result_list")).to_be_visible()
    _no_violation(page, "admin search")
