"""The Elo table's rendering is kept under the club's generation (ratings.standings.views.club_elo): a reversed
result (a protest's decision), a renamed player and a hidden round shown are on the next page; the table is the
same for every reader."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from club.models import Player
from club.tests.factories import MembershipFactory, UserFactory
from games.protocol.services.scoring import score_games
from ratings.models import EloRating

from .conftest import generated, make_tournament

pytestmark = pytest.mark.django_db
POOL = [f"Игрок {i}" for i in range(14)]


@pytest.fixture
def tournament(club):
    played = make_tournament(club, "Осень", start=dt.date(2026, 3, 1))
    generated(played, 4, seed=3, start=dt.date(2026, 3, 1), pool=POOL)
    return played


def _table(client) -> str:
    html = client.get(reverse("ratings:club_elo")).content.decode()
    return html[html.index('data-testid="elo-table"'):html.index("</table>")]


def _elos(table: str) -> list[str]:
    return re.findall(r'<td class="text-end">(\d+)</td><td class="text-end">', table)


def test_a_reversed_result_and_a_rename_are_on_the_next_page(client, tournament):
    before = _table(client)
    assert _table(client) == before
    game = tournament.games.order_by("number").first()
    game.result = "black" if game.result != "black" else "red"
    game.save()
    score_games(game=game)  # a protest's reversal rescores: the Elo tail is recomputed
    after = _table(client)
    assert _elos(after) != _elos(before)
    top = EloRating.objects.order_by("-elo").select_related("player").first().player
    top.nickname = "Новичок сезона"
    top.save()
    assert "Новичок сезона" in _table(client)


def test_a_hidden_round_shown_is_on_the_next_page(client, tournament):
    from games.models import Game

    before = _table(client)
    Game.objects.filter(tournament=tournament, number=4).update(results_hidden=True)
    score_games(tournament=tournament)  # a round hidden: its games leave the public Elo
    hidden = _table(client)
    assert _elos(hidden) != _elos(before)
    Game.objects.filter(tournament=tournament).update(results_hidden=False)
    score_games(tournament=tournament)  # shown again
    assert _elos(_table(client)) == _elos(before)


def test_every_reader_sees_the_same_table(client, club, tournament):
    staff = UserFactory(username="elo-admin")
    MembershipFactory(club=club, user=staff, role="admin")
    anonymous = _table(client)
    client.force_login(staff)
    assert _table(client) == anonymous
    assert Player.objects.filter(nickname__in=POOL).exists()
