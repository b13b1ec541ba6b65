"""Sending the outbox: each due row claimed (pending → sending) before its call, so it goes out at most once.

- a network error, a 5xx or a 429: the row waits again — a 429 for Telegram's `retry_after`, else 2, 4, 8 … up to
  MAX_BACKOFF seconds — and is never lost: it stays in the table until it goes (`manage.py tasks` lists it);
- 403 (the user blocked the bot, or the bot left the chat): the account or the chat is unlinked and its waiting
  messages dropped, never retried for ever;
- another 4xx: the row fails with Telegram's description (an edit that changes nothing counts as sent).

Telegram's limits: about 30 messages a second overall (a pause of 1/30 s between calls) and 20 a minute to one
group (a group's row waits until its minute has room).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import Q
from django.utils import timezone

from notify import render
from notify.models import Announcement, ClubChat, Outbox, TelegramLink
from notify.outbox import EMAIL, kick
from notify.telegram import client

BATCH = 200
MAX_BACKOFF = 300  # seconds
GROUP_PER_MINUTE = 20
PAUSE = 1 / 30  # seconds between two calls: about 30 a second


def deliver_due(now: dt.datetime | None = None, sleep: Callable[[float], None] = time.sleep) -> int:
    """Send every row due at `now`; returns how many went out."""
    now = now or timezone.now()
    sent = 0
    due = Outbox.objects.filter(status=Outbox.Status.PENDING, next_try_at__lte=now).order_by("next_try_at", "id")
    batch = list(due.values_list("id", flat=True)[:BATCH])
    if len(batch) == BATCH:
        kick()  # more than one batch waits: another task takes the rest
    for row_id in batch:
        if not Outbox.objects.filter(pk=row_id, status=Outbox.Status.PENDING).update(status=Outbox.Status.SENDING):
            continue  # another worker took it
        row = Outbox.objects.get(pk=row_id)
        if row.channel == EMAIL:
            sent += _send_mail(row, now)
            continue
        if not client.configured():
            _wait(row, now + dt.timedelta(seconds=MAX_BACKOFF), "no TELEGRAM_BOT_TOKEN", count=False)
            continue
        sent += _send_telegram(row, now)
        sleep(PAUSE)
    return sent


def _wait(row: Outbox, until: dt.datetime, why: str, *, count: bool = True) -> None:
    row.status = Outbox.Status.PENDING
    row.next_try_at = until
    row.last_error = why[:300]
    row.attempts += 1 if count else 0
    row.save(update_fields=["status", "next_try_at", "last_error", "attempts"])


def _finish(row: Outbox, status: str, now: dt.datetime, why: str = "") -> None:
    row.status = status
    row.last_error = why[:300]
    row.sent_at = now if status == Outbox.Status.SENT else None
    row.save(update_fields=["status", "last_error", "sent_at"])


def _group_full_until(row: Outbox, now: dt.datetime) -> dt.datetime | None:
    """A group's minute already holds GROUP_PER_MINUTE messages: when the oldest of them leaves it."""
    if row.chat_id >= 0:  # a private chat
        return None
    minute = Outbox.objects.filter(chat_id=row.chat_id, status=Outbox.Status.SENT,
                                   sent_at__gt=now - dt.timedelta(minutes=1)).order_by("sent_at")
    times = [t for t in minute.values_list("sent_at", flat=True)[:GROUP_PER_MINUTE] if t is not None]
    return times[0] + dt.timedelta(minutes=1) if len(times) >= GROUP_PER_MINUTE else None


def _send_telegram(row: Outbox, now: dt.datetime) -> int:
    full_until = _group_full_until(row, now)
    if full_until is not None:
        _wait(row, full_until, "20 a minute to a group", count=False)
        return 0
    drawn = render.payload(row, now)
    if drawn is None:  # nothing to say any more (the sign-up or the chat is gone)
        _finish(row, Outbox.Status.DROPPED, now)
        return 0
    if isinstance(drawn, str):  # render.LATER
        _wait(row, now + dt.timedelta(seconds=10), "waiting for its data", count=False)
        return 0
    try:
        result = client.call(row.method, drawn)
    except client.Retry as error:
        delay = error.retry_after or min(2 ** (row.attempts + 1), MAX_BACKOFF)  # Telegram's own delay first
        _wait(row, now + dt.timedelta(seconds=delay), str(error))
        return 0
    except client.Blocked as error:
        _finish(row, Outbox.Status.DROPPED, now, str(error))
        unlink_chat(row.chat_id)
        return 0
    except client.Refused as error:
        if "not modified" in str(error):  # an edit to the text the message already has
            _finish(row, Outbox.Status.SENT, now)
            return 1
        _finish(row, Outbox.Status.FAILED, now, str(error))
        return 0
    _finish(row, Outbox.Status.SENT, now)
    if row.sheet_id and row.method == "sendMessage" and isinstance(result, dict):
        Announcement.objects.filter(sheet_id=row.sheet_id).update(message_id=result.get("message_id"))
    return 1


def unlink_chat(chat_id: int) -> None:
    """The bot may no longer write to this chat: unlink the account or the club's chat and drop what waits for it."""
    TelegramLink.objects.filter(chat_id=chat_id).update(chat_id=None, linked_at=None)
    ClubChat.objects.filter(chat_id=chat_id).update(chat_id=None, linked_at=None)
    Outbox.objects.filter(Q(chat_id=chat_id), status=Outbox.Status.PENDING).update(
        status=Outbox.Status.DROPPED, last_error="unlinked: the bot was blocked")


def _send_mail(row: Outbox, now: dt.datetime) -> int:
    data = row.payload
    message = EmailMessage(data["subject"], data["body"], settings.DEFAULT_FROM_EMAIL, [data["to"]],
                           headers=data.get("headers") or {})
    try:
        message.send()
    except OSError as error:  # the mail server down: wait and try again
        _wait(row, now + dt.timedelta(seconds=min(2 ** (row.attempts + 1), MAX_BACKOFF)), str(error))
        return 0
    _finish(row, Outbox.Status.SENT, now)
    return 1
