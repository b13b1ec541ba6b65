"""How ratings follows games: receivers of `games.signals`, connected in `RatingsConfig.ready`.

games never imports ratings; it announces its changes and these functions keep the stored ratings in step. They
run inside the transaction of the change (see `games.signals`).
"""

from __future__ import annotations

from ratings.elo import services as services_elo
from ratings.standings import services


def scores_changed(sender, *, game_ids, tournament_ids, club_ids, **kwargs) -> None:
    """Games were (re)scored: rebuild their facts and the aggregates of every scope holding them, bump the caches."""
    services.refresh(game_ids)
    services.invalidate_standings(tournament_ids, club_ids)


def protest_settled(sender, *, tournament_ids, club_ids, **kwargs) -> None:
    """A protest was rejected: the scores stand (its games need no rebuild), the provisional marks go; the cached
    tables are stale."""
    services.invalidate_standings(tournament_ids, club_ids)


def lots_imported(sender, *, tournament_id, lots, **kwargs) -> None:
    services.store_lots(tournament_id, lots)


def club_elo_before(sender, instance, **kwargs) -> None:
    """Remember the club's stored Elo settings, to see in `club_elo_after` whether a save changed them."""
    instance._elo_stored = (type(instance).objects.filter(pk=instance.pk).values_list("elo_start", "elo_k").first()
                            if instance.pk else None)


def club_elo_after(sender, instance, created, **kwargs) -> None:
    """The club admin changed the starting Elo or K: the whole Elo history is recomputed (by the worker)."""
    stored = getattr(instance, "_elo_stored", None)
    if not created and stored is not None and stored != (instance.elo_start, instance.elo_k):
        services_elo.schedule_all(instance.pk)
