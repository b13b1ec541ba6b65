"""The layout half of the site walk (the text half is test_site_crawl.py): every HTML page of the demo club in
Chromium, on a 390×844 phone and a 1280×800 desktop, as anonymous and as the club admin (who sees the longest
menu), in Russian (and on the phone in English too). On every page: no horizontal scroll of the page body.
On the standings and protocol tables: rank, name and «Итого» inside the phone's screen. At 1280 px the admin's
menu stays on one line. The judge's screen in every phase of a game (tests/site_walk.py `judge_phase_games`) on the
phone: every control at least 44×44 px, none within 8 px of Undo, no sideways scroll."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.site_walk import JUDGE_PHASES, judge_phase_games, site_urls

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


TAP = 44  # px: the smallest tap target of the judge's screen
UNDO_GAP = 8  # px: no other control this close to Undo
# The controls a judge taps, visible ones only (a Bootstrap .btn-check radio is drawn by its label).
_CONTROLS = """() => {
  const visible = el => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('[hidden]'); };
  const name = el => el.dataset.testid || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 24)
    || el.getAttribute('name') || el.tagName;
  return [...document.querySelectorAll(
      '#judge-screen button, #judge-screen a[href], #judge-screen summary, #judge-screen select, '
      + '#judge-screen input:not([type=hidden]):not(.btn-check), #judge-screen label.btn')]
    .filter(visible).map(el => { const r = el.getBoundingClientRect();
      return {name: name(el), undo: el.dataset.testid === 'undo', x: r.left, y: r.top + window.scrollY,
              w: r.width, h: r.height}; });
}"""


def _gap(a: dict, b: dict) -> float:
    dx = max(b["x"] - (a["x"] + a["w"]), a["x"] - (b["x"] + b["w"]), 0)
    dy = max(b["y"] - (a["y"] + a["h"]), a["y"] - (b["y"] + b["h"]), 0)
    return max(dx, dy)


def test_the_judge_screen_fits_a_phone_in_every_phase(browser, live_server, scene):
    games = judge_phase_games(scene)
    assert tuple(games) == JUDGE_PHASES
    client = Client()
    client.force_login(get_user_model().objects.get(username="judge1"))
    problems, loads, controls = [], 0, 0
    for language in ("ru", "en"):
        context = _context(browser, live_server, client, language, PHONE)
        page = context.new_page()
        page.set_default_timeout(15_000)
        for phase, pk in games.items():
            page.goto(f"/games/{pk}/judge/", wait_until="domcontentloaded")
            page.evaluate("() => document.querySelectorAll('#judge-screen details').forEach(d => d.open = true)")
            loads += 1
            where = f"judge/{language} {phase}"
            overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
            if overflow > 1:
                problems.append(f"{where}: the page scrolls sideways by {overflow}px")
            found = page.evaluate(_CONTROLS)
            controls += len(found)
            undo = [c for c in found if c["undo"]]
            for control in found:
                if control["w"] < TAP - 0.5 or control["h"] < TAP - 0.5:
                    problems.append(f"{where}: {control['name']!r} is {control['w']:.0f}×{control['h']:.0f} px")
                if undo and not control["undo"] and _gap(control, undo[0]) < UNDO_GAP:
                    problems.append(f"{where}: {control['name']!r} is {_gap(control, undo[0]):.0f} px from Undo")
        context.close()
    print(f"judge's screen at 390×844: {loads} page loads, {controls} controls measured")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(sorted(set(problems)))
