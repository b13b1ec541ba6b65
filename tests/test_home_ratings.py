"""The home page's ratings (docs: the players' site): the current season's top ten in the order of its stored
standings, and the club's Elo top five in the order of the Elo table."""

from __future__ import annotations

import re

from django.test import Client

from club.models import Club
from ratings.models import EloRating, PlayerStats
from ratings.standings.selectors import club_seasons, default_season


def _section(html: str, testid: str) -> str:
    start = html.index(f'data-testid="{testid}"')
    return html[start:html.index("</section>", start)]


def _names(section: str) -> list[str]:
    return re.findall(r'<a href="/players/\d+/">([^<]+)</a>', section)


def test_the_home_page_shows_the_seasons_top_ten_in_standings_order(scene):
    club = Club.objects.get()
    season = default_season(club_seasons(club))
    stored = list(PlayerStats.objects.filter(scope=season.scope).order_by("rank", "id")
                  .values_list("player__nickname", flat=True))
    assert len(stored) > 10  # the demo season has more players than the list shows
    top = _section(Client().get("/").content.decode(), "home-top")
    assert _names(top) == stored[:10]
    assert season.name in top


def test_the_home_page_shows_the_elo_top_five_in_elo_order(scene):
    club = Club.objects.get()
    ratings = list(EloRating.objects.filter(player__club=club).values_list("player__nickname", "elo"))
    assert len(ratings) > 5
    # the top of the table moved: the lowest rated player now leads, so the page cannot show an older order
    lowest = min(ratings, key=lambda row: row[1])[0]
    EloRating.objects.filter(player__club=club, player__nickname=lowest).update(elo=3000)
    expected = [nick for nick, _elo in sorted(EloRating.objects.filter(player__club=club)
                                              .values_list("player__nickname", "elo"), key=lambda row: -row[1])]
    elo = _section(Client().get("/").content.decode(), "home-elo")
    assert _names(elo) == expected[:5] and _names(elo)[0] == lowest
    assert "3000" in elo
