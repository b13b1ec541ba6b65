"""What the schedule's writes (`games.tournaments.services`) and reads (`games.tournaments.selectors`) share: the final's stage name,
the registry of rankers, whether a game has begun, a table judge seated at his own table. A read imports this
module, never the writes."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.utils.translation import gettext as _

from club.models import Player
from games.models import Game, Tournament

FINAL_STAGE = "Финал"

# The ratings layer registers how the tie-broken standings rank the players of some games (games never imports
# ratings): rank(tournament, games) -> player ids, best first.
RANKERS: list[Callable[[Tournament, list[Game]], list[int]]] = []


def is_started(game: Game) -> bool:
    """A game the judge has begun (anything entered): the schedule no longer changes its seats."""
    return game.status != Game.Status.DRAFT or game.actions.exists()


def judge_among(judge_id: int | None, players: Iterable[Player | None]) -> Player | None:
    """The player among `players` who is `judge_id`'s own player card: a table judge never sits as a player at the
    table he judges (he cannot conduct the game and play in it)."""
    if judge_id is None:
        return None
    return next((p for p in players if p is not None and p.user_id == judge_id), None)


def judge_seated_message(table: int | None, player: Player) -> str:
    return _("Table %(table)s: %(name)s judges this table and cannot sit at it as a player.") % {
        "table": table or "—", "name": player.nickname}
