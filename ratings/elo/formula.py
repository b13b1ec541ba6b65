"""Elo rating over team games (pure Python, no Django): the formula of `docs/elo.md`.

A game has two teams — the reds (citizens and the sheriff) and the blacks (mafia and the don). Every player of a
team expects the same score: the logistic curve of the difference between the other team's average Elo and his own
team's average (MafiaRatings' team-average Elo):

    expected(team) = 1 / (1 + 10 ** ((R_other − R_team) / 400))

and after the game every player's Elo changes by K × (result − expected), result 1 for a win, 0 for a loss and ½
for a draw. K and the starting value are the site's settings (`ELO_K`, `ELO_START`; one Elo per player).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass

DEFAULT_START = 1000.0
DEFAULT_K = 20.0
RED, BLACK = "red", "black"
RED_ROLES = {"К", "Ш", ""}  # a seat without a recorded role counts with the reds (the majority)
BLACK_ROLES = {"Ч", "Д"}


def expected(team: float, other: float) -> float:
    """The expected score of a team whose average Elo is `team` against a team averaging `other`."""
    return 1.0 / (1.0 + 10.0 ** ((other - team) / 400.0))


@dataclass(frozen=True)
class Seat:
    player: int | str
    team: str  # RED or BLACK
    score: float  # 1 won, 0 lost, 0.5 draw


@dataclass(frozen=True)
class Change:
    player: int | str
    before: float
    delta: float

    @property
    def after(self) -> float:
        return self.before + self.delta


def team_of(role: str) -> str:
    return BLACK if role in BLACK_ROLES else RED


def game_changes(seats: Iterable[Seat], ratings: Mapping, *, k: float = DEFAULT_K,
                 start: float = DEFAULT_START) -> list[Change]:
    """The Elo change of every seat of one game, from the ratings before it (a player not in `ratings` starts)."""
    seats = list(seats)
    before = {s.player: float(ratings.get(s.player, start)) for s in seats}
    teams: dict[str, list[float]] = {RED: [], BLACK: []}
    for s in seats:
        teams[s.team].append(before[s.player])
    average = {team: sum(values) / len(values) for team, values in teams.items() if values}
    changes = []
    for s in seats:
        own = average[s.team]
        other = average.get(BLACK if s.team == RED else RED, own)
        changes.append(Change(s.player, before[s.player], k * (s.score - expected(own, other))))
    return changes


def apply(changes: Iterable[Change], ratings: MutableMapping) -> None:
    for c in changes:
        ratings[c.player] = c.after


def replay(games: Iterable[Iterable[Seat]], *, k: float = DEFAULT_K, start: float = DEFAULT_START,
           ratings: MutableMapping | None = None) -> dict:
    """Ratings after the games in order (from `ratings`, or everybody at `start`)."""
    ratings = {} if ratings is None else ratings
    for seats in games:
        apply(game_changes(seats, ratings, k=k, start=start), ratings)
    return dict(ratings)
