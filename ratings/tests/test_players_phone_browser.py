"""The players list (`/players/`) on a 390×844 phone: the page does not scroll sideways and every column — the Elo
among them — is on the screen without scrolling (real chromium)."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from club.models import Player
from ratings.models import Season
from ratings.tests.conftest import generated, make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# the widest names a club gives: long nicknames, a city under each
NICKS = [f"Константинопольский-{i:02d}" for i in range(6)] + [f"Игрок {i:02d}" for i in range(6, 14)]
COLUMNS = """() => {
  const table = document.querySelector('[data-testid="players-table"]');
  return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
          heads: [...table.querySelectorAll('thead th')].map(th => {
            const r = th.getBoundingClientRect();
            return {key: th.dataset.testid, left: r.left, right: r.right, width: r.width};
          })};
}"""


@pytest.fixture
def listed(club):
    for nick in NICKS:
        Player.objects.create(club=club, nickname=nick, city="Санкт-Петербург")
    start = dt.date(2026, 3, 2)
    Season.objects.create(club=club, name="Весна 2026", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31))
    generated(make_tournament(club, "Кубок весны", start=start), 9, seed=5, start=start, pool=NICKS)
    return club


def test_the_players_list_fits_a_phone_with_the_elo_column_on_screen(page, listed):
    page.set_viewport_size(PHONE)
    page.goto("/players/")
    page.get_by_test_id("players-table").wait_for()
    page.screenshot(path="/tmp/secrecy/players.png", full_page=True)
    seen = page.evaluate(COLUMNS)
    assert seen["scroll"] <= seen["inner"], seen
    heads = {h["key"]: h for h in seen["heads"]}
    elo = heads["col-elo"]
    assert elo["width"] > 0 and 0 <= elo["left"] and elo["right"] <= seen["inner"], seen["heads"]
    assert all(h["right"] <= seen["inner"] for h in seen["heads"]), seen["heads"]
    # the games and the win rate are not lost: on a phone they are written under the name
    first = page.get_by_test_id("player-row-games").first
    assert first.is_visible() and re.fullmatch(r"\d+ игр[аы]? · \d+% побед", first.inner_text().strip())
