"""The stored aggregates (PlayerStats, RatingPoint, club statistics) equal a from-scratch recomputation after every
kind of scoring event, and match hand-computed role statistics."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.models import Game, Seat
from games.protocol.services.scoring import score_games
from games.rules.protocol import Night as NightEntry
from games.tests.rules_builders import game
from ratings.models import EloChange, EloRating, PlayerGame, PlayerStats, RatingPoint, RatingScope, Season
from ratings.standings import services
from ratings.standings.selectors import tournament_standings

from .conftest import generated, make_tournament, store

POOL = [f"Игрок {i}" for i in range(14)]
STAT_FIELDS = [f.name for f in PlayerStats._meta.concrete_fields if f.name not in ("id", "scope")]


def snapshot() -> dict:
    """Everything stored, keyed by what it is about (not by row ids, which a recompute renews)."""
    def scope_key(scope_id):
        s = RatingScope.objects.get(pk=scope_id)
        return (s.kind, s.tournament_id, s.season_id)

    stats = {(scope_key(s.scope_id), s.player_id): tuple(getattr(s, f if f != "player" else "player_id")
                                                          for f in STAT_FIELDS)
             for s in PlayerStats.objects.all()}
    points = {(scope_key(p.scope_id), p.player_id, p.game_id): (p.seq, p.n, p.points, p.cumulative, p.rank, p.date)
              for p in RatingPoint.objects.all()}
    facts = {(g.game_id, g.player_id): (g.role, g.won, g.total, g.best_move_blacks, g.sheriff_black_finds,
                                        g.don_sheriff_finds, g.date, g.tournament_id)
             for g in PlayerGame.objects.all()}
    elo = {(c.game_id, c.player_id): (c.team, c.score, c.before, c.delta, c.after, c.games, c.date)
           for c in EloChange.objects.all()}
    current = {r.player_id: (r.elo, r.games) for r in EloRating.objects.all()}
    return {"stats": stats, "points": points, "facts": facts, "elo": elo,
            "elo_current": current}


def assert_matches_scratch():
    incremental = snapshot()
    assert incremental["stats"], "nothing stored"
    services.recompute_all()
    assert snapshot() == incremental


def assert_season_equals_seats(season: Season):
    """Independent check: the season's table equals sums over the stored seat scores of counted games."""
    expected = defaultdict(lambda: [0, 0, Decimal(0)])
    for seat in Seat.objects.filter(game__club=season.club, game__date__range=(season.start, season.end),
                                    game__status__in=["finished", "signed"]).exclude(game__result=""):
        row = expected[seat.player_id]
        row[0] += 1
        row[1] += seat.won
        row[2] += seat.total
    stored = {s.player_id: [s.games, s.wins, s.total] for s in PlayerStats.objects.filter(scope__season=season)}
    assert stored == {k: v for k, v in expected.items()}
    last = {}
    for p in RatingPoint.objects.filter(scope__season=season).order_by("seq"):
        last[p.player_id] = p.cumulative
    assert last == {k: v[2] for k, v in expected.items()}


@pytest.fixture
def season_of_two_tournaments(club):
    first = make_tournament(club, "Осень", start=dt.date(2026, 3, 1))
    second = make_tournament(club, "Зима", start=dt.date(2026, 3, 3))
    generated(first, 9, seed=1, start=dt.date(2026, 3, 1), pool=POOL)
    generated(second, 9, seed=2, start=dt.date(2026, 3, 2), pool=POOL)
    return first, second


@pytest.mark.django_db
def test_a_default_calendar_season_is_made_and_equals_the_seats(season_of_two_tournaments, club):
    season = Season.objects.get(club=club)
    assert (season.name, season.start, season.end) == ("2026", dt.date(2026, 1, 1), dt.date(2026, 12, 31))
    assert_season_equals_seats(season)
    assert_matches_scratch()


@pytest.mark.django_db
def test_a_new_scored_game_in_the_middle_of_the_season_matches_a_recompute(season_of_two_tournaments, club):
    first, _ = season_of_two_tournaments
    version = RatingScope.objects.get(season__club=club).version
    protocol = game("red", players={s: POOL[s] for s in range(1, 11)})
    store(first, protocol, date=dt.date(2026, 3, 2))  # between games already in the season: the suffix is redone
    assert RatingScope.objects.get(season__club=club).version > version
    assert_season_equals_seats(Season.objects.get(club=club))
    assert_matches_scratch()


@pytest.mark.django_db
def test_a_reversed_result_matches_a_recompute(season_of_two_tournaments, club):
    first, _ = season_of_two_tournaments
    reversed_game = first.games.order_by("number")[1]
    before = {r.player: r.record.total for r in tournament_standings(first)}
    reversed_game.result = "black" if reversed_game.result != "black" else "red"
    reversed_game.save()
    score_games(game=reversed_game)
    after = {r.player: r.record.total for r in tournament_standings(first)}
    assert after != before
    assert_season_equals_seats(Season.objects.get(club=club))
    assert_matches_scratch()


@pytest.mark.django_db
def test_an_annulled_game_leaves_every_aggregate_and_matches_a_recompute(season_of_two_tournaments, club):
    _, second = season_of_two_tournaments
    annulled = second.games.order_by("number")[0]
    annulled.status = Game.Status.ANNULLED
    annulled.save()
    score_games(game=annulled)
    assert not PlayerGame.objects.filter(game=annulled).exists()
    assert not RatingPoint.objects.filter(game=annulled).exists()
    assert sum(s.games for s in PlayerStats.objects.filter(scope__tournament=second)) == 8 * 10
    assert_season_equals_seats(Season.objects.get(club=club))
    assert_matches_scratch()


def standings_table(client, url) -> str:
    html = client.get(url).content.decode()
    return html[html.index('data-testid="standings"'):html.index("</table>")]


@pytest.mark.django_db
def test_a_table_cached_before_a_scoring_is_not_served_after_it_even_if_the_cache_lost_keys(
        season_of_two_tournaments, client):
    first, _ = season_of_two_tournaments
    url = reverse("ratings:tournament_standings", args=[first.pk])
    cached_before = standings_table(client, url)
    assert standings_table(client, url) == cached_before
    for key in list(getattr(cache, "_cache", {})):  # LocMemCache culls: lose everything but the rendered table
        if "ratings:" not in key:
            cache.delete(key)
    played = first.games.order_by("number")[0]
    played.result = "black" if played.result == "red" else "red"
    played.save()
    score_games(game=played)
    served = standings_table(client, url)
    cache.clear()
    assert served == standings_table(client, url) != cached_before


# ------------------------------------------------------------------------------------------------ roles by hand
@pytest.mark.django_db
def test_role_statistics_on_a_crafted_history_computed_by_hand(club, client):
    t = make_tournament(club, "Руки", start=dt.date(2026, 5, 1))
    x = {}
    # game 1: X is the sheriff (seat 4), reds win; checks: 2 (Ч) black, 3 (К) red, 6 (Д) black → 2 black finds
    g1 = game("red", players={4: "X"}, prefix="a")
    g1.nights = [NightEntry(kill=1, sheriff_check=2, don_check=3), NightEntry(kill=5, sheriff_check=3),
                 NightEntry(kill=None, sheriff_check=6)]
    # game 2: X is the don (seat 6), blacks win; the don found the sheriff (seat 4) on night 2 → 1 sheriff find
    g2 = game("black", players={6: "X"}, prefix="b")
    g2.nights = [NightEntry(kill=1, don_check=3), NightEntry(kill=7, don_check=4)]
    # game 3: X is a citizen (seat 1), killed on night 1, best move 2, 6, 3 → 2 blacks; 2 fouls; reds lose
    g3 = game("black", players={1: "X"}, prefix="c", kills=[1], bm=[2, 6, 3])
    g3.seats[0].fouls = 2
    for n, protocol in enumerate((g1, g2, g3), start=1):
        store(t, protocol, date=dt.date(2026, 5, n), number=n, score=False)
    score_games(tournament=t)
    x = PlayerStats.objects.get(scope__tournament=t, player__nickname="X")
    roles = [(x.citizen_games, x.citizen_wins), (x.mafia_games, x.mafia_wins), (x.sheriff_games, x.sheriff_wins),
             (x.don_games, x.don_wins)]
    assert roles == [(1, 0), (0, 0), (1, 1), (1, 1)]
    assert (x.games, x.wins, x.first_night_deaths, x.fouls) == (3, 2, 1, 2)
    assert (x.best_moves, x.best_move_blacks) == (1, 2)
    assert (x.sheriff_black_finds, x.don_sheriff_finds) == (2, 1)
    season = Season.objects.get(club=club)
    html = client.get(reverse("player_detail", args=[x.player_id]), {"season": season.pk}).content.decode()
    assert 'data-testid="sheriff-finds">2<' in html and 'data-testid="don-finds">1<' in html
    assert "0.67" in html or "0,67" in html  # fouls per game: 2 / 3
    assert "100%" in html and "0%" in html  # Ш and Д won every game, К none
