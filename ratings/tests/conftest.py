"""Helpers for the ratings tests: store protocols as games and score them through games.protocol.services."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from django.db import transaction
from django.urls import reverse

from club.models import Club, Player, nickname_key
from club.tests.conftest import cast  # noqa: F401  (the club's fixed cast, shared with the ratings pages)
from games.models import Game, Tournament
from games.protocol.selectors import ruleset_by_slug
from games.protocol.services.imports import write_protocol
from games.protocol.services.scoring import score_games
from games.rules.generate import generate_game


def players_for(club: Club, protocol) -> dict[str, Player]:
    found = {}
    for seat in protocol.seats:
        player, _ = Player.objects.get_or_create(club=club, nickname_key=nickname_key(seat.player),
                                                 defaults={"nickname": seat.player})
        found[player.nickname_key] = player
    return found


def store(tournament: Tournament, protocol, *, date: dt.date, number: int | None = None, score: bool = True) -> Game:
    number = number or (tournament.games.count() + 1)
    with transaction.atomic():
        game = Game(club=tournament.club, tournament=tournament, ruleset=tournament.ruleset, number=number, date=date,
                    status=Game.Status.FINISHED)
        write_protocol(game=game, protocol=protocol, players=players_for(tournament.club, protocol), fresh=True)
    if score:
        score_games(tournament=tournament)
    return game


def make_tournament(club: Club, name: str, slug: str = "cml", start: dt.date | None = None) -> Tournament:
    return Tournament.objects.create(club=club, name=name, ruleset=ruleset_by_slug(slug), start_date=start)


def generated(tournament: Tournament, n: int, *, seed: int, start: dt.date, pool: list[str]) -> list[Game]:
    rng = random.Random(seed)
    ruleset = tournament.ruleset.ruleset()
    games = []
    for i in range(n):
        protocol = generate_game(rng, ruleset, players=rng.sample(pool, 10), number=i + 1)
        games.append(store(tournament, protocol, date=start + dt.timedelta(days=i // 3), score=False))
    score_games(tournament=tournament)
    return games


@pytest.fixture
def club(db):
    return Club.objects.create(name="Полночь")


def card_html(client, player, query: str = "") -> str:
    """The card as a browser ends up showing it: the page, each deferred section swapped in from the URL its
    placeholder names (what htmx does when the section comes into view)."""
    html = client.get(reverse("player_detail", args=[player.pk]) + query).content.decode()
    for placeholder, url in re.findall(r'(<div class="card-deferred" hx-get="([^"]+)".*?</div>)', html, re.S):
        fragment = client.get(url.replace("&amp;", "&"), headers={"HX-Request": "true"})
        assert fragment.status_code == 200 and "<html" not in fragment.content.decode()
        html = html.replace(placeholder, fragment.content.decode())
    return html
