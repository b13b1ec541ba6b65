"""What the schedule's writes (`games.tournaments.services`) and reads (`games.tournaments.selectors`) share: the final's stage name,
the registry of rankers, whether a game has begun. A read imports this module, never the writes."""

from __future__ import annotations

from collections.abc import Callable

from games.models import Game, Tournament

FINAL_STAGE = "Финал"

# The ratings layer registers how the tie-broken standings rank the players of some games (games never imports
# ratings): rank(tournament, games) -> player ids, best first.
RANKERS: list[Callable[[Tournament, list[Game]], list[int]]] = []


def is_started(game: Game) -> bool:
    """A game the judge has begun (anything entered): the schedule no longer changes its seats."""
    return game.status != Game.Status.DRAFT or game.actions.exists()
