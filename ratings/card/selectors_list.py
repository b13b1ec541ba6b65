"""Reads of the players list (`/players/`): each player with his season place, rating, Elo, games and win rate.

One page of the list is one query (the stored PlayerStats of the current season and the stored EloRating joined
by subqueries), plus its count, whatever the number of games; the order is chosen from `SORTS`, never from the
request's raw text.
"""

from __future__ import annotations

from typing import cast

from django.db.models import F, Field, FloatField, OuterRef, Subquery, Value
from django.db.models.functions import Cast, NullIf

from club.selectors import player_search
from ratings.models import EloRating, PlayerStats, RatingScope

# key → the order it means (nulls last: a player without games in the season is listed after the others)
SORTS = {
    "place": (F("place").asc(nulls_last=True), "nickname_key"),
    "rating": (F("rating").desc(nulls_last=True), "nickname_key"),
    "elo": (F("elo_now").desc(nulls_last=True), "nickname_key"),
    "games": (F("games").desc(nulls_last=True), "nickname_key"),
    "winrate": (F("win_rate").desc(nulls_last=True), "nickname_key"),
    "name": ("nickname_key",),
}
DEFAULT_SORT = "place"


def player_rows(*, club, scope: RatingScope | None, query: str = "", sort: str = DEFAULT_SORT):
    """The club's players matching `query` (the live search), with their line in `scope`, ordered by `sort`."""
    stats = PlayerStats.objects.filter(scope=scope, player_id=OuterRef("pk")) if scope is not None else None
    players = player_search(club=club, query=query)

    def stat(name: str):
        if stats is None:  # no season yet: every line is empty
            return Value(None, output_field=cast(Field, PlayerStats._meta.get_field(name)))  # a column, not a relation
        return Subquery(stats.values(name)[:1])

    players = players.annotate(
        place=stat("rank"), rating=stat("total"), games=stat("games"), wins=stat("wins"),
        elo_now=Subquery(EloRating.objects.filter(player_id=OuterRef("pk")).values("elo")[:1]))
    players = players.annotate(win_rate=100 * Cast("wins", FloatField()) / NullIf(Cast("games", FloatField()), 0.0))
    return players.order_by(*SORTS.get(sort, SORTS[DEFAULT_SORT]))


def sort_key(value: str | None) -> str:
    return value if value in SORTS else DEFAULT_SORT



