"""In chromium against the live test server, with a fake Bot API server standing in for Telegram: the club admin
links the club's chat by its one-time code, a player links his account from his notices page, signs up from the
chat's button, plays, and gets his result in Telegram. What Telegram would send the site (the code in the group,
/start, the button's press) is posted to the webhook with the secret header, as Telegram does."""

from __future__ import annotations

import datetime as dt
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from django.utils import timezone
from playwright.sync_api import expect

from games.tests.judge_screen import PHONE, login
from games.tests.signup_fixtures import build_cast
from games.tournaments.signups import services as signups
from games.tournaments.signups.tests.test_signups_browser import _play_and_sign
from notify import delivery
from notify.tests.conftest import no_sleep

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
GROUP, PLAYER_CHAT = -1009, 4242


def telegram_sends(live_server, update_id: int, update: dict) -> dict:
    answer = requests.post(f"{live_server.url}/telegram/webhook/", json={"update_id": update_id, **update},
                           headers={"X-Telegram-Bot-Api-Secret-Token": "webhook-secret"}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_admin_links_the_chat_a_player_links_signs_up_from_the_chat_plays_and_gets_his_result(
        browser, live_server, bot_api):
    cast = build_cast(limit=20, players=10)
    admin = browser.new_context(base_url=live_server.url, locale="ru-RU").new_page()
    login(admin, "su-admin")
    admin.goto("/club/settings/")
    admin.get_by_test_id("club-telegram").click()
    admin.get_by_test_id("chat-code-make").click()
    code = admin.get_by_test_id("chat-code").inner_text()
    done = telegram_sends(live_server, 1, {"message": {"chat": {"id": GROUP, "type": "supergroup",
                                                                  "title": "Клуб «Тест»"}, "text": code}})
    assert done["done"] == "chat linked"
    admin.reload()
    expect(admin.get_by_test_id("chat-linked")).to_contain_text("Клуб «Тест»")
    [announcement] = [m for m in bot_api.sent(chat_id=GROUP) if "reply_markup" in m]  # the open sign-up, at once
    sign_up_button = announcement["reply_markup"]["inline_keyboard"][0][0]
    assert sign_up_button["text"] == "Записаться"

    player = browser.new_context(base_url=live_server.url, locale="ru-RU", viewport=PHONE).new_page()
    login(player, "su-player0")
    player.get_by_role("button", name="Меню").click()  # a phone: the menu is folded
    player.get_by_test_id("nav-notices").click()
    player.get_by_test_id("telegram-link-make").click()
    start = player.get_by_test_id("telegram-start").get_attribute("href")
    assert start.startswith("https://t.me/mafclub_test_bot?start=")
    token = parse_qs(urlsplit(start).query)["start"][0]
    done = telegram_sends(live_server, 2, {"message": {"chat": {"id": PLAYER_CHAT, "type": "private"},
                                                       "from": {"id": PLAYER_CHAT, "language_code": "ru"},
                                                       "text": f"/start {token}"}})
    assert done["done"] == "account linked"
    player.reload()
    expect(player.get_by_test_id("telegram-link")).to_contain_text("Ваш аккаунт Telegram привязан")

    done = telegram_sends(live_server, 3, {"callback_query": {
        "id": "press-1", "from": {"id": PLAYER_CHAT}, "data": sign_up_button["callback_data"],
        "message": {"message_id": announcement.get("message_id", 1), "chat": {"id": GROUP}}}})
    assert done["done"] == "signed up"
    assert bot_api.sent("answerCallbackQuery")[-1]["text"] == "Вы записаны."
    assert "Записано: 1 из 20" in bot_api.sent("editMessageText")[-1]["text"]
    player.goto(f"/games/signups/{cast.sheet.pk}/")
    expect(player.get_by_test_id("signup-mine")).to_contain_text("Вы записаны")

    for user in cast.users[1:10]:
        signups.sign_up(sheet=cast.sheet, by=user)
    [game] = signups.signups_to_tables(sheet=cast.sheet, by=cast.admin)
    _play_and_sign(game, cast.admin)
    delivery.deliver_due(now=timezone.now() + dt.timedelta(minutes=3), sleep=no_sleep)  # the worker, a bit later
    [result] = bot_api.sent(chat_id=PLAYER_CHAT)[-1:]
    assert result["text"].startswith("Результат игры Вечер пятницы — стол 1, игра 1: Победа красных.")
    assert "Ваши баллы:" in result["text"] and "Elo:" in result["text"]
    admin.context.close()
    player.context.close()
