"""`manage.py telegram`: the club's bot from the command line.

    telegram set-chat --club NAME CHAT_ID   link the club's chat without the one-time code
    telegram poll [--once]                  read the bot's updates by long polling (a site without a public address)
    telegram remind                         one periodic pass (announcements, reminders) and the outbox sent
    telegram set-webhook URL                tell Telegram the webhook's address and secret
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from notify import bot, delivery, schedule
from notify.models import ClubChat, SeenUpdate
from notify.telegram import client

POLL_SECONDS = 25


class Command(BaseCommand):
    help = "The club's Telegram bot: link the club's chat, poll for updates, run the reminders, set the webhook."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        chat = sub.add_parser("set-chat", help="link the club's chat by its id")
        chat.add_argument("--club", required=True)
        chat.add_argument("chat_id", type=int)
        poll = sub.add_parser("poll", help="read updates by long polling")
        poll.add_argument("--once", action="store_true", help="one batch of updates, then exit")
        sub.add_parser("remind", help="one periodic pass: announcements, reminders, the outbox")
        hook = sub.add_parser("set-webhook", help="register the webhook URL with its secret")
        hook.add_argument("url")

    def handle(self, *args, **options):
        action = options["action"]
        if action == "set-chat":
            return self.set_chat(options["club"], options["chat_id"])
        if action == "remind":
            queued = schedule.run()
            sent = delivery.deliver_due()
            self.stdout.write(f"queued {queued}, sent {sent}")
            return None
        if not client.configured():
            raise CommandError("TELEGRAM_BOT_TOKEN is not set")
        if action == "set-webhook":
            client.call("setWebhook", {"url": options["url"], "secret_token": settings.TELEGRAM_WEBHOOK_SECRET,
                                       "allowed_updates": ["message", "channel_post", "callback_query"]})
            self.stdout.write("webhook set")
            return None
        return self.poll(once=options["once"])

    def set_chat(self, name: str, chat_id: int) -> None:
        club = Club.objects.filter(name=name).first()
        if club is None:
            raise CommandError(f"--club: no club named {name!r}")
        chat, _created = ClubChat.objects.get_or_create(club=club)
        bot.link_club_chat(chat, chat_id)
        self.stdout.write(f"{club.name}: chat {chat_id} linked")

    def poll(self, *, once: bool) -> None:
        last = SeenUpdate.objects.order_by("-update_id").values_list("update_id", flat=True).first()
        offset = last + 1 if last is not None else None
        while True:
            try:
                updates = client.call("getUpdates", {"offset": offset, "timeout": 0 if once else POLL_SECONDS},
                                      timeout=client.TIMEOUT + POLL_SECONDS)
            except client.BotError as error:
                if once:
                    raise CommandError(str(error)) from error
                time.sleep(max(error.retry_after, 5))
                continue
            for update in updates or []:
                self.stdout.write(f"update {update.get('update_id')}: {bot.handle(update)}")
                offset = int(update["update_id"]) + 1
            if once:
                return
