"""The periodic pass: announcements of sign-ups that opened since, reminders due, and the outbox's waiting rows.

There is no scheduler beside the task worker: every worker runs the site's sweep every few seconds
(`club.task_queue`, SWEEP_SECONDS), and this module is one of its healers — `heal` is the pass, `waiting` lists
the messages waiting to go (`manage.py tasks` shows them as stale work). A site without a running worker can run
the same pass from cron: `manage.py telegram remind`.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone

from club.task_queue import Stale
from games.tournaments.signups.models import SignupSheet
from notify import events, outbox
from notify.models import Announcement, Outbox

SHOWN = 50  # waiting messages listed by `manage.py tasks`


def announce_opened(now: dt.datetime) -> int:
    sheets = (SignupSheet.objects.filter(opens_at__lte=now, closes_at__gt=now, converted_at__isnull=True,
                                         club__telegram_chat__chat_id__isnull=False)
              .exclude(pk__in=Announcement.objects.values("sheet_id")).select_related("club"))
    return sum(events.announce(sheet, now) for sheet in sheets)


def remind_due(now: dt.datetime) -> int:
    ahead = now + dt.timedelta(hours=settings.NOTIFY_REMIND_HOURS)
    sheets = SignupSheet.objects.filter(starts_at__gt=now, starts_at__lte=ahead).select_related(
        "club", "evening", "tournament")
    return sum(events.remind(sheet) for sheet in sheets)


def run(now: dt.datetime | None = None) -> int:
    """One pass; returns how many messages it queued."""
    now = now or timezone.now()
    return announce_opened(now) + remind_due(now)


def heal() -> int:
    """The sweep's call: the pass (its messages kick the delivery themselves), then the delivery of rows whose
    retry time has come. Returns the delivery tasks queued for those (0 or 1)."""
    run()
    if Outbox.objects.filter(status=Outbox.Status.PENDING, next_try_at__lte=timezone.now()).exists():
        outbox.kick()
        return 1
    return 0


def waiting() -> list[Stale]:
    rows = Outbox.objects.filter(status=Outbox.Status.PENDING).order_by("next_try_at", "id")[:SHOWN]
    return [Stale(key=f"message {row.key}", since=row.created.isoformat(), task_id="",
                  why=f"waiting until {row.next_try_at.isoformat()}"
                      + (f" ({row.attempts} tries: {row.last_error})" if row.attempts else ""))
            for row in rows]
