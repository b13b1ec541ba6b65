"""«Место» (a place in the standings) and «Место проведения» (a venue) share the English word "Place": the standings'
place carries the context "standings", so a Russian reader of the players list, the card, its chart and the
overlay's player card reads «Место», never «Место проведения»."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Player

from .conftest import card_html, generated, make_tournament

POOL = [f"Игрок {i}" for i in range(12)]
VENUE = "Место проведения"


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def scored(club):
    tournament = make_tournament(club, "Осень", start=dt.date(2026, 9, 1))
    generated(tournament, 3, seed=3, start=dt.date(2026, 9, 1), pool=POOL)
    player = Player.objects.filter(club=club).order_by("pk").first()
    return tournament, player


@pytest.mark.django_db
def test_the_players_list_heads_its_standings_column_place_not_venue(scored):
    html = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("player_list")).content.decode()
    assert VENUE not in html
    assert re.search(r"<th[^>]*>\s*(<a[^>]*>)?\s*Место\s*<", html)


@pytest.mark.django_db
def test_the_card_and_its_chart_call_the_rank_place_not_venue(scored):
    _, player = scored
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    html = card_html(client, player)
    assert VENUE not in html
    assert 'class="stat-label">Место<' in html
    assert re.search(r'<th scope="col" class="text-end">Место</th>', html)

