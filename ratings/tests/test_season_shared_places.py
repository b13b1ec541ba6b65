"""The season table of one club night's game: players equal on every criterion, with no lot drawn (a season draws
none), share their place («5–10») and no tie note claims the lot decided it; every points column is written in
one format (the column's decimals on every row: «1,6» and «1,0», never «1,6» beside «1»)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import PlayerStats, RatingScope, Season
from ratings.standings.ranking import LOT, rank

from .conftest import generated, make_tournament

POOL = [f"Игрок {i}" for i in range(10)]


def _cells(html: str) -> list[list[str]]:
    body = html[html.index('data-testid="standings"'):]
    body = body[body.index("<tbody>"):body.index("</tbody>")]
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
            for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


@pytest.fixture
def one_game(club):
    tournament = make_tournament(club, "Вечер", start=dt.date(2026, 9, 1))
    generated(tournament, 1, seed=3, start=dt.date(2026, 9, 1), pool=POOL)
    return tournament


@pytest.mark.django_db
def test_players_equal_on_everything_without_a_lot_share_the_place(one_game):
    scope = RatingScope.objects.get(season=Season.objects.get(club=one_game.club))
    stats = list(PlayerStats.objects.filter(scope=scope).order_by("rank", "id"))
    zeros = [s for s in stats if s.total == 0 and s.extras == 0]
    assert len(zeros) >= 2
    assert len({s.rank for s in zeros}) == 1 and not any(s.decided_by for s in zeros)
    html = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("ratings:club_rating")).content.decode()
    assert "«Жребий»" not in html
    first = zeros[0].rank
    shared = f"{first}–{first + len(zeros) - 1}"
    rows = _cells(html)
    assert [r[0] for r in rows].count(shared) == len(zeros)


@pytest.mark.django_db
def test_every_points_column_has_one_format(one_game):
    html = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("ratings:club_rating")).content.decode()
    rows = _cells(html)
    for column in (4, 5, 6, 7):  # points, extra points, total, per game
        decimals = {len(r[column].split(",")[1]) if "," in r[column] else 0 for r in rows}
        assert len(decimals) == 1, (column, [r[column] for r in rows])


def test_the_lot_still_orders_a_tournament_where_it_is_drawn():
    from ratings.standings.ranking import PlayerRecord
    records = {name: PlayerRecord(name) for name in ("Б", "А", "В")}
    ranked = rank(records, [LOT], {"Б": 1, "А": 2, "В": 3})
    assert [(r.rank, r.player, r.decided_by) for r in ranked] == [(1, "Б", None), (2, "А", LOT), (3, "В", LOT)]
    shared = rank(records, [LOT], {})
    assert [(r.rank, r.player, r.decided_by) for r in shared] == [(1, "А", None), (1, "Б", None), (1, "В", None)]
