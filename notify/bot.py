"""What the bot does with an update (from the webhook or from polling), each update once (`SeenUpdate`):

- `/start <token>` in a private chat links the login whose one-time token it is (the reply in the account's language),
  `/stop` unlinks it;
- a message in a group or channel holding a club's one-time code links that chat to the club;
- a button of an announcement signs the player up or cancels his place through the sign-up services (the same
  checks, limit and waiting list as on the site). The button's data is signed and its sheet looked up: a sheet of
  another club than the chat's, or a press by a Telegram account linked to no login, does nothing.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from club.services import ServiceError
from games.tournaments.signups import services as signups
from games.tournaments.signups.models import SignupSheet
from notify import render, schedule
from notify.delivery import unlink_chat
from notify.models import ClubChat, SeenUpdate, TelegramLink
from notify.telegram import client


def handle(update: dict) -> str:
    """Handle one update; returns what was done (for the logs and the tests)."""
    update_id = update.get("update_id")
    if not isinstance(update_id, int):
        return "ignored"
    try:
        with transaction.atomic():
            SeenUpdate.objects.create(update_id=update_id)
    except IntegrityError:
        return "seen"
    if "callback_query" in update:
        return _callback(update["callback_query"])
    message = update.get("message") or update.get("channel_post") or {}
    if message:
        return _message(message)
    return "ignored"


def _reply(chat_id: int, words: str) -> None:
    try:
        client.call("sendMessage", {"chat_id": chat_id, "text": words})
    except client.BotError:
        pass  # a reply is a courtesy; the link itself is made


def _message(message: dict) -> str:
    chat = message.get("chat") or {}
    words = str(message.get("text") or "").strip()
    if not words or not isinstance(chat.get("id"), int):
        return "ignored"
    if chat.get("type") == "private":
        command, _sep, token = words.partition(" ")
        language_code = (message.get("from") or {}).get("language_code")
        if command.split("@")[0] == "/start" and token:
            return link_account(chat["id"], token.strip(), language_code)
        if command.split("@")[0] == "/stop" and TelegramLink.objects.filter(chat_id=chat["id"]).exists():
            unlink_chat(chat["id"])  # unlinked from Telegram's side
            _reply(chat["id"], render.text("unlinked", render.language(language_code)))
            return "account unlinked"
        return "ignored"
    code = words.split()[-1]
    club_chat = ClubChat.objects.filter(link_code=code).exclude(link_code="").select_related("club").first()
    if club_chat is None:
        return "ignored"
    link_club_chat(club_chat, chat["id"], str(chat.get("title") or ""))
    _reply(chat["id"], render.text("chat_linked", render.language(None), club=club_chat.club.name))
    return "chat linked"


def link_club_chat(club_chat: ClubChat, chat_id: int, title: str = "") -> None:
    """Link the club's chat; the sign-ups open now are announced there at once."""
    club_chat.chat_id, club_chat.title, club_chat.link_code = chat_id, title[:200], ""
    club_chat.linked_at = timezone.now()
    club_chat.save()
    schedule.announce_opened(timezone.now())


def link_account(chat_id: int, token: str, language_code: str | None) -> str:
    lang = render.language(language_code)
    link = TelegramLink.objects.filter(token=token).exclude(token="").select_related("user").first()
    if link is None:
        _reply(chat_id, render.text("bad_link", lang))
        return "bad token"
    with transaction.atomic():
        TelegramLink.objects.filter(chat_id=chat_id).exclude(pk=link.pk).update(chat_id=None, linked_at=None)
        link.chat_id, link.language, link.token, link.linked_at = chat_id, lang, "", timezone.now()
        link.save()
    player = getattr(link.user, "player", None)
    _reply(chat_id, render.text("linked", lang, name=player.nickname if player else link.user.get_username()))
    return "account linked"


def _answer(query: dict, words: str) -> None:
    try:
        client.call("answerCallbackQuery", {"callback_query_id": query.get("id"), "text": words[:200],
                                            "show_alert": False})
    except client.BotError:
        pass


def _callback(query: dict) -> str:
    parsed = render.read_callback(str(query.get("data") or ""))
    chat_id = ((query.get("message") or {}).get("chat") or {}).get("id")
    sender = (query.get("from") or {}).get("id")
    if parsed is None or not isinstance(sender, int):
        return "ignored"
    action, sheet_id = parsed
    sheet = SignupSheet.objects.filter(pk=sheet_id, club__telegram_chat__chat_id=chat_id).first()
    link = TelegramLink.objects.filter(chat_id=sender).select_related("user").first()
    if sheet is None or link is None or not link.user.is_active:
        return "ignored"  # another club's event, or an account linked to no login: nothing done, nothing said
    with translation.override(render.language(link.language)):
        try:
            if action == "s":
                signup = signups.sign_up(sheet=sheet, by=link.user)
                words = _("You are signed up.") if signup.status == "confirmed" else _("You are on the waiting list.")
            else:
                signups.sign_up_cancel(sheet=sheet, by=link.user)
                words = _("Your place is given back.")
        except (ServiceError, PermissionDenied) as error:
            _answer(query, getattr(error, "message", None) or str(error))
            return "refused"
        _answer(query, words)
    return "signed up" if action == "s" else "cancelled"
