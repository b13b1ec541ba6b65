"""Queueing messages: one `Outbox` row per event × recipient × kind (`key`), written in the transaction of the change
that caused it (so a change rolled back queues nothing), and the delivery task kicked when that transaction commits.

A row either carries its whole Bot API payload or names what to draw at send time (`payload["render"]`: the
announcement with the count as it is then, a player's result with his Elo change once it is computed).
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from club.task_queue import enqueue
from notify.models import NoticeSetting, Outbox, TelegramLink

TELEGRAM, EMAIL = "telegram", "email"
# the notices a player may switch off, per channel (the club chat's announcement is the club's, not his)
KINDS = ("moved_up", "reminder", "result", "protest", "mailing")


def wants(user, kind: str, channel: str) -> bool:
    return not NoticeSetting.objects.filter(user=user, kind=kind, channel=channel).exists()


def telegram_chat(user, kind: str) -> tuple[int, str] | None:
    """The user's linked Telegram account (its chat and language) when he takes this kind of notice there."""
    if user is None or not settings.TELEGRAM_BOT_TOKEN:
        return None
    link = TelegramLink.objects.filter(user=user, chat_id__isnull=False).values_list("chat_id", "language").first()
    if link is None or link[0] is None or not wants(user, kind, TELEGRAM):
        return None
    return link[0], link[1]


def put(key: str, chat_id: int, payload: dict, *, method: str = "sendMessage", channel: str = TELEGRAM,
        sheet_id: int | None = None, when: dt.datetime | None = None) -> bool:
    """Queue one message once: False when its key is already queued (or sent)."""
    if Outbox.objects.filter(key=key).exists():
        return False
    try:
        with transaction.atomic():
            Outbox.objects.create(key=key, chat_id=chat_id, payload=payload, method=method, channel=channel,
                                  sheet_id=sheet_id, next_try_at=when or timezone.now())
    except IntegrityError:  # queued meanwhile by another process
        return False
    kick()
    return True


def kick() -> None:
    """Run the delivery after the current transaction commits (at once outside one): one queued delivery task is
    enough, it sends every row due, so a mailing of a hundred rows queues one task, not a hundred."""
    transaction.on_commit(_kick_once, robust=True)


def _kick_once() -> None:
    if DBTaskResult.objects.ready().filter(task_path=deliver.module_path).exists():
        return
    enqueue(deliver)


@task()
def deliver() -> int:
    """The worker's task: send what is due (notify.delivery)."""
    from notify import delivery  # noqa: PLC0415 (delivery imports the renderers, which import this module)

    return delivery.deliver_due()
