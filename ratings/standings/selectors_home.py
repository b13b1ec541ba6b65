"""Reads for the club's home page: the current season's top ten and the Elo top five."""

from __future__ import annotations

from dataclasses import dataclass

from club.selectors import member_players
from ratings.models import EloRating, PlayerStats, Season
from ratings.standings.selectors import cached_value, club_seasons, default_season, season_scope

TOP = 10
ELO_TOP = 5


@dataclass(frozen=True)
class TopRow:
    rank: int
    player_id: int
    player: str
    games: int
    value: object  # the season's total (Decimal) or the Elo (float)


def season_top(club, limit: int = TOP) -> tuple[Season | None, list[TopRow]]:
    """The season covering today (else the latest) and its first `limit` players, cached under the scope's stored
    version (bumped by every scoring transaction), so a new result shows at once."""
    season = default_season(club_seasons(club))
    scope = season_scope(season) if season is not None else None
    if scope is None:
        return season, []

    def compute() -> list[TopRow]:
        rows = (PlayerStats.objects.filter(scope=scope).order_by("rank", "id")
                .values_list("rank", "player_id", "player__nickname", "games", "total")[:limit])
        return [TopRow(*row) for row in rows]

    rows, _hit = cached_value(("home-top", scope.pk, scope.version, limit), compute)
    return season, rows


def elo_top(club, limit: int = ELO_TOP) -> list[TopRow]:
    """The club's members' highest Elo."""
    if club is None:
        return []
    rows = (EloRating.objects.filter(player__in=member_players(club)).order_by("-elo", "player__nickname")
            .values_list("player_id", "player__nickname", "games", "elo")[:limit])
    return [TopRow(rank, pid, nick, games, elo) for rank, (pid, nick, games, elo) in enumerate(rows, start=1)]
