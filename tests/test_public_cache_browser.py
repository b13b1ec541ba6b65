"""A spectator's evening on a phone (390×844, real chromium) with the public pages kept whole for anonymous visitors
(club/page_cache.py): the game under protest is read by two visitors, the second served the kept page; the head
judge decides the protest and the spectator's next look shows the decision at once; the kept page's language
buttons (a POST carrying the visitor's own CSRF token, put in when the page is served) switch the language; the
spectator logs in and sees his own header on the same page, never the kept anonymous one, and once logged out he
is served the public page again."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from club import page_cache
from games.protests.services import protest_decide
from games.protests.tests.test_protests import file_p1
from games.tests.judge_screen import login
from games.tests.protest_fixtures import protest_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def _phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="ru-RU", viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def _open_menu(page) -> None:
    toggler = page.locator(".navbar-toggler")
    if toggler.is_visible() and toggler.get_attribute("aria-expanded") != "true":
        toggler.click()


def test_a_spectator_sees_the_decision_at_once_switches_language_and_logs_in_on_a_kept_page(browser, live_server,
                                                                                           settings):
    settings.PUBLIC_PAGE_CACHE_LOCAL_SECONDS = 3600  # the test's one process: only the writes end a kept page
    settings.PUBLIC_PAGE_CACHE = True
    cast = protest_cast()
    protest = file_p1(cast)
    url = reverse("games:game_detail", args=[cast.game.pk])
    rendered = []  # the anonymous page's renders (a miss); a kept page is served without one
    real_keepable = page_cache._keepable

    def counting(request, *args):
        if "HX-Request" not in request.headers:  # the page itself, not a part it loads after it
            rendered.append(request.path)
        return real_keepable(request, *args)

    page_cache._keepable = counting
    try:
        first_context, first = _phone(browser, live_server)
        first.goto(url)
        expect(first.get_by_test_id("under-protest").first).to_be_visible()
        first_context.close()
        assert rendered.count(url) == 1

        context, page = _phone(browser, live_server)
        page.goto(url)
        expect(page.get_by_test_id("under-protest").first).to_be_visible()
        assert rendered.count(url) == 1  # the second visitor was served the kept page
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

        protest_decide(protest=protest, by=cast.head_judge, decision="reject", explanation="Видео не подтвердило")
        page.reload()
        expect(page.get_by_text("Видео не подтвердило").first).to_be_visible()
        expect(page.get_by_test_id("under-protest")).to_have_count(0)
        assert rendered.count(url) == 2  # rendered afresh after the decision

        page.reload()  # the decided page, kept in its turn: its language buttons post this visitor's own token
        assert rendered.count(url) == 2
        _open_menu(page)
        page.locator("form.language-switch button[value=en]").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        assert page.url.endswith(url)
        _open_menu(page)
        page.locator("form.language-switch button[value=ru]").click()
        expect(page.locator("html")).to_have_attribute("lang", "ru")

        login(page, "participant")
        page.goto(url)
        _open_menu(page)
        expect(page.get_by_test_id("nav-user")).to_have_text("participant")  # his header, not the kept one
        expect(page.get_by_test_id("under-protest")).to_have_count(0)
        _open_menu(page)
        page.locator(f'form[action="{reverse("logout")}"] button').click()
        page.goto(url)
        _open_menu(page)
        expect(page.get_by_test_id("nav-user")).to_have_count(0)  # anonymous again: the public page
        expect(page.locator(f"a[href='{reverse('login')}']").first).to_be_attached()
        context.close()
    finally:
        page_cache._keepable = real_keepable
