"""The outbox against a fake Bot API server: a 429 waits for its retry_after and arrives once, the bot down for a
minute loses nothing (the clock is simulated, nothing sleeps), a blocked account is unlinked and not retried, a
group's minute holds 20 messages, the reminder goes once, `manage.py tasks` lists what waits."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.tournaments.signups import services as signups
from notify import delivery, outbox, schedule
from notify.models import Outbox, TelegramLink
from notify.tests.conftest import CLUB_CHAT, link_chat, link_user, no_sleep

pytestmark = pytest.mark.django_db


def queue(n: int, chat_id: int = 5000) -> None:
    for i in range(n):
        outbox.put(f"test:{chat_id}:{i}", chat_id, {"text": f"message {i}"})


def test_a_429_is_retried_after_its_delay_and_arrives_once(cast, bot_api):
    bot_api.failures.append(("sendMessage", 429, {"ok": False, "error_code": 429,
                                                  "description": "Too Many Requests: retry after 7",
                                                  "parameters": {"retry_after": 7}}))
    queue(1)
    t0 = timezone.now()
    assert delivery.deliver_due(now=t0, sleep=no_sleep) == 0
    row = Outbox.objects.get()
    assert row.status == Outbox.Status.PENDING and row.next_try_at == t0 + dt.timedelta(seconds=7)
    assert delivery.deliver_due(now=t0 + dt.timedelta(seconds=6), sleep=no_sleep) == 0  # not before its delay
    assert len(bot_api.attempts) == 1
    assert delivery.deliver_due(now=t0 + dt.timedelta(seconds=7), sleep=no_sleep) == 1
    assert delivery.deliver_due(now=t0 + dt.timedelta(minutes=5), sleep=no_sleep) == 0
    assert [p["text"] for p in bot_api.sent(chat_id=5000)] == ["message 0"]
    assert [status for _m, _p, status in bot_api.attempts] == [429, 200]


def test_the_bot_down_for_a_minute_loses_nothing(cast, bot_api, settings):
    up = settings.TELEGRAM_API_BASE
    settings.TELEGRAM_API_BASE = "http://127.0.0.1:9"  # the discard port: nothing answers (connection refused)
    queue(3)
    queue(2, chat_id=CLUB_CHAT)
    t0 = timezone.now()
    for second in range(0, 61, 5):  # the worker keeps trying through the minute, the clock simulated
        assert delivery.deliver_due(now=t0 + dt.timedelta(seconds=second), sleep=no_sleep) == 0
    assert Outbox.objects.filter(status=Outbox.Status.PENDING).count() == 5
    assert all(row.attempts >= 2 and "network" in row.last_error for row in Outbox.objects.all())
    waiting = json.loads(_tasks_json())["stale_work"]
    assert sum(w["key"].startswith("message test:") for w in waiting) == 5
    settings.TELEGRAM_API_BASE = up
    assert delivery.deliver_due(now=t0 + dt.timedelta(minutes=10), sleep=no_sleep) == 5
    assert sorted(p["text"] for p in bot_api.sent()) == sorted([f"message {i}" for i in range(3)]
                                                               + [f"message {i}" for i in range(2)])
    assert delivery.deliver_due(now=t0 + dt.timedelta(minutes=20), sleep=no_sleep) == 0
    assert len(bot_api.sent()) == 5


def _tasks_json() -> str:
    from io import StringIO

    out = StringIO()
    call_command("tasks", "--format", "json", stdout=out)
    return out.getvalue()


def test_a_user_who_blocked_the_bot_is_unlinked_and_not_retried(cast, bot_api):
    link_user(cast.users[1], 5001)
    bot_api.blocked_chats.add(5001)
    queue(2, chat_id=5001)
    assert delivery.deliver_due(sleep=no_sleep) == 0
    assert TelegramLink.objects.get(user=cast.users[1]).chat_id is None
    assert set(Outbox.objects.values_list("status", flat=True)) == {Outbox.Status.DROPPED}
    assert len(bot_api.attempts) == 1  # the second message was dropped with the link, never tried
    assert outbox.telegram_chat(cast.users[1], "result") is None


def test_a_group_gets_at_most_twenty_messages_a_minute(cast, bot_api):
    queue(25, chat_id=CLUB_CHAT)
    t0 = timezone.now()
    assert delivery.deliver_due(now=t0, sleep=no_sleep) == 20
    assert delivery.deliver_due(now=t0 + dt.timedelta(seconds=30), sleep=no_sleep) == 0
    assert delivery.deliver_due(now=t0 + dt.timedelta(seconds=61), sleep=no_sleep) == 5
    assert len(bot_api.sent(chat_id=CLUB_CHAT)) == 25


def test_the_pause_keeps_under_thirty_messages_a_second(cast, bot_api):
    queue(3)
    pauses = []
    delivery.deliver_due(sleep=pauses.append)
    assert pauses == [delivery.PAUSE] * 3 and delivery.PAUSE >= 1 / 30


def test_the_reminder_goes_once_to_those_signed_up_hours_before(cast, bot_api, settings):
    settings.NOTIFY_REMIND_HOURS = 3
    link_chat(cast.club)
    for index in range(4):
        link_user(cast.users[index], 5000 + index)
        signups.sign_up(sheet=cast.sheet, by=cast.users[index])  # three places: the fourth waits
    outbox_before = Outbox.objects.count()
    now = timezone.now()
    assert schedule.remind_due(now) == 0  # the event is five hours away
    later = cast.sheet.starts_at - dt.timedelta(hours=2, minutes=30)
    assert schedule.run(later) == 1 + 3 + 3  # the announcement; three by Telegram, three letters (each has an e-mail)
    assert schedule.run(later + dt.timedelta(minutes=15)) == 0  # once
    delivery.deliver_due(now=later, sleep=no_sleep)
    for index in range(3):
        [reminder] = bot_api.sent(chat_id=5000 + index)
        assert reminder["text"].startswith("Напоминание: Вечер пятницы начинается")
    assert bot_api.sent(chat_id=5003) == []  # the waiting player is not reminded
    assert Outbox.objects.count() == outbox_before + 7


def test_a_switched_off_reminder_is_not_sent(cast, bot_api, client):
    link_user(cast.users[0], 5000)
    signups.sign_up(sheet=cast.sheet, by=cast.users[0])
    client.force_login(cast.users[0])
    client.post("/notices/", {"action": "save", "result_telegram": "on"})  # everything else off
    later = cast.sheet.starts_at - dt.timedelta(hours=1)
    assert schedule.run(later) == 0


def test_many_messages_queue_one_delivery_task_for_the_worker(cast, bot_api, settings,
                                                              django_capture_on_commit_callbacks):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    with django_capture_on_commit_callbacks(execute=True):
        queue(5)
    assert DBTaskResult.objects.filter(task_path="notify.outbox.deliver").count() == 1
    assert bot_api.attempts == []  # nothing sent until a worker runs it


def test_the_workers_sweep_sends_what_came_due(cast, bot_api, django_capture_on_commit_callbacks):
    Outbox.objects.create(key="test:due", chat_id=5000, payload={"text": "due"},
                          next_try_at=timezone.now() - dt.timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert schedule.heal() == 1
    assert [p["text"] for p in bot_api.sent()] == ["due"]
    assert schedule.heal() == 0 and schedule.waiting() == []
