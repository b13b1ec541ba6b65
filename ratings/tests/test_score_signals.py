"""games announces score changes (`games.signals`), ratings reacts; reading a scope never creates it."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import signals
from games.models import Game
from games.protocol.selectors_export import export_tournament
from games.protocol.services.imports import import_documents
from games.protocol.services.scoring import score_games
from games.tests.rules_builders import game
from ratings.models import Lot, PlayerStats, RatingScope
from ratings.standings import selectors

from .conftest import generated, make_tournament, store

DAY = dt.date(2026, 3, 1)


@pytest.fixture
def probe():
    calls = []

    def receiver(sender, **kwargs):
        calls.append((sender, kwargs))

    signals.scores_changed.connect(receiver, dispatch_uid="test.probe")
    yield calls
    signals.scores_changed.disconnect(dispatch_uid="test.probe")


def test_scoring_sends_the_scored_games_ids(club, probe):
    tournament = make_tournament(club, "Кубок")
    first = store(tournament, game(result="red"), date=DAY, score=False)
    second = store(tournament, game(result="black"), date=DAY, number=2, score=False)
    score_games(tournament=tournament)
    assert probe == [(Game, {"signal": signals.scores_changed, "game_ids": sorted([first.pk, second.pk]),
                             "tournament_ids": [tournament.pk], "club_ids": [club.pk]})]


def test_ratings_receiver_is_connected_and_creates_the_scopes(club):
    tournament = make_tournament(club, "Кубок")
    assert selectors.tournament_scope(tournament) is None
    store(tournament, game(result="red"), date=DAY)
    scope = selectors.tournament_scope(tournament)
    assert scope is not None and PlayerStats.objects.filter(scope=scope).count() == 10
    assert RatingScope.objects.filter(kind=RatingScope.Kind.SEASON, club=club).exists()


def test_a_failing_receiver_rolls_the_scores_back(club):
    tournament = make_tournament(club, "Кубок")
    stored = store(tournament, game(result="red"), date=DAY, score=False)

    def broken(sender, **kwargs):
        raise RuntimeError("ratings failed")

    signals.scores_changed.connect(broken, dispatch_uid="test.broken")
    try:
        with pytest.raises(RuntimeError), transaction.atomic():
            score_games(tournament=tournament)
    finally:
        signals.scores_changed.disconnect(dispatch_uid="test.broken")
    assert not stored.seats.filter(total__gt=0).exists()
    assert not RatingScope.objects.exists()


def test_unscored_tournament_page_shows_no_table_and_writes_nothing(client, club):
    tournament = make_tournament(club, "Новый")
    url = reverse("ratings:tournament_standings", args=[tournament.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
        client.get(reverse("ratings:tournament_standings_json", args=[tournament.pk]))
    assert response.status_code == 200
    assert 'data-testid="standings"' in response.content.decode()
    writes = [q["sql"] for q in queries.captured_queries
              if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]
    assert writes == []
    assert not RatingScope.objects.exists() and not Lot.objects.exists()


def test_imported_lot_is_stored_by_ratings(club):
    """The import hands the lot over with `lots_imported`; ratings stores it before the tournament is ranked."""
    tournament = make_tournament(club, "Кубок")
    generated(tournament, 2, seed=5, start=DAY, pool=[f"Игрок {i}" for i in range(12)])
    document = export_tournament(tournament)
    document["tournament"]["lots"] = {nick: 100 - n for nick, n in document["tournament"]["lots"].items()}
    report = import_documents(documents=[("cup.json", json.dumps(document))], club_name="Другой клуб")
    imported = report.tournaments[0]
    assert imported.club_id != club.pk
    stored = dict(Lot.objects.filter(tournament=imported).values_list("player__nickname", "number"))
    assert stored == document["tournament"]["lots"]


def test_every_tiebreaker_a_rule_set_may_name_is_computed_by_ratings():
    from games.rules.ruleset import PRESETS, TIEBREAKER_KEYS
    from ratings.standings.ranking import METRICS

    assert set(METRICS) == set(TIEBREAKER_KEYS)
    assert all(name in METRICS for preset in PRESETS.values() for name in preset.tiebreakers)
