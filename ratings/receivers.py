"""How ratings follows games: receivers of `games.signals`, connected in `RatingsConfig.ready`.

games never imports ratings; it announces its changes and these functions keep the stored ratings in step. They
run inside the transaction of the change (see `games.signals`).
"""

from __future__ import annotations

from django.db.migrations.operations import AddField

from club.task_queue import enqueue
from ratings.models import Lot, PlayerGame
from ratings.standings import services
from ratings.standings.rebuild import rebuild_task
from ratings.statistics.registry import FACT_KEYS, STAT_FIELDS


def scores_changed(sender, *, game_ids, tournament_ids, club_ids, **kwargs) -> None:
    """Games were (re)scored: rebuild their facts and the aggregates of every scope holding them, bump the caches."""
    services.refresh(game_ids)
    services.invalidate_standings(tournament_ids, club_ids)


def protest_settled(sender, *, tournament_ids, club_ids, **kwargs) -> None:
    """A protest was rejected: the scores stand (its games need no rebuild), the provisional marks go; the cached
    tables are stale."""
    services.invalidate_standings(tournament_ids, club_ids)


def players_merged(sender, *, keep_id, other_id, **kwargs) -> None:
    """Two players became one (games.people.services): the removed one's lots are the kept one's (the merge is
    refused when both played one tournament, so no tournament has a lot of each)."""
    Lot.objects.filter(player_id=other_id).update(player_id=keep_id)


def lots_imported(sender, *, tournament_id, lots, **kwargs) -> None:
    services.store_lots(tournament_id, lots)


# The tables a statistic's columns are added to: the PlayerGame facts and the PlayerStats aggregates.
STATISTIC_TABLES = {"playergame": FACT_KEYS, "playerstats": STAT_FIELDS}


def statistics_added(plan) -> list[str]:
    """The registry keys whose column a migration of `plan` ((migration, backwards) pairs, as `migrate` runs them)
    added to PlayerGame or PlayerStats."""
    added = []
    for migration, backwards in plan:
        if backwards or migration.app_label != "ratings":
            continue
        for operation in migration.operations:
            if (isinstance(operation, AddField) and operation.name in STATISTIC_TABLES.get(operation.model_name_lower, ())
                    and operation.name not in added):
                added.append(operation.name)
    return added


def migrated(sender, *, plan=None, using="default", verbosity=1, stdout=None, **kwargs) -> None:
    """After `migrate`: a statistic whose column this run added reads its default (0) for every stored game, so
    when there is a history the rebuild that fills it is queued (`ratings.standings.rebuild.rebuild_task`, run by
    the task worker, `manage.py db_worker`, while the site runs). Here rather than in a data migration of each
    statistic: nobody has to remember to write one, and the rebuild runs the registry's current code once the
    schema is whole, not historical models in the middle of the plan."""
    added = statistics_added(plan or [])
    if not added or not PlayerGame.objects.using(using).exists():
        return
    enqueue(rebuild_task)
    if verbosity and stdout is not None:
        stdout.write(f"  Queued the ratings' rebuild for the new statistics: {', '.join(added)} "
                     "(manage.py db_worker runs it; manage.py rebuild_ratings does it at once)\n")
