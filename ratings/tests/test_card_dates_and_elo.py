"""The player card writes every date one way (the reader's locale's: «12 мая 2026 г.»), names each row of its
history by its game («12 мая 2026 г., Осень, стол 1, игра 3») and shows each game's Elo change in its games list."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from club.models import Player
from ratings.models import EloChange

from .conftest import card_html, generated, make_tournament

POOL = [f"Игрок {i}" for i in range(12)]
MONTHS = "января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря"
DATE = re.compile(rf"\b(\d{{1,2}}) ({MONTHS})( \d{{4}} г\.)?")


@pytest.fixture
def card(club):
    tournament = make_tournament(club, "Осень", start=dt.date(2026, 9, 1))
    generated(tournament, 6, seed=6, start=dt.date(2026, 9, 1), pool=POOL)
    player = Player.objects.filter(club=club, seats__isnull=False).distinct().order_by("pk").first()
    html = card_html(Client(HTTP_ACCEPT_LANGUAGE="ru"), player)
    return player, html


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.django_db
def test_every_date_on_the_card_is_written_the_same_way(card):
    _, html = card
    assert not re.search(r"\b\d{2}\.\d{2}\.\d{4}\b", html)  # no short numeric dates beside the long ones
    dates = DATE.findall(html)
    assert dates, "the card shows dates"
    assert all(year for _day, _month, year in dates), [d for d in dates if not d[2]]


@pytest.mark.django_db
def test_history_rows_name_their_game(card):
    _, html = card
    rows = [_text(r).strip() for r in re.findall(r'data-testid="history-game">(.*?)</a>', html, re.S)]
    assert rows
    for row in rows:
        assert re.fullmatch(rf"\d{{1,2}} ({MONTHS}) \d{{4}} г\., Осень, (стол \d+, )?игра \d+", row), row


@pytest.mark.django_db
def test_the_games_list_shows_each_games_elo_change(card):
    player, html = card
    cells = re.findall(r'data-testid="game-elo">([^<]*)<', html)
    deltas = {round(d) for d in EloChange.objects.filter(player=player).values_list("delta", flat=True)}
    assert cells and len(cells) == EloChange.objects.filter(player=player).count()
    for cell in cells:
        assert re.fullmatch(r"[+−]\d+|±0", cell), cell
        n = 0 if cell == "±0" else int(cell.replace("−", "-"))
        assert n in deltas
