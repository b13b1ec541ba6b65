"""On a 390×844 phone a player opens his card, plays a game in which he nominates two blacks, and his card's
statistics (read from the registry, ratings.statistics.registry) say so (real chromium)."""

from __future__ import annotations

import datetime as dt

import pytest

from club.models import Player

from .conftest import make_tournament, store
from .test_black_nominations import first_game, second_game


def _figures(page, player) -> dict[str, str]:
    page.goto(f"/players/{player.pk}/")
    stats = page.get_by_test_id("profile-stats")
    stats.scroll_into_view_if_needed()
    return {row.locator("dt").inner_text(): row.locator("dd").inner_text() for row in stats.locator("div").all()}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_sees_his_black_nominations_on_his_card_on_a_phone(page, club):
    tournament = make_tournament(club, "Выставления", start=dt.date(2026, 5, 1))
    store(tournament, second_game(), date=dt.date(2026, 5, 1), number=1)
    player = Player.objects.get(club=club, nickname="X")
    page.set_viewport_size({"width": 390, "height": 844})
    before = _figures(page, player)
    assert before["Выставлял чёрных"] == "1"
    assert before["Шериф нашёл чёрных"] == "0"

    store(tournament, first_game(), date=dt.date(2026, 5, 2), number=2)  # two more blacks nominated
    after = _figures(page, player)
    assert after["Выставлял чёрных"] == "3"
    figure = page.get_by_test_id("stat-black_nominations")
    assert figure.is_visible()
    box = figure.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390  # on the phone's screen, not cut off
