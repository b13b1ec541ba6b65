"""Where the club's messages go: the club's Telegram chat, the players' Telegram accounts, the outbox of messages
(one row per event × recipient × kind: nothing is sent twice), the players' notice settings and calendar secrets.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_secret() -> str:
    return secrets.token_urlsafe(24)


class ClubChat(models.Model):
    """The club's Telegram channel or group (one per club), linked by a one-time code the admin sends the bot."""

    club = models.OneToOneField("club.Club", on_delete=models.CASCADE, related_name="telegram_chat",
                                verbose_name=_("club"))
    chat_id = models.BigIntegerField(_("chat"), null=True, blank=True)
    title = models.CharField(_("chat title"), max_length=200, blank=True)
    link_code = models.CharField(max_length=64, blank=True)  # the one-time code shown on the settings page
    linked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("club chat")
        verbose_name_plural = _("club chats")

    def __str__(self) -> str:
        return self.title or str(self.chat_id or "")


class TelegramLink(models.Model):
    """A login's Telegram account (private chat). `token` is the one-time start token until the bot sees it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="telegram",
                                verbose_name=_("login"))
    chat_id = models.BigIntegerField(null=True, blank=True, unique=True)
    language = models.CharField(max_length=10, blank=True)  # Telegram's language_code of the account
    token = models.CharField(max_length=64, blank=True, db_index=True)
    linked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("Telegram account")
        verbose_name_plural = _("Telegram accounts")

    def __str__(self) -> str:
        return str(self.chat_id or "")


class Outbox(models.Model):
    """One message to send (or one edit of the announcement). `key` is unique: the event × recipient × kind, so a
    hook that runs twice queues nothing new. Delivery claims a row before the call, so it goes out at most once."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        DROPPED = "dropped", _("dropped")

    key = models.CharField(max_length=200, unique=True)
    channel = models.CharField(max_length=10, default="telegram")
    method = models.CharField(max_length=40, default="sendMessage")
    chat_id = models.BigIntegerField()
    payload = models.JSONField(default=dict)
    sheet = models.ForeignKey("games.SignupSheet", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="+")  # an announcement: its message id is kept on the Announcement
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    next_try_at = models.DateTimeField(db_index=True)
    last_error = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("outgoing message")
        verbose_name_plural = _("outgoing messages")
        ordering = ["next_try_at", "id"]

    def __str__(self) -> str:
        return self.key


class Announcement(models.Model):
    """The club chat's message announcing a sign-up sheet (edited as the count changes)."""

    sheet = models.OneToOneField("games.SignupSheet", on_delete=models.CASCADE, related_name="announcement")
    chat_id = models.BigIntegerField()
    message_id = models.BigIntegerField(null=True, blank=True)
    edits = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.sheet_id}: {self.message_id}"


class NoticeSetting(models.Model):
    """A notice a player switched off (a row means off): per kind and channel. Nothing stored: all on."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_settings")
    kind = models.CharField(max_length=20)
    channel = models.CharField(max_length=10)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind", "channel"], name="notice_setting_once")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.kind}/{self.channel} off"


class CalendarFeed(models.Model):
    """A login's secret calendar address (his own sign-ups); reset gives a new one and the old stops working."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed")
    secret = models.CharField(max_length=64, unique=True, default=new_secret)

    def __str__(self) -> str:
        return str(self.user_id)


class SeenUpdate(models.Model):
    """A Bot API update already handled (Telegram may send one again): each is acted on once."""

    update_id = models.BigIntegerField(unique=True)
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return str(self.update_id)
