"""«Выставлял чёрных» — the statistic added as one registry entry (ratings.statistics.registry) and one migration: the
nominations a player made of a black seat (Ч or Д), withdrawn ones not counted. Its fact, its aggregate, the
incremental path and the full recompute agree, and the card and the API show it."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import reverse

from games.models import Game
from games.protocol.services.scoring import score_games
from games.rules.protocol import Day, Nomination
from games.tests.rules_builders import game
from ratings.models import PlayerGame, PlayerStats, Season
from ratings.standings import services

from .conftest import make_tournament, store

# L1 (games.tests.rules_builders): Ч at 2 and 8, Д at 6, Ш at 4, the rest К.


def first_game():
    """X at seat 3 nominates 2 (Ч) and 8 (Ч) on day 1; on day 2 nominates 6 (Д) and withdraws, then 5 (К)."""
    g = game("red", players={3: "X"}, prefix="a", outs=[[8], [2]])
    g.days[0].nominations = [Nomination(by=3, nominee=2), Nomination(by=4, nominee=6), Nomination(by=3, nominee=8)]
    g.days[1].nominations = [Nomination(by=3, nominee=6, withdrawn=True), Nomination(by=3, nominee=5)]
    return g


def second_game():
    """X at seat 1 nominates 6 (Д): one more."""
    g = game("red", players={1: "X"}, prefix="b", outs=[[6]])
    g.days = [Day(nominations=[Nomination(by=1, nominee=6), Nomination(by=2, nominee=1)], out=[6])]
    return g


def stored_stats() -> dict:
    return {(s.scope_id, s.player_id): s.black_nominations for s in PlayerStats.objects.all()}


@pytest.mark.django_db
def test_the_fact_counts_black_nominees_and_skips_withdrawn_and_red_ones(club):
    t = make_tournament(club, "Выставления", start=dt.date(2026, 5, 1))
    played = store(t, first_game(), date=dt.date(2026, 5, 1))
    facts = dict(PlayerGame.objects.filter(game=played).values_list("seat", "black_nominations"))
    assert facts[3] == 2  # 2 and 8; the withdrawn 6 and the red 5 are not counted
    assert facts[4] == 1  # 6, the don
    assert sum(facts.values()) == 3


@pytest.mark.django_db
def test_the_incremental_path_and_the_full_recompute_agree(club):
    t = make_tournament(club, "Выставления", start=dt.date(2026, 5, 1))
    store(t, first_game(), date=dt.date(2026, 5, 1))
    g2 = store(t, second_game(), date=dt.date(2026, 5, 2))  # added incrementally
    x = PlayerStats.objects.get(scope__tournament=t, player__nickname="X")
    assert x.black_nominations == 3
    season_x = PlayerStats.objects.get(scope__season__club=club, player__nickname="X")
    assert season_x.black_nominations == 3
    incremental = stored_stats()
    services.recompute_all()
    assert stored_stats() == incremental

    Game.objects.filter(pk=g2.pk).update(status=Game.Status.ANNULLED)  # subtracted incrementally
    score_games(game=Game.objects.get(pk=g2.pk))
    assert PlayerStats.objects.get(scope__tournament=t, player__nickname="X").black_nominations == 2
    incremental = stored_stats()
    services.recompute_all()
    assert stored_stats() == incremental


@pytest.mark.django_db
def test_the_card_and_the_api_show_it(club, client):
    t = make_tournament(club, "Выставления", start=dt.date(2026, 5, 1))
    store(t, first_game(), date=dt.date(2026, 5, 1))
    store(t, second_game(), date=dt.date(2026, 5, 2))
    x = PlayerStats.objects.get(scope__tournament=t, player__nickname="X")
    season = Season.objects.get(club=club)
    html = client.get(reverse("player_detail", args=[x.player_id]), {"season": season.pk}).content.decode()
    assert "<dt>Выставлял чёрных</dt>" in html
    assert 'data-testid="stat-black_nominations">3<' in html
    data = json.loads(client.get(f"/api/v1/players/{x.player_id}/", {"season": season.pk}).content)
    figures = {f["key"]: f for f in data["statistics"]}
    assert figures["black_nominations"] == {"key": "black_nominations", "label": "Выставлял чёрных",
                                            "display": "integer", "value": 3}
    assert figures["sheriff_black_finds"]["value"] == 0
