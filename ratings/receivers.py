"""How ratings follows games: receivers of `games.signals`, connected in `RatingsConfig.ready`.

games never imports ratings; it announces its changes and these functions keep the stored ratings in step. They
run inside the transaction of the change (see `games.signals`).
"""

from __future__ import annotations

from ratings import services


def scores_changed(sender, *, game_ids, tournament_ids, club_ids, **kwargs) -> None:
    """Games were (re)scored: rebuild their facts and the aggregates of every scope holding them, bump the caches."""
    services.refresh(game_ids)
    services.invalidate_standings(tournament_ids, club_ids)


def protest_settled(sender, *, game_ids, tournament_ids, club_ids, **kwargs) -> None:
    """A protest was rejected: the scores stand, the provisional marks go; the cached tables are stale."""
    services.invalidate_standings(tournament_ids, club_ids)


def lots_imported(sender, *, tournament_id, lots, **kwargs) -> None:
    services.store_lots(tournament_id, lots)
