"""The notices' writes from the site's pages: a player's Telegram link and notice switches, his calendar secret,
the club chat's one-time code. Each checks who asks and runs in one transaction."""

from __future__ import annotations

import secrets

from django.core.exceptions import PermissionDenied
from django.db import transaction

from club import permissions
from notify.models import CalendarFeed, ClubChat, NoticeSetting, Outbox, TelegramLink
from notify.outbox import EMAIL, KINDS, TELEGRAM

CHANNELS = (TELEGRAM, EMAIL)


def _require_login(user) -> None:
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied


def telegram_start_token(*, user) -> TelegramLink:
    """A fresh one-time token for `t.me/<bot>?start=<token>` (the account stays linked until the bot sees it)."""
    _require_login(user)
    link, _created = TelegramLink.objects.get_or_create(user=user)
    link.token = secrets.token_urlsafe(24)
    link.save(update_fields=["token"])
    return link


def telegram_unlink(*, user) -> None:
    _require_login(user)
    with transaction.atomic():
        chats = [c for c in TelegramLink.objects.filter(user=user).values_list("chat_id", flat=True) if c is not None]
        TelegramLink.objects.filter(user=user).update(chat_id=None, token="", linked_at=None)
        Outbox.objects.filter(chat_id__in=chats, status=Outbox.Status.PENDING).update(
            status=Outbox.Status.DROPPED, last_error="unlinked by the player")


def notices_set(*, user, on: set[tuple[str, str]]) -> None:
    """Store which (kind, channel) notices the player takes: every one not in `on` is switched off."""
    _require_login(user)
    with transaction.atomic():
        NoticeSetting.objects.filter(user=user).delete()
        NoticeSetting.objects.bulk_create([NoticeSetting(user=user, kind=k, channel=c)
                                           for k in KINDS for c in CHANNELS if (k, c) not in on])


def notice_off(*, user, kind: str, channel: str) -> None:
    """The one-click unsubscribe of one kind (the letter's link names the login; no session needed)."""
    if kind in KINDS and channel in CHANNELS:
        NoticeSetting.objects.get_or_create(user=user, kind=kind, channel=channel)


def calendar_reset(*, user) -> CalendarFeed:
    """A new secret calendar address; the old one stops working."""
    _require_login(user)
    feed, created = CalendarFeed.objects.get_or_create(user=user)
    if not created:
        feed.secret = secrets.token_urlsafe(24)
        feed.save(update_fields=["secret"])
    return feed


def club_chat_code(*, club, by) -> ClubChat:
    """A new one-time code the admin sends the bot in the club's chat."""
    if not permissions.is_club_admin(by, club):
        raise PermissionDenied
    chat, _created = ClubChat.objects.get_or_create(club=club)
    chat.link_code = "mafclub-" + secrets.token_hex(6)
    chat.save(update_fields=["link_code"])
    return chat


def club_chat_unlink(*, club, by) -> None:
    if not permissions.is_club_admin(by, club):
        raise PermissionDenied
    ClubChat.objects.filter(club=club).update(chat_id=None, title="", link_code="", linked_at=None)
