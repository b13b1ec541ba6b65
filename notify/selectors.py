"""Reads for the notice pages: what the player's settings page shows, the club chat's state, the kinds' names."""

from __future__ import annotations

from urllib.parse import quote

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from notify.models import CalendarFeed, ClubChat, NoticeSetting, TelegramLink
from notify.outbox import EMAIL, KINDS, TELEGRAM
from notify.telegram import client

KIND_LABELS = {
    "moved_up": _("A place came free for me (moved up from the waiting list)"),
    "reminder": _("Reminders before an event I signed up for"),
    "result": _("My result after a game is signed"),
    "protest": _("Protests (filed for my review, decided on my game)"),
    "mailing": _("The organisers' messages"),
}
EMAIL_KINDS = ("reminder", "mailing")  # the other kinds' letters are the site's own (sign-ups, protests)


def kind_label(kind: str) -> str:
    return str(KIND_LABELS.get(kind, kind))


def start_link(link: TelegramLink | None) -> str:
    if link is None or not link.token:
        return ""
    username = client.bot_username()
    return f"https://t.me/{quote(username)}?start={quote(link.token)}" if username else ""


def settings_context(request, user) -> dict:
    off = set(NoticeSetting.objects.filter(user=user).values_list("kind", "channel"))
    link = TelegramLink.objects.filter(user=user).first()
    feed = CalendarFeed.objects.filter(user=user).first()
    rows = [{"kind": k, "label": KIND_LABELS[k],
             "telegram": (k, TELEGRAM) not in off,
             "email": (k, EMAIL) not in off if k in EMAIL_KINDS else None} for k in KINDS]
    return {"rows": rows, "link": link, "linked": bool(link and link.chat_id), "start_link": start_link(link),
            "bot_on": client.configured(), "has_email": bool(user.email),
            "calendar_url": request.build_absolute_uri(reverse("notify:my_calendar", args=[feed.secret]))
            if feed else ""}


def club_chat_context(club) -> dict:
    chat = ClubChat.objects.filter(club=club).first()
    username = client.bot_username()
    return {"club": club, "chat": chat, "linked": bool(chat and chat.chat_id), "bot_on": client.configured(),
            "bot_username": username, "code": chat.link_code if chat else "",
            "add_link": f"https://t.me/{quote(username)}?startgroup=1" if username else "",
            "site_url": settings.SITE_URL}
