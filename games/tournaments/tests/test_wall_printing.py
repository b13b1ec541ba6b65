"""Printing for the wall: the round's seating chart is A4 landscape, one round a page (six tables a page), seats
at 16 pt or more with the table number and ten nicknames; the participants' cards two columns, eight a page."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from club.tests.factories import PlayerFactory
from games.tests.live_fixtures import make_cast
from games.tournaments import services as schedule

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _short_search(monkeypatch):
    monkeypatch.setattr(schedule, "SEARCH_STEPS", 200)


@pytest.fixture
def published(db):
    """70 participants (7 tables), two rounds, published."""
    cast = make_cast()
    players = cast.players + [PlayerFactory(club=cast.club, nickname=f"Игрок {i:02d}") for i in range(13, 71)]
    schedule.participants_add(tournament=cast.tournament, players=players, by=cast.club_admin)
    schedule.schedule_generate(tournament=cast.tournament, by=cast.club_admin, rounds=2, seed=1)
    schedule.schedule_publish(tournament=cast.tournament, by=cast.club_admin)
    return cast


def _text_sizes(page) -> list[tuple[float, str]]:
    """(rendered font size in pt, text) of every text run on the page."""
    runs = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            runs.append((abs(size * (tm[0] or 1) * (cm[0] or 1)), text.strip()))
    page.extract_text(visitor_text=visit)
    return runs


def test_the_round_chart_is_a4_landscape_one_round_per_page_readable_from_two_metres(client, published):
    tournament = published.tournament
    response = client.get(reverse("games:round_seating_pdf", args=[tournament.pk, 1]))
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 2  # 7 tables: six on the first page, the seventh on the second
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (round(width / 72 * 25.4), round(height / 72 * 25.4)) == (297, 210)
    text = "".join(p.extract_text() for p in reader.pages)
    for game in tournament.games.filter(round=1):
        assert f"Стол {game.table}" in text
        for seat in game.seats.select_related("player"):
            assert seat.player.nickname in text
    nicknames = {s.player.nickname for g in tournament.games.filter(round=1) for s in g.seats.select_related("player")}
    sizes = [size for page in reader.pages for size, run in _text_sizes(page) if any(n in run for n in nicknames)]
    assert sizes and round(min(sizes), 1) >= 16


def test_the_cards_are_two_columns_eight_per_page(client, published):
    response = client.get(reverse("games:tournament_cards", args=[published.tournament.pk]))
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 9  # 70 cards, 8 a page
    first = reader.pages[0].extract_text()
    assert [n for n in range(1, 12) if f"№{n} " in first] == list(range(1, 9))
