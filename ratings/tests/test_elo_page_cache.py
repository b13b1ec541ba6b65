"""The Elo table's rendering is kept under the club's generation (ratings.standings.views.club_elo): a reversed
result (a protest's decision), a renamed player and a hidden round shown are on the next page; the table is the
same for every reader."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from django.db import transaction
from django.urls import reverse

from club.models import Club, Player, nickname_key
from club.tests.factories import MembershipFactory, UserFactory
from games.models import Game
from games.protocol.services.imports import write_protocol
from games.protocol.services.scoring import score_games
from games.rules.generate import generate_game
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


def _row(table: str, player: Player) -> str:
    start = table.index(f'<a href="{reverse("player_detail", args=[player.pk])}">')
    return table[start:table.index("</tr>", start)]


def test_a_game_at_another_club_moves_a_member_on_his_club_s_page(client, club, tournament):
    """One Elo per person (docs/elo.md): a game at club B moves a member of the site's club A, and A's cached table
    shows it at once — the Elo recompute drops every club's generation, not only the game's club's."""
    member = EloRating.objects.order_by("pk").select_related("player").first().player
    before = EloRating.objects.get(player=member)
    assert f">{before.games}</td>" in _row(_table(client), member)  # the table is now cached under A's generation
    other = Club.objects.create(name="Рассвет")
    away = make_tournament(other, "Выезд", start=dt.date(2026, 4, 1))
    guests = [f"Гость {i}" for i in range(9)]
    protocol = generate_game(random.Random(7), away.ruleset.ruleset(), players=[member.nickname, *guests], number=1)
    players = {nickname_key(n): Player.objects.create(club=other, nickname=n) for n in guests}
    players[member.nickname_key] = member
    with transaction.atomic():
        game = Game(club=other, tournament=away, ruleset=away.ruleset, number=1, date=dt.date(2026, 4, 1),
                    status=Game.Status.FINISHED)
        write_protocol(game=game, protocol=protocol, players=players, fresh=True)
    score_games(tournament=away)
    after = EloRating.objects.get(player=member)
    assert after.games == before.games + 1 and after.elo != before.elo
    row = _row(_table(client), member)
    assert f'<td class="text-end">{after.elo:.0f}</td><td class="text-end">{after.games}</td>' in row
