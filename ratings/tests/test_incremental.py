"""Writes proportional to what changed: a sign-off writes no rating row, a rescored tournament touches only the
games whose facts moved, history is appended at the end and a long early tail goes to the task worker."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.tests.factories import UserFactory
from games.live.apply import live_apply
from games.models import Game
from games.protocol.services.scoring import score_games
from ratings.models import PendingTail, PlayerStats, RatingPoint, RatingScope
from ratings.standings import services

from .conftest import card_html, generated, make_tournament
from .test_aggregates import assert_matches_scratch

POOL = [f"Игрок {i}" for i in range(14)]
RATING_TABLES = ("ratings_playergame", "ratings_playerstats", "ratings_ratingpoint", "ratings_elochange",
                 "ratings_elorating")


def rating_writes(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].split()[0].upper() in ("INSERT", "UPDATE", "DELETE")
            and any(t in q["sql"] for t in RATING_TABLES)]


@pytest.fixture
def season(club):
    # xcraft: no Ci, so a new game leaves the scores of the others as they were (cml's Ci would move them all)
    first = make_tournament(club, "Весна", "xcraft", start=dt.date(2026, 3, 1))
    second = make_tournament(club, "Лето", "xcraft", start=dt.date(2026, 6, 1))
    generated(first, 8, seed=11, start=dt.date(2026, 3, 1), pool=POOL)
    generated(second, 8, seed=12, start=dt.date(2026, 6, 1), pool=POOL)
    return first, second


@pytest.mark.django_db
def test_a_sign_off_rescores_nothing_and_writes_no_rating_row(season, club):
    first, _ = season
    game = first.games.order_by("number").last()
    admin = UserFactory(is_superuser=True, is_staff=True)
    with CaptureQueriesContext(connection) as queries:
        live_apply(game_id=game.pk, by=admin, kind="sign", payload={}, version=game.version,
                   action_id=str(uuid.uuid4()))
    assert Game.objects.get(pk=game.pk).status == Game.Status.SIGNED
    assert rating_writes(queries.captured_queries) == []
    assert not any("games_scoreitem" in q["sql"] and q["sql"].startswith("DELETE") for q in queries.captured_queries)


@pytest.mark.django_db
def test_rescoring_a_tournament_without_a_change_writes_no_rating_row(season, club):
    first, _ = season
    with CaptureQueriesContext(connection) as queries:
        score_games(tournament=first)
    assert rating_writes(queries.captured_queries) == []
    # nor are the unchanged seat scores and score items rewritten
    assert not [q["sql"] for q in queries.captured_queries if q["sql"].split()[0] in ("INSERT", "UPDATE", "DELETE")
                and ("games_seat" in q["sql"] or "games_scoreitem" in q["sql"])]


@pytest.mark.django_db
def test_a_changed_game_rewrites_only_its_rows_and_the_history_after_it(season, club):
    _, second = season
    game = second.games.order_by("number")[5]
    scope = RatingScope.objects.get(season__club=club)
    before_points = set(RatingPoint.objects.filter(scope=scope).filter(date__lt=game.date).values_list("pk", flat=True))
    stats_ids = set(PlayerStats.objects.filter(scope=scope).values_list("pk", flat=True))
    game.result = "black" if game.result != "black" else "red"
    game.save()
    score_games(game=game)
    # the history before the game is kept as it was (same rows), the stats rows updated in place
    assert before_points <= set(RatingPoint.objects.filter(scope=scope).values_list("pk", flat=True))
    assert stats_ids == set(PlayerStats.objects.filter(scope=scope).values_list("pk", flat=True))
    assert_matches_scratch()


@pytest.mark.django_db
def test_a_new_game_at_the_end_appends_the_history(season, club):
    _, second = season
    scope = RatingScope.objects.get(season__club=club)
    kept = set(RatingPoint.objects.filter(scope=scope).values_list("pk", flat=True))
    generated(second, 1, seed=13, start=dt.date(2026, 12, 1), pool=POOL)
    after = set(RatingPoint.objects.filter(scope=scope).values_list("pk", flat=True))
    assert kept < after and len(after - kept) == 10
    assert_matches_scratch()


@pytest.mark.django_db
def test_a_long_history_tail_is_rewritten_by_the_task_and_the_profile_says_so_meanwhile(season, club, client,
                                                                                        monkeypatch):
    first, _ = season
    monkeypatch.setattr(services, "INLINE_HISTORY", 2)
    seen = []
    original = services.recompute_history.call

    def spy(self, scope_id):
        seen.append(PendingTail.objects.filter(key=services.history_key(scope_id)).exists())
        return original(scope_id)

    monkeypatch.setattr(type(services.recompute_history), "call", spy)
    early = first.games.order_by("number")[0]
    early.result = "black" if early.result != "black" else "red"
    early.save()
    score_games(game=early)
    assert seen and all(seen)  # queued, then run by the (immediate) worker
    assert not PendingTail.objects.exists()
    assert_matches_scratch()
    scope = RatingScope.objects.get(season__club=club)
    player = PlayerStats.objects.filter(scope=scope).first().player
    PendingTail.objects.create(key=services.history_key(scope.pk), since_date=early.date, since_game=early.pk)
    html = card_html(client, player, f"?season={scope.season_id}")
    assert 'data-testid="history-recomputing"' in html and "пересчитывается" in html
