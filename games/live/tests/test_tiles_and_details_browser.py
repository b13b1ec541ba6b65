"""The judge's phone screen (390×844): a seat tile never splits a nickname in the middle of a word (a long word is
smaller or cut with an ellipsis on one line), and every <details> of the page shows a disclosure marker."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.tests.judge_screen import PHONE, login
from games.tests.live_fixtures import make_cast, seat_everyone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = ["Константинопольский", "Бармаглотище", "Мистер Икс", "Ночная Пантера", "Кардинальчик", "Ли"]

# For every word of every tile's nickname: the number of line boxes it is drawn on (a split word gives 2).
WORD_LINES = """() => Array.from(document.querySelectorAll('.tile-nick')).flatMap(el => {
  const node = el.firstChild; if (!node) return [];
  const text = node.textContent; const out = []; let at = 0;
  for (const word of text.split(' ')) {
    const start = text.indexOf(word, at); at = start + word.length;
    if (!word) continue;
    const range = document.createRange(); range.setStart(node, start); range.setEnd(node, start + word.length);
    const tops = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
    out.push([word, tops.size, getComputedStyle(el).textOverflow, el.scrollWidth > el.clientWidth]);
  }
  return out;
})"""

MARKERS = """() => Array.from(document.querySelectorAll('details > summary')).map(s => {
  const before = getComputedStyle(s, '::before');
  return [s.textContent.trim().slice(0, 30), before.content, before.display, parseFloat(before.width) || 0];
})"""


def test_seat_tiles_never_split_a_nickname_mid_word(page):
    cast = make_cast("cml")
    for player, nickname in zip(cast.players, LONG, strict=False):
        player.nickname = nickname
        player.save()
    seat_everyone(cast.game, cast.players)
    page.set_viewport_size(PHONE)
    login(page)
    page.goto(f"/games/{cast.game.pk}/judge/")
    expect(page.get_by_test_id("seat-1")).to_be_visible()
    words = page.evaluate(WORD_LINES)
    assert {w for w, *_ in words} >= {"Константинопольский", "Бармаглотище", "Мистер", "Икс"}
    for word, lines, overflow, clipped in words:
        assert lines == 1, f"«{word}» is split over {lines} lines"
        if clipped:
            assert overflow == "ellipsis", f"«{word}» is cut without an ellipsis"


def test_every_details_shows_a_disclosure_marker(page):
    cast = make_cast("cml")
    seat_everyone(cast.game, cast.players)
    page.set_viewport_size(PHONE)
    login(page)
    page.goto(f"/games/{cast.game.pk}/judge/")
    markers = page.evaluate(MARKERS)
    assert markers, "the judge's screen has <details>"
    for text, content, display, width in markers:
        assert content not in ("none", "normal", '""') and display != "none" and width > 0, (text, content)
