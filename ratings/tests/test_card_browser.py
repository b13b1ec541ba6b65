"""On a 390×844 phone a player opens his card after a game: the new game is first in his form, it is the latest
point of the chart (every chart label at least 12 px as rendered, in each series), his role's bar counts it and
the Elo change follows it (real chromium)."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from club.models import Player
from games.rules.generate import generate_game
from ratings.models import EloChange, PlayerGame

from .conftest import generated, make_tournament, store

POOL = [f"Игрок {i}" for i in range(12)]
ROLE_NAMES = {"К": 0, "Ч": 1, "Ш": 2, "Д": 3}

LABEL_SIZES = """() => [...document.querySelectorAll('.card-chart figure.chart-series')]
  .filter(f => getComputedStyle(f).display !== 'none')
  .flatMap(f => [...f.querySelectorAll('text')].map(t => ({
    text: t.textContent.trim(),
    size: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
    height: t.getBoundingClientRect().height})))"""


def _card(page, player):
    page.goto(f"/players/{player.pk}/")
    page.get_by_test_id("recent-form").wait_for()
    return {
        "first_chip": page.get_by_test_id("form-chip").first.get_attribute("href"),
        "elo_change": page.get_by_test_id("elo-change").inner_text(),
        "bars": [b.inner_text() for b in page.get_by_test_id("role-bar").all()],
    }


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_players_card_on_a_phone_shows_his_new_game(page, club):
    tournament = make_tournament(club, "Осень", start=dt.date(2026, 9, 1))
    generated(tournament, 6, seed=3, start=dt.date(2026, 9, 1), pool=POOL)
    player = Player.objects.get(club=club, nickname="Игрок 0")
    page.set_viewport_size({"width": 390, "height": 844})
    before = _card(page, player)

    others = [n for n in POOL if n != "Игрок 0"]
    protocol = generate_game(random.Random(11), tournament.ruleset.ruleset(), players=["Игрок 0", *others[:9]],
                             number=7)
    game = store(tournament, protocol, date=dt.date(2026, 9, 10), number=7)
    mine = PlayerGame.objects.get(game=game, player=player)

    after = _card(page, player)
    assert after["first_chip"] == f"/games/{game.pk}/" != before["first_chip"]
    chip = page.get_by_test_id("form-chip").first
    assert chip.locator(".chip-role").inner_text() == mine.role
    assert ("победа" if mine.won else "поражение") in chip.inner_text()
    role = ROLE_NAMES[mine.role]
    games_before = int(before["bars"][role].split("игр ")[1].split(",")[0])
    assert f"игр {games_before + 1}," in after["bars"][role]
    delta = EloChange.objects.get(game=game, player=player).delta
    assert after["elo_change"] != before["elo_change"] or delta == 0

    page.locator("#history").scroll_into_view_if_needed()  # the section is loaded when it comes into view
    chart = page.get_by_test_id("rating-chart")
    chart.scroll_into_view_if_needed()
    for key in ("points", "rank", "elo"):
        chart.locator(f'label[for="series-{key}"]').click()
        figure = chart.locator(f'figure[data-series="{key}"]')
        assert figure.is_visible()
        assert figure.locator("a.chart-point").last.get_attribute("href") == f"/games/{game.pk}/"
        labels = page.evaluate(LABEL_SIZES)
        assert len(labels) >= 4
        small = [label for label in labels if label["size"] < 12 or label["height"] < 12]
        assert not small, f"{key}: {small}"
    # a tap on the latest point says which game it was and links to its protocol
    chart.locator('figure[data-series="elo"] a.chart-point').last.click(force=True)
    readout = page.get_by_test_id("chart-readout")
    assert "игра 7" in readout.inner_text()
    assert readout.locator("a").get_attribute("href") == f"/games/{game.pk}/"
