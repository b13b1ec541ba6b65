"""How the series follow games: a tournament's scores changed (games.signals.scores_changed, protest_settled), so
the series holding it get a new stamp in the change's transaction and the worker recomputes them after the commit
(leagues.tasks.recompute_series) — a result change reaches the series standings within one worker pass."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from club.task_queue import enqueue
from leagues.models import Series
from leagues.tasks import recompute_series


def bump(series_ids: list[int]) -> None:
    """The series' standings are stale: a new stamp now, the recompute queued after the commit."""
    if not series_ids:
        return
    Series.objects.filter(pk__in=series_ids).update(stamp=F("stamp") + 1)
    transaction.on_commit(lambda: enqueue(recompute_series, sorted(series_ids)))


def scores_changed(sender, *, tournament_ids, **kwargs) -> None:
    ids = list(Series.objects.filter(entries__tournament_id__in=[t for t in tournament_ids if t])
               .values_list("pk", flat=True).distinct())
    bump(ids)
