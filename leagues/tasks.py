"""The series' recompute on the task worker (django-tasks, as ratings.tasks): the standings of the series' current
stamp stored in SeriesResult, which the pages read at once."""

from __future__ import annotations

from django.db import transaction
from django_tasks import task

from leagues import selectors
from leagues.models import Series, SeriesResult


@task()
def recompute_series(series_ids: list[int]) -> int:
    """Store each series' standings for its current stamp; a series changed meanwhile is queued again by that
    change, so storing under the stamp read here is never wrong. Returns the number stored."""
    done = 0
    for series in Series.objects.filter(pk__in=series_ids).select_related("league", "gaining__table"):
        data = selectors.compute_standings(series)
        with transaction.atomic():
            current = Series.objects.select_for_update().filter(pk=series.pk).values_list("stamp", flat=True).first()
            if current != series.stamp:
                continue  # changed while computing: the change queued its own pass
            SeriesResult.objects.update_or_create(series=series, defaults={"stamp": series.stamp, "data": data})
            done += 1
    return done
