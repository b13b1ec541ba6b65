"""A player opens their profile, sees the rating chart and switches the season (htmx, real chromium)."""

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
    page.goto(f"/ratings/players/{player.pk}/")
    chart = page.locator('[data-testid="rating-chart"] svg')
    chart.wait_for()
    assert chart.locator('polyline[data-series="points"]').count() == 1
    newer_values = page.locator('[data-testid="chart-values"]').text_content()
    newer_summary = page.locator("#chart-desc").text_content()
    page.select_option("#id_season", str(older.pk))
    page.wait_for_url(f"**season={older.pk}**")
    page.locator(f'#id_season option[value="{older.pk}"][selected]').wait_for(state="attached")
    assert page.locator('[data-testid="rating-chart"] svg polyline[data-series="points"]').count() == 1
    assert page.locator('[data-testid="chart-values"]').text_content() != newer_values
    assert page.locator("#chart-desc").text_content() != newer_summary
    page.locator('[data-testid="chart-values"]').locator("xpath=ancestor::details/summary").click()
    assert "2025" in page.locator('[data-testid="chart-values"]').inner_text()
