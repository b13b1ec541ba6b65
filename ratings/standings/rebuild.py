"""The rebuild of the stored ratings while the site runs (`manage.py rebuild_ratings`, and the task a migration
that adds a statistic queues: `ratings.statistics.backfill`).

Three passes, each made of short parts in transactions of their own, each part taking the locks the site's own
writes take, in the site's order (`games.protocol.services.scoring.lock_scoring_scope`: the scoring scope, then
the games, then the rows of ratings):

1. the facts: each game's `PlayerGame` rows compared with what its protocol says now and rewritten where they
   differ (a statistic added since, a rule changed), a tournament's games (or a club's games outside
   tournaments) at a time, under the lock of their scoring scope — the lock the judge's screen, a protest
   decision and an import hold while they rescore. The part is `services.refresh`, the path every scoring takes,
   so each changed game's scopes are updated by difference as a scoring would update them;
2. the tables and histories: each scope recomputed from its facts (`services.recompute_scope`: one SQL
   aggregate), holding the scope's row as `services.update_scopes` does — a write that changed facts meanwhile
   waits for it, then applies its own difference to the rebuilt table;
3. each club's Elo, recomputed holding the club's row, as `ratings.elo.services.schedule` does.

A write between two parts finds consistent stored values (each part commits whole) and one that waits for a
part applies its change after it: nothing is lost, nothing counted twice. The parts of a pass may run in several
processes (`club.processes`, settings.REBUILD_WORKERS) on PostgreSQL, where each has its own connection and takes
its own row locks. Not on SQLite: there `club.processes` has the processes write their rows into files of their
own and copies them in at the end, which is what an offline rebuild wants (`services.recompute_all`) but not
one beside live writes — and SQLite runs one writer at a time anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from django.db import connection, transaction
from django_tasks import task

from club.db import site_lock
from club.models import Club
from club.processes import run_parts, usable_workers
from games.models import Game
from games.protocol.services.scoring import lock_scoring_scope
from ratings.elo import services as services_elo
from ratings.elo.services import ELO_LOCK
from ratings.models import PlayerGame, RatingScope
from ratings.standings import services

GAMES_PER_PART = 500  # games a part of the first pass holds its scoring scope's lock for

Progress = Callable[[str, int, int], None]  # (pass, parts done, parts in the pass)


@dataclass
class Summary:
    """What a rebuild did: the clubs, the games examined and those whose facts changed, the players with facts in
    those clubs, the scopes rebuilt."""

    clubs: int = 0
    games: int = 0
    games_changed: int = 0
    players: int = 0
    scopes: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def rebuild(club: Club | None = None, *, workers: int | None = None, progress: Progress | None = None) -> Summary:
    """Rebuild the stored ratings of `club` (every club if None) beside the site's writes (see the module)."""
    club_ids = [club.pk] if club is not None else list(Club.objects.order_by("pk").values_list("pk", flat=True))
    workers = usable_workers(workers) if connection.vendor == "postgresql" else 1
    summary = Summary(clubs=len(club_ids))

    facts = _fact_parts(club_ids)
    summary.games = sum(len(ids) for _, _, _, ids in facts)
    summary.games_changed = sum(_run("facts", facts, workers, progress))
    scopes = [("scope", pk) for pk in RatingScope.objects.filter(club_id__in=club_ids).order_by("pk")
              .values_list("pk", flat=True)]
    summary.scopes = sum(_run("scopes", scopes, workers, progress))
    _run("elo", [("elo", None)], workers, progress)  # the site's one Elo: every club's games, in order
    summary.players = PlayerGame.objects.filter(club_id__in=club_ids).values("player_id").distinct().count()
    return summary


def _fact_parts(club_ids: list[int]) -> list[tuple[str, int, int | None, list[int]]]:
    """("facts", club, tournament or None, game ids): a scoring scope's games, GAMES_PER_PART at a time."""
    by_scope: dict[tuple[int, int | None], list[int]] = {}
    for club_id, tournament_id, pk in (Game.objects.filter(club_id__in=club_ids).order_by("pk")
                                       .values_list("club_id", "tournament_id", "pk")):
        by_scope.setdefault((club_id, tournament_id), []).append(pk)
    return [("facts", club_id, tournament_id, ids[i:i + GAMES_PER_PART])
            for (club_id, tournament_id), ids in sorted(by_scope.items(), key=lambda item: item[1][0])
            for i in range(0, len(ids), GAMES_PER_PART)]


def _run(name: str, parts: list, workers: int, progress: Progress | None) -> list[int]:
    if progress is not None:
        progress(name, 0, len(parts))
    done = [0]

    def step(_result: int) -> None:
        done[0] += 1
        if progress is not None:
            progress(name, done[0], len(parts))

    return run_parts(_part, parts, workers, done=step)


def _part(part: tuple[Any, ...]) -> int:
    """One part in its own transaction, under the lock the site's writes of the same rows take. Returns the games
    whose facts changed ("facts"), the scopes rebuilt ("scope"), or 0 ("elo")."""
    kind = part[0]
    with transaction.atomic():
        if kind == "facts":
            _, club_id, tournament_id, ids = part
            lock_scoring_scope(tournament_id=tournament_id, club_id=None if tournament_id else club_id)
            return services.refresh(ids)
        if kind == "scope":
            scope = (RatingScope.objects.select_for_update(of=("self",))
                     .select_related("season", "tournament", "ruleset").filter(pk=part[1]).first())
            if scope is None:  # deleted meanwhile (a season removed)
                return 0
            services.recompute_scope(scope)
            return 1
        site_lock(ELO_LOCK)
        services_elo.recompute()
        return 0


@task()
def rebuild_task(club_id: int | None = None) -> dict[str, int]:
    """The worker's task: `rebuild` of one club (all if None), as `manage.py rebuild_ratings` runs it."""
    club = Club.objects.filter(pk=club_id).first() if club_id is not None else None
    if club_id is not None and club is None:
        return Summary().as_dict()
    return rebuild(club).as_dict()
