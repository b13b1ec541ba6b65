"""Accessibility as a test: axe-core (vendored for the tests only, tests/vendor/axe-core/) on one page of every
page type of the site walk (tests/site_walk.py), at 390 and 1280 px, as an anonymous visitor, a player and the club
admin (staff), in Russian. On every page: no serious or critical axe violation; on the phone, no text under 12 px
as rendered (an SVG label's size is scaled by its chart's width) and no primary control (a button, a form field,
a pagination or sort link) under 44 px tall. The run prints pages × roles × widths."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.site_walk import site_urls

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
WIDTHS = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]
ROLES = {"anonymous": None, "player": "player", "staff": "admin"}
MIN_TEXT, MIN_CONTROL = 12, 44

SMALL_TEXT = """() => {
  const small = [];
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 1 && r.height > 1 &&
                            getComputedStyle(el).visibility !== 'hidden'; };
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('.visually-hidden, [hidden], script, style, option, title, desc')) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !visible(el)) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement && el.getScreenCTM()) size *= el.getScreenCTM().a;
    if (size < MIN_TEXT - 0.05) small.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''} ` +
                                     `${size.toFixed(1)}px «${el.textContent.trim().slice(0, 30)}»`);
  }
  return small.slice(0, 5);
}""".replace("MIN_TEXT", str(MIN_TEXT))

SMALL_CONTROLS = """() => {
  const controls = document.querySelectorAll(
    'main .btn, main button, main select, main input:not([type=hidden]):not([type=checkbox]):not([type=radio]), ' +
    'main .page-link, main .sort-link, .navbar-toggler');
  const small = [];
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || el.closest('.visually-hidden')) continue;
    if (r.height < MIN_CONTROL - 0.5) small.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''} ` +
                                        `${r.height.toFixed(0)}px «${(el.textContent || el.name || '').trim().slice(0, 20)}»`);
  }
  return small.slice(0, 5);
}""".replace("MIN_CONTROL", str(MIN_CONTROL))

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`);
}"""


def _pages(scene, login) -> tuple[Client, list[tuple[str, str]]]:
    """One HTML page of each page type (URL name) the role can open."""
    client = Client()
    if login:
        client.force_login(get_user_model().objects.get(username=login))
    pages, seen = [], set()
    for name, url in site_urls(scene)[0]:
        if name in seen:
            continue
        response = client.get(url)
        if (response.status_code == 200 and "text/html" in response.get("Content-Type", "")
                and b"<html" in response.content):  # a fragment fetched on its own is not a page
            seen.add(name)
            pages.append((name, url))
    return client, pages


def test_every_page_type_passes_axe_and_is_readable_on_a_phone(browser, live_server, scene):
    problems, runs = [], []
    for role, login in ROLES.items():
        client, pages = _pages(scene, login)
        for viewport in WIDTHS:
            context = browser.new_context(base_url=live_server.url, viewport=viewport, locale="ru-RU",
                                          bypass_csp=True)  # axe is evaluated in the page, as no visitor's script
            if client.cookies.get("sessionid"):
                context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                      "url": live_server.url}])
            page = context.new_page()
            page.set_default_timeout(20_000)
            for name, url in pages:
                page.goto(url, wait_until="load")
                where = f"{role}/{viewport['width']} {url} ({name})"
                page.evaluate(AXE)
                problems += [f"{where}: {v}" for v in page.evaluate(RUN_AXE)]
                if viewport["width"] < 576:
                    problems += [f"{where}: text under {MIN_TEXT}px: {t}" for t in page.evaluate(SMALL_TEXT)]
                    problems += [f"{where}: control under {MIN_CONTROL}px: {c}" for c in page.evaluate(SMALL_CONTROLS)]
            context.close()
            runs.append((role, viewport["width"], len(pages)))
    total = sum(n for *_, n in runs)
    print("axe-core pass: " + ", ".join(f"{role} at {width}px: {n} pages" for role, width, n in runs)
          + f" — {total} page loads")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
