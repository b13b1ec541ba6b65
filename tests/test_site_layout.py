"""The layout half of the site walk (the text half is test_site_crawl.py): every HTML page of the demo club in
Chromium, on a 390×844 phone and a 1280×800 desktop, as anonymous and as the club admin (who sees the longest
menu), in Russian (and on the phone in English too). On every page: no horizontal scroll of the page body.
On the standings and protocol tables: rank, name and «Итого» inside the phone's screen. At 1280 px the admin's
menu stays on one line."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.site_walk import site_urls

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
RUNS = [("anonymous", "ru", PHONE), ("anonymous", "ru", DESKTOP), ("admin", "ru", PHONE), ("admin", "ru", DESKTOP),
        ("admin", "en", PHONE)]
LOGINS = {"anonymous": None, "admin": "admin"}
# Tables whose first columns and total must stay on a phone's screen (the rest folds or scrolls in its box).
KEY_TABLES = {"standings": ("th:first-child", "th:nth-child(2)", "th:nth-child(7)"),
              "protocol-seats": ("th:first-child", "th:nth-child(2)", "th:last-child")}


def _html_pages(scene, login):
    client = Client()
    if login:
        client.force_login(get_user_model().objects.get(username=login))
    pages = []
    for name, url in site_urls(scene)[0]:
        response = client.get(url)
        if response.status_code == 200 and "text/html" in response.get("Content-Type", ""):
            pages.append((name, url))
    return client, pages


def _context(browser, live_server, client, language, viewport):
    context = browser.new_context(base_url=live_server.url, viewport=viewport, locale="ru-RU")
    cookies = [{"name": "django_language", "value": language, "url": live_server.url}]
    if client.cookies.get("sessionid"):
        cookies.append({"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url})
    context.add_cookies(cookies)
    return context


def test_every_page_fits_a_phone_and_a_desktop(browser, live_server, scene):
    problems, loads = [], 0
    for role, language, viewport in RUNS:
        client, pages = _html_pages(scene, LOGINS[role])
        assert len(pages) > 15
        context = _context(browser, live_server, client, language, viewport)
        page = context.new_page()
        page.set_default_timeout(15_000)
        for name, url in pages:
            page.goto(url, wait_until="domcontentloaded")
            loads += 1
            where = f"{role}/{language}/{viewport['width']} {url} ({name})"
            overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
            if overflow > 1:
                problems.append(f"{where}: the page scrolls sideways by {overflow}px")
            if viewport is PHONE:
                for testid, cells in KEY_TABLES.items():
                    table = page.locator(f'[data-testid="{testid}"]')
                    if not table.count() or not table.first.locator("tbody tr").count():
                        continue
                    for cell in cells:
                        box = table.first.locator(f"thead {cell}").bounding_box()
                        if box and box["x"] + box["width"] > viewport["width"] + 1:
                            problems.append(f"{where}: {testid} {cell} is off the screen (right edge "
                                            f"{box['x'] + box['width']:.0f}px)")
            elif role == "admin":
                tops = page.evaluate("""() => [...document.querySelectorAll('#main-nav > ul:first-child > li')]
                                        .map(li => Math.round(li.getBoundingClientRect().top))""")
                if len(set(tops)) > 1:
                    problems.append(f"{where}: the admin's menu wraps onto {len(set(tops))} lines")
        context.close()
    print(f"layout checked on {loads} page loads")
    assert not problems, "\n".join(problems)
