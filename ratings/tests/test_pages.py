"""Ratings pages: a fixed number of queries at two sizes, htmx fragments, provisional rows, CSV, the summary."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core.cache import cache
from django.urls import reverse

from club.models import Player
from games.models import Protest
from games.rules.generate import generate_game
from ratings.models import Season

from .conftest import card_html, generated, make_tournament, store

MAX_QUERIES = 16


def build(club, games: int, players: int):
    pool = [f"Игрок {i}" for i in range(players)]
    t1 = make_tournament(club, "Весна", start=dt.date(2025, 4, 1))
    generated(t1, games, seed=games, start=dt.date(2025, 4, 1), pool=pool)
    t2 = make_tournament(club, "Осень", start=dt.date(2026, 9, 1))
    generated(t2, games, seed=games + 1, start=dt.date(2026, 9, 1), pool=pool)
    busiest = Player.objects.filter(club=club).order_by("pk").first()
    return t2, busiest


def urls(tournament, player):
    return [reverse("ratings:tournament_standings", args=[tournament.pk]), reverse("ratings:club_rating"),
            reverse("ratings:club_stats"), reverse("player_detail", args=[player.pk]),
            reverse("player_detail", args=[player.pk])]


@pytest.mark.django_db
@pytest.mark.parametrize("games,players", [(3, 10), (30, 40)])
def test_pages_read_stored_aggregates_in_a_fixed_number_of_queries(club, client, games, players,
                                                                   django_assert_max_num_queries):
    tournament, player = build(club, games, players)
    for url in urls(tournament, player):
        cache.clear()  # the first render after a change: nothing cached
        with django_assert_max_num_queries(MAX_QUERIES):
            response = client.get(url)
        assert response.status_code == 200, url
    html = client.get(reverse("ratings:club_rating")).content.decode()
    assert html.count('href="/players/') >= min(players, 10)


PROFILE_CACHED_QUERIES = 4  # the player, the club's seasons with their scopes, the site's club (base.html), the
# player's league series (templates/leagues/_player_series.html: one query; their places are cached by stamp)


@pytest.mark.django_db
@pytest.mark.parametrize("games,players", [(3, 10), (30, 40)])
def test_a_cached_profile_reads_only_the_player_and_the_seasons(club, client, games, players,
                                                                django_assert_max_num_queries):
    tournament, player = build(club, games, players)
    older = Season.objects.get(club=club, name="2025")
    base = reverse("player_detail", args=[player.pk])
    for query in ({}, {"season": older.pk}, {"page": 2}):
        cache.clear()
        assert client.get(base, query).status_code == 200  # renders and caches the body
        with django_assert_max_num_queries(PROFILE_CACHED_QUERIES):
            html = client.get(base, query).content.decode()
        assert 'data-testid="player-tournaments"' in html and 'data-testid="ratings-filter"' in html
    with django_assert_max_num_queries(PROFILE_CACHED_QUERIES):  # the htmx fragment is the same cached body
        fragment = client.get(base, {"page": 2}, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in fragment and 'id="ratings-body"' in fragment


@pytest.mark.django_db
def test_the_cached_profile_follows_a_game_scored_in_another_season(club, client):
    """The tournaments list spans scopes: a game in a 2025 tournament changes the page cached for the 2026 season."""
    tournament, player = build(club, 3, 10)  # ten players: everyone plays every game
    spring = club.tournaments.get(name="Весна")
    url = reverse("player_detail", args=[player.pk])

    def spring_games() -> int:
        html = client.get(url).content.decode()
        cells = html.split(f">{spring.name}</a></td>", 1)[1].split('<td class="text-end">')
        return int(cells[2].split("<", 1)[0])  # rank, then games

    assert spring_games() == 3
    assert spring_games() == 3  # served from the cache
    protocol = generate_game(random.Random(5), spring.ruleset.ruleset(), players=[f"Игрок {i}" for i in range(10)],
                             number=4)
    store(spring, protocol, date=dt.date(2025, 4, 5), number=4)
    assert spring_games() == 4


@pytest.mark.django_db
def test_the_profile_shows_the_chart_and_an_htmx_season_switch_returns_a_fragment(club, client):
    tournament, player = build(club, 6, 12)
    url = reverse("player_detail", args=[player.pk])
    page = card_html(client, player)
    assert "<html" in page and 'data-series="points"' in page and 'data-testid="chart-values"' in page
    older = Season.objects.get(club=club, name="2025")
    fragment = client.get(url, {"season": older.pk}, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in fragment and 'id="ratings-body"' in fragment
    assert f'value="{older.pk}" selected' in fragment
    by_tournament = client.get(url, {"tournament": tournament.pk}).content.decode()
    assert f'value="{tournament.pk}" selected' in by_tournament
    history = client.get(reverse("ratings:player_history_csv", args=[player.pk]), {"season": older.pk})
    lines = b"".join(history.streaming_content).decode().splitlines()
    assert lines[0].lstrip("\ufeff") == "game,date,game_id,points,cumulative,rank"
    assert len(lines) - 1 == player.seats.filter(game__date__year=2025).count()


@pytest.mark.django_db
def test_a_pending_protest_marks_the_rows_of_that_games_players_provisional(club, client):
    tournament, _ = build(club, 4, 12)
    protested = tournament.games.order_by("number").first()
    url = reverse("ratings:tournament_standings", args=[tournament.pk])
    assert 'data-provisional="1"' not in client.get(url).content.decode()
    Protest.objects.create(game=protested, category=Protest.Category.RESULT, text="…",
                           filed_at="2026-09-01T20:00:00Z")
    html = client.get(url).content.decode()
    assert html.count('data-provisional="1"') == 10
    data = client.get(reverse("ratings:tournament_standings_json", args=[tournament.pk])).json()
    assert sum(1 for row in data["rows"] if row.get("provisional")) == 10
    Protest.objects.filter(game=protested).update(status=Protest.Status.REJECTED)
    assert 'data-provisional="1"' not in client.get(url).content.decode()


@pytest.mark.django_db
def test_club_statistics_count_results_per_rule_set_and_games_per_month(club, client):
    tournament, _ = build(club, 6, 12)
    html = client.get(reverse("ratings:club_stats"), {"season": Season.objects.get(name="2026").pk}).content.decode()
    assert "Сентябрь 2026" in html and "2026-09" not in html and "CML" in html  # the month in words
    reds = tournament.games.filter(result="red").count()
    assert f"({reds})" in html


@pytest.mark.django_db
def test_the_old_profile_address_redirects_to_the_cards_history_keeping_the_filter(club, client):
    _, player = build(club, 3, 10)
    older = Season.objects.get(club=club, name="2025")
    response = client.get(f"/ratings/players/{player.pk}/", {"season": older.pk})
    assert response.status_code in (301, 302)
    assert response["Location"] == f"/players/{player.pk}/?season={older.pk}#history"
    followed = client.get(response["Location"]).content.decode()
    assert f'value="{older.pk}" selected' in followed and 'id="history"' in followed


@pytest.mark.django_db
def test_season_csv_lists_the_season_table(club, client):
    build(club, 3, 10)
    season = Season.objects.get(name="2026")
    body = client.get(reverse("ratings:season_standings_csv", args=[season.pk])).content.decode("utf-8-sig")
    header, first, *_ = body.splitlines()
    assert header == "rank,player,games,wins,main,extras,total" and first.startswith("1,")


@pytest.mark.django_db
def test_the_chart_is_drawn_the_same_in_russian_and_english(club):
    """Numbers inside SVG are never localised: every coordinate of the chart is the same in both languages
    (a Russian decimal comma in `y="216,0"` scattered the axis labels)."""
    import re

    from django.test import Client

    _, player = build(club, 6, 12)
    svgs = {}
    for language in ("ru", "en"):
        client = Client()
        client.cookies["django_language"] = language
        page = card_html(client, player)
        svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
        svgs[language] = re.findall(r'\b(?:x|y|x1|x2|y1|y2|width|height|points|viewBox)="([^"]*)"', svg)
        assert not any("," in v for v in svgs[language] if " " not in v), svgs[language]  # "216,0" is a comma
    assert svgs["ru"] == svgs["en"] and len(svgs["ru"]) > 10


@pytest.mark.django_db
def test_a_long_history_is_read_as_the_charts_sample_and_drawn_as_the_whole_history_would_be(club, monkeypatch):
    """The card reads only the chart's sampled games (selectors_card.CHART_SAMPLES); the chart equals the one drawn
    from every stored point sampled the same way. The sample is narrowed to 5 points so that a small history needs
    sampling."""
    from ratings.card import chart as card_chart
    from ratings.card import sampling as charts
    from ratings.card import selectors as selectors_card
    from ratings.models import EloChange, RatingPoint, RatingScope

    t2, player = build(club, 12, 12)
    scope = RatingScope.objects.get(tournament=t2)
    rows = list(RatingPoint.objects.filter(scope=scope, player=player).order_by("seq")
                .values_list("n", "game_id", "game__number", "date", "cumulative", "rank"))
    assert len(rows) > 5
    monkeypatch.setattr(selectors_card, "CHART_SAMPLES", 5)
    elo = dict(EloChange.objects.filter(player=player, game__tournament=t2).values_list("game_id", "after"))
    kept = charts.sample(len(rows), 5)
    whole = card_chart.card_chart([card_chart.ChartGame(*rows[i], elo.get(rows[i][1])) for i in kept],
                                  total=len(rows))
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        card = selectors_card.player_card(player, scope)
    read = [q["sql"] for q in queries if '"cumulative"' in q["sql"] and '"n" IN (' in q["sql"]]
    assert len(read) == 1, "only the sample is read"
    assert len(read[0].split('"n" IN (')[1].split(")")[0].split(",")) == 5
    # the history table's rows carry their event and table besides (selectors_card._named)
    import dataclasses
    assert all(g.event for g in card.chart.table)
    bare = [dataclasses.replace(g, event="", table=None) for g in card.chart.table]
    assert dataclasses.replace(card.chart, table=bare) == whole
    assert [len(s.points) for s in card.chart.series] == [5, 5, 5] and card.chart.games == len(rows)
