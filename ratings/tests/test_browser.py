"""A player opens his card on a phone, reads the chart one series at a time and switches the season (real chromium)."""

from __future__ import annotations

import datetime as dt

import pytest

from club.models import Player
from ratings.models import Season

from .conftest import generated, make_tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_sees_the_chart_and_switches_the_season(page, club):
    pool = [f"Игрок {i}" for i in range(12)]
    generated(make_tournament(club, "Весна", start=dt.date(2025, 4, 1)), 4, seed=1, start=dt.date(2025, 4, 1),
              pool=pool)
    generated(make_tournament(club, "Осень", start=dt.date(2026, 9, 1)), 8, seed=2, start=dt.date(2026, 9, 1),
              pool=pool)
    player = Player.objects.filter(seats__game__date__year=2025).filter(seats__game__date__year=2026).first()
    older = Season.objects.get(name="2025")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/ratings/players/{player.pk}/")  # the old address leads to the card's history
    page.wait_for_url(f"**/players/{player.pk}/#history")
    chart = page.locator('[data-testid="rating-chart"]')
    chart.wait_for()
    visible = chart.locator("figure.chart-series:visible")
    assert visible.count() == 1 and visible.get_attribute("data-series") == "points"
    chart.locator('label[for="series-elo"]').click()
    assert visible.count() == 1 and visible.get_attribute("data-series") == "elo"
    newer_values = page.locator('[data-testid="chart-values"]').text_content()
    page.select_option("#id_season", str(older.pk))
    page.wait_for_url(f"**season={older.pk}**")
    page.locator(f'#id_season option[value="{older.pk}"][selected]').wait_for(state="attached")
    page.locator("#history").scroll_into_view_if_needed()  # the section comes when he scrolls to it (a longer card)
    assert page.locator('[data-testid="chart-values"]').text_content() != newer_values
    assert "апреля" in page.locator('[data-testid="chart-values"]').inner_text()
