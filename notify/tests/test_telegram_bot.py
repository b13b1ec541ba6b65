"""The club's bot against a fake Bot API server on loopback: the announcement with its buttons, a sign-up and a
cancellation by a button, the count edited, the waiting list moved up with the private message, the forged webhook,
another club's button, an unlinked account, the linking of an account and of the club's chat, polling."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.tournaments.signups import services as signups
from games.tournaments.signups.models import Signup, SignupSheet
from notify import delivery, schedule
from notify.models import Announcement, ClubChat, Outbox, SeenUpdate, TelegramLink
from notify.tests.conftest import CLUB_CHAT, link_chat, link_user, no_sleep

pytestmark = pytest.mark.django_db
_ids = iter(range(1, 10_000))


def webhook(client: Client, update: dict, secret: str | None = "webhook-secret"):
    headers = {"HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN": secret} if secret is not None else {}
    return client.post(reverse("notify:webhook"), json.dumps({"update_id": next(_ids), **update}),
                       content_type="application/json", **headers)


def press(client, button: dict, user_chat: int, chat: int = CLUB_CHAT, **kwargs):
    return webhook(client, {"callback_query": {"id": f"q{next(_ids)}", "from": {"id": user_chat},
                                               "message": {"message_id": 1, "chat": {"id": chat}},
                                               "data": button["callback_data"]}}, **kwargs)


def other_club_sheet():
    from club.tests.factories import ClubFactory
    from games.models import ClubEvening

    club = ClubFactory(name="Другой клуб")
    evening = ClubEvening.objects.create(club=club, date=timezone.localdate(), ruleset_id=ClubEvening.objects.first().ruleset_id)
    now = timezone.now()
    return SignupSheet.objects.create(club=club, evening=evening, starts_at=now + dt.timedelta(hours=5),
                                      opens_at=now - dt.timedelta(days=1), closes_at=now + dt.timedelta(hours=4))


def announced(cast, bot_api) -> dict:
    link_chat(cast.club)
    assert schedule.run() == 1  # the sheet opened before the chat was linked: the periodic pass announces it
    assert delivery.deliver_due(sleep=no_sleep) == 1
    [message] = bot_api.sent(chat_id=CLUB_CHAT)
    return message


def test_the_announcement_carries_the_event_the_count_and_two_buttons(cast, bot_api):
    message = announced(cast, bot_api)
    text = message["text"]
    assert "Вечер пятницы" in text and "Тверская, 7" in text and "Записано: 0 из 3" in text
    buttons = message["reply_markup"]["inline_keyboard"][0]
    assert [b["text"] for b in buttons] == ["Записаться", "Отменить"]
    assert Announcement.objects.get(sheet=cast.sheet).message_id == bot_api.next_message_id
    assert schedule.run() == 0  # announced once
    # no player's name ever goes to the chat
    assert not any(p.nickname in text for p in cast.players)


def test_sign_up_and_cancel_by_button_edit_the_count(cast, bot_api, client, django_capture_on_commit_callbacks):
    sign, cancel = announced(cast, bot_api)["reply_markup"]["inline_keyboard"][0]
    link_user(cast.users[0], 5000)
    with django_capture_on_commit_callbacks(execute=True):
        assert press(client, sign, 5000).json()["done"] == "signed up"
    assert Signup.objects.get(player=cast.players[0]).status == Signup.Status.CONFIRMED
    assert bot_api.sent("answerCallbackQuery")[-1]["text"] == "Вы записаны."
    edit = bot_api.sent("editMessageText")[-1]
    assert "Записано: 1 из 3" in edit["text"] and edit["message_id"] == bot_api.next_message_id
    with django_capture_on_commit_callbacks(execute=True):
        assert press(client, cancel, 5000).json()["done"] == "cancelled"
    assert Signup.objects.get(player=cast.players[0]).status == Signup.Status.CANCELLED
    assert "Записано: 0 из 3" in bot_api.sent("editMessageText")[-1]["text"]


def test_a_cancel_moves_the_waiting_list_up_and_tells_the_player_privately(cast, bot_api, client,
                                                                           django_capture_on_commit_callbacks):
    sign, cancel = announced(cast, bot_api)["reply_markup"]["inline_keyboard"][0]
    for index in range(4):
        link_user(cast.users[index], 5000 + index)
    with django_capture_on_commit_callbacks(execute=True):
        for index in range(4):
            press(client, sign, 5000 + index)
    assert Signup.objects.get(player=cast.players[3]).status == Signup.Status.WAITING
    assert bot_api.sent("answerCallbackQuery")[-1]["text"] == "Вы в листе ожидания."
    assert "Лист ожидания: 1" in bot_api.sent("editMessageText")[-1]["text"]
    with django_capture_on_commit_callbacks(execute=True):
        press(client, cancel, 5001)
    assert Signup.objects.get(player=cast.players[3]).status == Signup.Status.CONFIRMED
    [private] = bot_api.sent(chat_id=5003)
    assert "Место освободилось" in private["text"] and "Вечер пятницы" in private["text"]
    assert bot_api.sent(chat_id=5001) == []  # the one who cancelled hears only the button's answer


def test_a_forged_webhook_is_refused_and_changes_nothing(cast, bot_api, client):
    sign, _cancel = announced(cast, bot_api)["reply_markup"]["inline_keyboard"][0]
    link_user(cast.users[0], 5000)
    before = (Signup.objects.count(), Outbox.objects.count(), len(bot_api.attempts))
    assert press(client, sign, 5000, secret=None).status_code == 403
    assert press(client, sign, 5000, secret="guessed").status_code == 403
    assert (Signup.objects.count(), Outbox.objects.count(), len(bot_api.attempts)) == before
    assert not SeenUpdate.objects.exists()


def test_a_webhook_without_a_configured_secret_refuses_everything(cast, bot_api, client, settings):
    settings.TELEGRAM_WEBHOOK_SECRET = ""
    assert webhook(client, {"message": {"chat": {"id": 1, "type": "private"}, "text": "/start x"}},
                   secret="").status_code == 403


def test_a_button_of_another_clubs_event_or_from_an_unlinked_account_does_nothing(cast, bot_api, client):
    sign, _cancel = announced(cast, bot_api)["reply_markup"]["inline_keyboard"][0]
    other = other_club_sheet()
    link_chat(other.club, -2002)
    link_user(cast.users[0], 5000)
    # the button pressed in another club's chat, an account linked to no login, a forged button
    assert press(client, sign, 5000, chat=-2002).json()["done"] == "ignored"
    assert press(client, sign, 7777).json()["done"] == "ignored"
    assert press(client, {"callback_data": sign["callback_data"][:-2] + "xx"}, 5000).json()["done"] == "ignored"
    assert press(client, {"callback_data": f"s:{other.pk}"}, 5000).json()["done"] == "ignored"
    assert not Signup.objects.exists()


def test_the_same_update_twice_is_handled_once(cast, bot_api, client, django_capture_on_commit_callbacks):
    sign, _cancel = announced(cast, bot_api)["reply_markup"]["inline_keyboard"][0]
    link_user(cast.users[0], 5000)
    update = {"update_id": 424242, "callback_query": {"id": "q1", "from": {"id": 5000}, "data": sign["callback_data"],
                                                      "message": {"message_id": 1, "chat": {"id": CLUB_CHAT}}}}
    headers = {"HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN": "webhook-secret"}
    for expected in ("signed up", "seen"):
        answer = client.post(reverse("notify:webhook"), json.dumps(update), content_type="application/json", **headers)
        assert answer.json()["done"] == expected


def test_a_player_links_his_account_and_the_bot_answers_in_his_language(cast, bot_api, client):
    user = cast.users[0]
    client.force_login(user)
    client.post(reverse("notify:settings"), {"action": "telegram_link"})
    token = TelegramLink.objects.get(user=user).token
    page = client.get(reverse("notify:settings")).content.decode()
    assert f"https://t.me/mafclub_test_bot?start={token}" in page
    update = {"message": {"chat": {"id": 6000, "type": "private"}, "from": {"id": 6000, "language_code": "en"},
                          "text": f"/start {token}"}}
    assert webhook(client, update).json()["done"] == "account linked"
    link = TelegramLink.objects.get(user=user)
    assert (link.chat_id, link.language, link.token) == (6000, "en", "")
    assert bot_api.sent(chat_id=6000)[-1]["text"].startswith("Your account Игрок00 is linked")
    assert webhook(client, update).json()["done"] == "bad token"  # one-time
    stop = {"message": {"chat": {"id": 6000, "type": "private"}, "from": {"id": 6000, "language_code": "en"},
                        "text": "/stop"}}
    assert webhook(client, stop).json()["done"] == "account unlinked"  # unlinked from Telegram's side
    assert TelegramLink.objects.get(user=user).chat_id is None
    assert bot_api.sent(chat_id=6000)[-1]["text"].startswith("Your account is unlinked")
    assert "Your Telegram account is linked" not in page
    client.post(reverse("notify:settings"), {"action": "telegram_unlink"})
    assert TelegramLink.objects.get(user=user).chat_id is None


def test_the_admin_links_the_clubs_chat_by_the_one_time_code(cast, bot_api, client,
                                                              django_capture_on_commit_callbacks):
    client.force_login(cast.admin)
    client.post(reverse("notify:club_chat"), {"action": "code"})
    code = ClubChat.objects.get(club=cast.club).link_code
    assert code in client.get(reverse("notify:club_chat")).content.decode()
    client.force_login(cast.users[0])
    assert client.post(reverse("notify:club_chat"), {"action": "code"}).status_code == 403
    update = {"message": {"chat": {"id": -3003, "type": "supergroup", "title": "Полночь"}, "text": code}}
    with django_capture_on_commit_callbacks(execute=True):
        assert webhook(client, update).json()["done"] == "chat linked"
    chat = ClubChat.objects.get(club=cast.club)
    assert (chat.chat_id, chat.title, chat.link_code) == (-3003, "Полночь", "")
    said = [m["text"] for m in bot_api.sent(chat_id=-3003)]
    assert any("привязан к клубу Клуб «Тест»" in t for t in said)
    assert any(t.startswith("Запись: Вечер пятницы") for t in said)  # the open sign-up announced at once
    assert webhook(client, update).json()["done"] == "ignored"  # the code is spent


def test_set_chat_command_and_polling_once(cast, bot_api, capsys):
    call_command("telegram", "set-chat", "--club", cast.club.name, str(CLUB_CHAT))
    assert ClubChat.objects.get(club=cast.club).chat_id == CLUB_CHAT
    link = TelegramLink.objects.create(user=cast.users[1], token="tok-1")
    bot_api.updates = [{"update_id": 900, "message": {"chat": {"id": 6100, "type": "private"},
                                                      "from": {"id": 6100}, "text": "/start tok-1"}}]
    call_command("telegram", "poll", "--once")
    link.refresh_from_db()
    assert link.chat_id == 6100 and SeenUpdate.objects.filter(update_id=900).exists()
    call_command("telegram", "poll", "--once")
    assert [p.get("offset") for m, p in bot_api.calls if m == "getUpdates"] == [None, 901]


def test_the_organiser_closes_the_sign_up_and_the_announcement_loses_its_buttons(cast, bot_api, settings):
    announced(cast, bot_api)
    for index in range(3):
        signups.sign_up(sheet=cast.sheet, by=cast.users[index])
    delivery.deliver_due(now=timezone.now(), sleep=no_sleep)
    edit = bot_api.sent("editMessageText")[-1]
    assert "Записано: 3 из 3, свободных мест: 0" in edit["text"]
