"""The workers' sweep for the ratings' announced work (`club.task_queue` calls it): every `PendingTail` whose task
is gone (`ratings.tasks.stale_reason`) gets a fresh task, a marker at most MAX_ATTEMPTS tasks in all — a task that keeps
killing its worker is left failed for the admin (`manage.py tasks`, the staff page) until the next change."""

from __future__ import annotations

from django.db import transaction

from club.task_queue import Healer, Stale
from ratings.elo import services as services_elo
from ratings.models import PendingTail
from ratings.standings import services
from ratings.tasks import requeue, stale_reason

MAX_ATTEMPTS = 3
TASKS = {"elo": services_elo.recompute_elo, "history": services.recompute_history}  # the key's prefix → its task


def stale() -> list[Stale]:
    found = []
    for marker in PendingTail.objects.order_by("key"):
        why = stale_reason(marker)
        if why:
            found.append(Stale(key=marker.key, since=f"{marker.since_date} #{marker.since_game}",
                               task_id=marker.task_id, why=why))
    return found


def heal() -> int:
    queued = 0
    for key in PendingTail.objects.filter(attempts__lt=MAX_ATTEMPTS).values_list("key", flat=True):
        with transaction.atomic():
            marker = PendingTail.objects.select_for_update().filter(key=key).first()
            if marker is None or marker.attempts >= MAX_ATTEMPTS or not stale_reason(marker):
                continue
            kind, _, target = key.partition(":")
            args = (int(target),) if target.isdigit() else ()  # "history:<scope id>"; the Elo's "elo:site" takes none
            requeue(TASKS[kind], marker, *args, attempts=marker.attempts + 1)
            queued += 1
    return queued


HEALER = Healer(stale=stale, heal=heal)
