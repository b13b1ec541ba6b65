"""The player card (`/players/<id>/`): what each section says, checked against the stored games, and its cost."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Player
from games.models import Seat
from ratings.card import selectors as selectors_card
from ratings.models import EloChange, PlayerGame, RatingScope, Season

from .conftest import card_html, generated, make_tournament

POOL = [f"Игрок {i}" for i in range(12)]
RED = {"К", "Ш"}


def build(club, games: int):
    tournament = make_tournament(club, "Осень", start=dt.date(2026, 9, 1))
    generated(tournament, games, seed=games, start=dt.date(2026, 9, 1), pool=POOL)
    player = Player.objects.filter(club=club).order_by("pk").first()
    return tournament, player


def _season_scope(club):
    return RatingScope.objects.get(season=Season.objects.get(club=club, name="2026"))


@pytest.mark.django_db
def test_partners_and_opponents_are_counted_by_team_with_the_players_own_result(club):
    _, player = build(club, 9)
    scope = _season_scope(club)
    card = selectors_card.player_card(player, scope)
    mine = {g.game_id: g for g in PlayerGame.objects.filter(player=player)}
    expected_with: dict[int, list[int]] = {}
    expected_against: dict[int, list[int]] = {}
    for other in PlayerGame.objects.filter(game_id__in=mine).exclude(player=player):
        me = mine[other.game_id]
        bucket = expected_with if (other.role in RED) == (me.role in RED) else expected_against
        games, wins = bucket.setdefault(other.player_id, [0, 0])
        bucket[other.player_id] = [games + 1, wins + me.won]
    assert card.partners and card.opponents
    for line in card.partners:
        assert [line.games, line.wins] == expected_with[line.player_id]
    for line in card.opponents:
        assert [line.games, line.wins] == expected_against[line.player_id]
    assert card.partners[0].games == max(g for g, _ in expected_with.values())
    assert card.opponents[0].games == max(g for g, _ in expected_against.values())


@pytest.mark.django_db
def test_partners_and_opponents_of_a_regular_are_counted_over_his_latest_games_and_the_card_says_so(
        club, client, monkeypatch):
    """The partners and opponents read at most CO_PLAYER_GAMES of his games (a fixed cost, whatever his number of
    games); when older games are left out, the section says over how many latest games it counted."""
    _, player = build(club, 9)
    monkeypatch.setattr(selectors_card, "CO_PLAYER_GAMES", 4)
    card = selectors_card.player_card(player, _season_scope(club))
    latest = {g.game_id: g for g in PlayerGame.objects.filter(player=player).order_by("-date", "-game_id")[:4]}
    assert len(latest) == 4 < PlayerGame.objects.filter(player=player).count()
    expected: dict[tuple[bool, int], list[int]] = {}
    for other in PlayerGame.objects.filter(game_id__in=latest).exclude(player=player):
        me = latest[other.game_id]
        line = expected.setdefault(((other.role in RED) == (me.role in RED), other.player_id), [0, 0])
        line[0] += 1
        line[1] += me.won
    assert card.co_players_over == 4 and card.partners and card.opponents
    for line in card.seats:  # all his games, not the latest four
        assert line.games == Seat.objects.filter(player=player, number=line.seat).count()
    assert [g["game_id"] for g in card.games] == [g.game_id for g in PlayerGame.objects.filter(
        player=player).order_by("-date", "-game_id")]
    for same, lines in ((True, card.partners), (False, card.opponents)):
        for line in lines:
            assert [line.games, line.wins] == expected[(same, line.player_id)]
    cache.clear()
    html = card_html(client, player)
    assert 'data-testid="co-players-latest"' in html and "По последним 4 играм периода." in html
    monkeypatch.setattr(selectors_card, "CO_PLAYER_GAMES", 200)
    assert selectors_card.player_card(player, _season_scope(club)).co_players_over is None
    cache.clear()
    assert 'data-testid="co-players-latest"' not in card_html(client, player)


@pytest.mark.django_db
def test_results_by_seat_and_recent_form_follow_the_stored_games(club):
    _, player = build(club, 9)
    card = selectors_card.player_card(player, _season_scope(club))
    seats = Seat.objects.filter(player=player)
    assert [line.seat for line in card.seats] == list(range(1, 11))
    for line in card.seats:
        assert line.games == seats.filter(number=line.seat).count()
    latest = list(PlayerGame.objects.filter(player=player).order_by("-date", "-game_id")[:10])
    assert [g.game_id for g in card.form] == [g.game_id for g in latest]
    assert [(g.role, g.won) for g in card.form] == [(g.role, g.won) for g in latest]
    deltas = EloChange.objects.filter(player=player, game_id__in=[g.game_id for g in latest])
    assert card.elo_change == pytest.approx(sum(d.delta for d in deltas))


@pytest.mark.django_db
def test_the_card_shows_form_chips_role_bars_chart_switch_and_the_latest_value(club, client):
    _, player = build(club, 6)
    html = card_html(client, player)
    games = PlayerGame.objects.filter(player=player).count()
    assert html.count('data-testid="form-chip"') == min(games, 10)
    newest = PlayerGame.objects.filter(player=player).order_by("-date", "-game_id").first()
    assert reverse("games:game_detail", args=[newest.game_id]) in html.split('data-testid="recent-form"')[1]
    assert html.count('data-testid="role-bar"') == 4
    for key in ("points", "rank", "elo"):
        assert f'id="series-{key}"' in html and f'data-series="{key}"' in html
    assert html.count('data-testid="latest-label"') == 3
    assert 'data-testid="partners"' in html and 'data-testid="opponents"' in html
    assert 'data-testid="seat-results"' in html
    texts = re.findall(r'<text class="chart-label[^"]*"[^>]*font-size="(\d+)"', html)
    assert texts and all(int(size) >= 14 for size in texts)
    assert "Нажмите на точку графика" in html and "Tap a point" not in html and "Win %" not in html


@pytest.mark.django_db
def test_the_history_and_the_partners_come_after_the_page_and_inline_without_scripts(club, client):
    """The page's first part carries neither the chart nor the partners: placeholders load them when they come into
    view. Each section alone is the same HTML as inline (`?all=1`, what the placeholders' links open without
    scripts); a plain request of a section goes to the whole card there."""
    tournament, player = build(club, 6)
    url = reverse("player_detail", args=[player.pk])
    page = client.get(url).content.decode()
    assert 'data-testid="rating-chart"' not in page and 'data-testid="partners"' not in page
    assert 'data-testid="player-games"' not in page
    assert page.count('class="card-deferred"') == len(selectors_card.SECTIONS) and 'hx-trigger="intersect once"' in page
    whole = client.get(url, {"all": "1"}).content.decode()
    assert 'class="card-deferred"' not in whole
    def body(html: str) -> str:  # the sections' HTML, whitespace between tags aside
        return re.sub(r">\s+<", "><", html.split('id="ratings-body"')[1]).strip()

    assert body(card_html(client, player)) == body(whole)
    for section in selectors_card.SECTIONS:
        section_url = reverse("player_card_section", args=[player.pk, section])
        plain = client.get(section_url, {"tournament": tournament.pk})
        assert plain.status_code == 302 and plain["Location"] == f"{url}?tournament={tournament.pk}&all=1#{section}"
    tournament_card = card_html(client, player, f"?tournament={tournament.pk}")
    assert 'data-testid="rating-chart"' in tournament_card and 'data-testid="partners"' in tournament_card
    assert client.get(reverse("player_card_section", args=[player.pk, "nothing"]),
                      headers={"HX-Request": "true"}).status_code == 404


@pytest.mark.django_db
def test_an_older_page_of_games_is_the_games_section_of_that_page(club, client, monkeypatch):
    """The card's page of games comes as its own section: the page's placeholder asks for the page in the query,
    and the section holds that page's games, newest first, with links to the newer and older pages."""
    monkeypatch.setattr(selectors_card, "GAMES_PER_PAGE", 2)
    _, player = build(club, 6)
    page = client.get(reverse("player_detail", args=[player.pk]), {"page": "2"}).content.decode()
    assert re.search(r'hx-get="[^"]*/card/games/\?season=\d+&amp;page=2"', page)
    html = card_html(client, player, "?page=2")
    table = html.split('data-testid="player-games"')[1].split("</table>")[0]
    shown = [int(n) for n in re.findall(r'href="/games/(\d+)/"', table)]
    newest = PlayerGame.objects.filter(player=player).order_by("-date", "-game_id").values_list("game_id", flat=True)
    assert shown == list(newest[2:4])
    assert "page=1#games" in html  # newer
    assert ("page=3#games" in html) == (len(newest) > 4)  # older, if there are


@pytest.mark.django_db
def test_a_player_without_games_gets_a_card_with_initials(club, client):
    player = Player.objects.create(club=club, nickname="Новичок")
    html = client.get(reverse("player_detail", args=[player.pk])).content.decode()
    assert 'class="player-initials"' in html and ">НО<" in html
    assert 'data-testid="no-games"' in html or "Нет" in html


@pytest.mark.django_db
def test_the_card_costs_the_same_number_of_queries_at_three_and_thirty_games(club, client):
    counts = []
    for games in (3, 30):
        Player.objects.all().delete()
        _, player = build(club, games)
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("player_detail", args=[player.pk])).status_code == 200
        counts.append(len(queries))
        for section in selectors_card.SECTIONS:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(reverse("player_card_section", args=[player.pk, section]),
                                  headers={"HX-Request": "true"}).status_code == 200
            counts.append(len(queries))
        club.tournaments.all().delete()
    per_card = 1 + len(selectors_card.SECTIONS)  # the page, then each section
    assert counts[:per_card] == counts[per_card:], counts
    # on PostgreSQL the chart's read is planned for its player: plan_cache_mode set and reset around it, two
    # statements (club.reads.planned_each_time)
    planned = 2 if connection.vendor == "postgresql" and settings.DB_PLANNED_EACH_TIME else 0
    assert counts[0] <= 12 and max(counts[1:per_card]) <= 8 + planned


@pytest.mark.django_db
@pytest.mark.parametrize("sort,key", [
    ("place", lambda p: (p.place is None, p.place or 0)),
    ("rating", lambda p: (p.rating is None, -(p.rating or 0))),
    ("elo", lambda p: (p.elo_now is None, -(p.elo_now or 0))),
    ("games", lambda p: (p.games is None, -(p.games or 0))),
])
def test_the_players_list_is_sorted_by_the_chosen_column_and_keeps_the_search(club, client, sort, key):
    build(club, 6)
    Player.objects.create(club=club, nickname="Игрок без игр")
    response = client.get(reverse("player_list"), {"sort": sort})
    rows = list(response.context["page"].object_list)
    assert len(rows) == Player.objects.filter(club=club).count()
    assert [key(p) for p in rows] == sorted(key(p) for p in rows)
    html = response.content.decode()
    assert html.count('data-testid="player-row"') == len(rows) and 'aria-sort="' in html
    fragment = client.get(reverse("player_list"), {"sort": sort, "q": "игрок 1"}, headers={"HX-Request": "true"})
    body = fragment.content.decode()
    names = re.findall(r'data-testid="player-row">([^<]+)<', body)
    assert names and all("Игрок 1" in n for n in names) and "<html" not in body


@pytest.mark.django_db
def test_the_players_list_shows_place_rating_elo_games_and_win_rate_from_the_season(club, client):
    build(club, 6)
    scope = _season_scope(club)
    from ratings.models import EloRating, PlayerStats

    stats = PlayerStats.objects.filter(scope=scope).order_by("rank").first()
    rows = client.get(reverse("player_list")).context["page"].object_list
    first = rows[0]
    assert (first.pk, first.place, first.rating, first.games) == (stats.player_id, stats.rank, stats.total, stats.games)
    assert first.win_rate == pytest.approx(100 * stats.wins / stats.games)
    assert first.elo_now == EloRating.objects.get(player_id=stats.player_id).elo


def test_the_card_lists_his_latest_tournaments_newest_first_with_his_final_line(club):
    from ratings.models import PlayerStats
    from ratings.standings.selectors import player_tournaments

    made = []
    for i, month in enumerate((3, 5, 9)):
        tournament = make_tournament(club, f"Кубок {i + 1}", start=dt.date(2026, month, 1))
        generated(tournament, 4, seed=i, start=dt.date(2026, month, 1), pool=POOL[:10])  # all ten play each
        made.append(tournament)
    player = Player.objects.filter(club=club).order_by("pk").first()
    lines = {s.scope.tournament_id: s for s in PlayerStats.objects.filter(player=player, scope__kind="tournament")
             .select_related("scope")}
    expected = [(t.pk, t.name, lines[t.pk].rank, lines[t.pk].games, lines[t.pk].total) for t in reversed(made)]
    assert player_tournaments(player) == expected  # the read compiled once (its first batch of his games)
    assert player_tournaments(player, limit=2) == expected[:2]  # another batch: the ORM's own read
    assert player_tournaments(Player.objects.create(club=club, nickname="Новичок")) == []
