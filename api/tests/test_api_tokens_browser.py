"""A club admin on a 390×844 phone issues an API token for a bot, copies its key (shown once), the bot reads the
hidden rounds with it, and the admin revokes it: the key is refused from then on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from api.models import ApiToken
from club.tests.factories import PASSWORD
from games.models import Game
from games.tests.live_fixtures import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_an_admin_issues_a_token_on_a_phone_the_bot_reads_with_it_and_the_admin_revokes_it(page, browser, live_server):
    cast = make_cast()
    hidden = Game.objects.filter(tournament=cast.tournament, number=2).get()
    Game.objects.filter(pk=hidden.pk).update(results_hidden=True)
    page.set_viewport_size(PHONE)
    page.goto("/login/")
    page.get_by_label("Имя пользователя").fill("club_admin")
    page.get_by_label("Пароль").fill(PASSWORD)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_test_id("nav-user")).to_have_text("club_admin")
    page.get_by_role("button", name="Меню").click()
    page.get_by_test_id("nav-manage").click()
    page.get_by_role("link", name="API-токены").click()
    expect(page.get_by_role("heading", name="API-токены")).to_be_visible()
    page.get_by_label("Название").fill("Бот турнира")
    page.get_by_label("Владелец").select_option(label="judge")
    page.get_by_role("button", name="Выдать токен").click()
    key = page.get_by_test_id("token-key-value").inner_text().strip()
    assert key.startswith("mc_")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    token = ApiToken.objects.get()
    assert token.holder == cast.judge and token.key_hash != key

    api = f"{live_server.url}/api/v1/games/{hidden.pk}/"
    bot_context = browser.new_context()  # the bot: no cookies of the admin's session
    bot = bot_context.request
    assert bot.get(api).status == 404  # hidden rounds: not for the public
    assert bot.get(api, headers={"Authorization": f"Bearer {key}"}).status == 200

    page.goto("/staff/api-tokens/")
    expect(page.get_by_test_id("token-key")).to_have_count(0)  # shown once: not on the next visit
    row = page.get_by_test_id("token-row")
    expect(row).to_contain_text("Бот турнира")
    row.get_by_test_id("token-revoke").click()
    expect(page.get_by_test_id("token-row")).to_contain_text("отозван")
    assert bot.get(api, headers={"Authorization": f"Bearer {key}"}).status == 401
    bot_context.close()
