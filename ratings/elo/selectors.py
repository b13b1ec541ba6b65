"""Reads of the Elo (docs/elo.md; one per player, site-wide): a club's Elo table, a game's changes."""

from __future__ import annotations

from dataclasses import dataclass

from club.selectors import member_players
from ratings.keys import ELO_KEY
from ratings.models import EloChange, EloRating, PendingTail


@dataclass
class EloRow:
    rank: int
    player_id: int
    player: str
    elo: float
    games: int


def elo_table(club) -> list[EloRow]:
    """The club's members by their one Elo (highest first; equal Elo by nickname)."""
    if club is None:
        return []
    rows = (EloRating.objects.filter(player__in=member_players(club)).order_by("-elo", "player__nickname")
            .values_list("player_id", "player__nickname", "elo", "games"))
    return [EloRow(i, pid, nick, elo, games) for i, (pid, nick, elo, games) in enumerate(rows, start=1)]


def elo_json(club) -> dict:
    return {"rows": [{"player": r.player, "elo": round(r.elo, 2), "games": r.games} for r in elo_table(club)]}


def recomputing(club) -> bool:
    """A long Elo recompute is queued or running (the site's one Elo): the pages say "пересчитывается"."""
    return club is not None and PendingTail.objects.filter(key=ELO_KEY).exists()


def game_elo(game) -> dict[int, EloChange]:
    """The Elo changes of a game by seat player id (empty for a game that does not count)."""
    return {c.player_id: c for c in EloChange.objects.filter(game=game)}
