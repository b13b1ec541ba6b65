"""A small synchronous Bot API client (plain HTTPS with `requests`).

Why not python-telegram-bot or aiogram: both are asyncio frameworks built around their own update loop, while the
site's views and its task worker (django-tasks' `db_worker`) are synchronous; the bot needs five methods
(sendMessage, editMessageText, answerCallbackQuery, getUpdates, getMe), each one JSON POST. healthchecks calls the
Bot API the same way from its notification code. The errors the delivery acts on are told apart here:

- `Retry`: a network error, a 5xx, or a 429 (with Telegram's `parameters.retry_after` in seconds) — try again later;
- `Blocked`: 403 (the user blocked the bot, or the bot was removed from the chat) — unlink, never retry;
- `Refused`: any other 4xx (a message that cannot be sent as it is) — drop it.

`TELEGRAM_API_BASE` names the server (Telegram's own by default; the tests start a fake one on loopback).
"""

from __future__ import annotations

from typing import Any

import requests
from django.conf import settings

TIMEOUT = 10  # seconds for one call; getUpdates adds its long-poll time


class BotError(Exception):
    def __init__(self, message: str, *, retry_after: float = 0.0):
        super().__init__(message)
        self.retry_after = retry_after


class Retry(BotError):
    """Try again later (network error, 5xx, 429 with retry_after)."""


class Blocked(BotError):
    """403: the user blocked the bot, or the bot is not in the chat."""


class Refused(BotError):
    """Another 4xx: the request itself is wrong; sending it again would not help."""


def configured() -> bool:
    return bool(settings.TELEGRAM_BOT_TOKEN)


def call(method: str, payload: dict[str, Any] | None = None, *, timeout: float = TIMEOUT) -> Any:
    """POST one Bot API method; the `result` on success, else one of the errors above."""
    url = f"{settings.TELEGRAM_API_BASE.rstrip('/')}/bot{settings.TELEGRAM_BOT_TOKEN}/{method}"
    try:
        response = requests.post(url, json=payload or {}, timeout=timeout)
    except requests.RequestException as error:
        raise Retry(f"network: {type(error).__name__}") from error
    try:
        body = response.json()
    except ValueError:
        body = {}
    if response.status_code == 200 and body.get("ok"):
        return body.get("result")
    description = str(body.get("description") or response.reason or "")[:200]
    if response.status_code == 429:
        after = float((body.get("parameters") or {}).get("retry_after") or 1)
        raise Retry(f"429 {description}", retry_after=after)
    if response.status_code >= 500:
        raise Retry(f"{response.status_code} {description}")
    if response.status_code == 403:
        raise Blocked(f"403 {description}")
    raise Refused(f"{response.status_code} {description}")


def bot_username() -> str:
    """The bot's @username for t.me links: TELEGRAM_BOT_USERNAME, else asked of the Bot API once per process."""
    if settings.TELEGRAM_BOT_USERNAME:
        return settings.TELEGRAM_BOT_USERNAME
    if not configured():
        return ""
    if "_username" not in _cache:
        try:
            _cache["_username"] = str(call("getMe").get("username") or "")
        except BotError:
            return ""
    return _cache["_username"]


_cache: dict[str, str] = {}
