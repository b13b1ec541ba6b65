"""The overlay's player card calls a standings place «место» (context "standings"), never «место проведения» (the
venue's word, which shares the English "place")."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from broadcast.models import OverlayToken
from club.models import Player
from ratings.tests.conftest import generated, make_tournament

POOL = [f"Игрок {i}" for i in range(12)]


@pytest.mark.django_db
def test_the_overlays_player_card_calls_the_rank_place_not_venue():
    from club.models import Club
    club = Club.objects.create(name="Полночь")
    tournament = make_tournament(club, "Осень", start=dt.date(2026, 9, 1))
    generated(tournament, 3, seed=3, start=dt.date(2026, 9, 1), pool=POOL)
    player = Player.objects.filter(club=club).order_by("pk").first()
    token = OverlayToken.objects.create(club=club, tournament=tournament)
    html = Client(HTTP_ACCEPT_LANGUAGE="ru").get(
        reverse("broadcast:player", args=[token.token, player.pk])).content.decode()
    assert "место проведения" not in html.lower()
    assert " · место " in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
