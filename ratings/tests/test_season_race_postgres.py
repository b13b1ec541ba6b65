"""The default season of a new year, made by two scorings at once on a real PostgreSQL: two tables of different
tournaments finish in a year no season covers yet; both scoring transactions find no season and make the calendar
year's. One season (and one rating scope) is kept, the second transaction takes the first's, and the season's
table holds the games of both.

The moment is forced: the first transaction keeps its new season uncommitted for a while after the second has
started looking for it.
"""

from __future__ import annotations

import datetime as dt
import random
import threading

import pytest
from django.db import connection, transaction

from club.models import Club
from games.protocol.services.scoring import score_games
from games.rules.generate import generate_game
from ratings.models import PlayerStats, RatingScope, Season
from ratings.standings import services
from ratings.tests.conftest import make_tournament, store

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HOLD = 1.0  # seconds the first transaction keeps its new season uncommitted once the second is under way
NEW_YEAR = dt.date(2031, 1, 10)
POOL = [f"Игрок {i}" for i in range(1, 21)]


@pytest.fixture(autouse=True)
def _needs_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (two connections writing at once): run with DATABASE_URL=postgres://…")


def _game(tournament, seed: int):
    rng = random.Random(seed)
    protocol = generate_game(rng, tournament.ruleset.ruleset(), players=rng.sample(POOL, 10), number=1)
    return store(tournament, protocol, date=NEW_YEAR, score=False)


def test_two_tournaments_scoring_at_once_in_a_new_year_make_one_season(monkeypatch):
    club = Club.objects.create(name="Полночь")
    first, second = make_tournament(club, "Весна"), make_tournament(club, "Кубок")
    _game(first, 1), _game(second, 2)
    assert not Season.objects.filter(club=club).exists()

    made, looking = threading.Event(), threading.Event()
    real = services._season_scopes
    first_thread: list[int] = []

    def season_scopes(dates_by_club):
        if threading.get_ident() in first_thread:
            scopes = real(dates_by_club)
            made.set()  # the season is made, not yet committed
            looking.wait(5)
            threading.Event().wait(HOLD)  # the second transaction is looking for (or making) the season now
            return scopes
        made.wait(5)
        looking.set()
        return real(dates_by_club)

    monkeypatch.setattr(services, "_season_scopes", season_scopes)
    outcome: dict[str, str] = {}

    def score(name, tournament, is_first):
        if is_first:
            first_thread.append(threading.get_ident())
        try:
            with transaction.atomic():
                score_games(tournament=tournament)
            outcome[name] = "ok"
        except Exception as exc:  # noqa: BLE001 — the test reports what went wrong
            outcome[name] = repr(exc)
        finally:
            made.set()
            connection.close()

    threads = [threading.Thread(target=score, args=("first", first, True)),
               threading.Thread(target=score, args=("second", second, False))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert outcome == {"first": "ok", "second": "ok"}
    seasons = list(Season.objects.filter(club=club))
    assert [(s.name, s.start, s.end) for s in seasons] == [("2031", dt.date(2031, 1, 1), dt.date(2031, 12, 31))]
    scope = RatingScope.objects.get(season=seasons[0])
    assert RatingScope.objects.filter(kind=RatingScope.Kind.SEASON, club=club).count() == 1
    # The season's table holds both games: as a recompute from the stored games makes it.
    stored = sorted(PlayerStats.objects.filter(scope=scope).values_list("player_id", "games", "total"))
    assert sum(games for _player, games, _total in stored) == 20
    services.recompute_scope(scope)
    assert sorted(PlayerStats.objects.filter(scope=scope).values_list("player_id", "games", "total")) == stored
