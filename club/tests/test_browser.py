"""The real pages in Debian's chromium: language switch, login, the live player filter."""

import pytest
from playwright.sync_api import expect

from club.models import Membership
from club.tests.factories import PASSWORD, ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(transactional_db):
    club = ClubFactory(name="Мафия-клуб «Полночь»", city="Москва")
    for nickname in ["Бендер", "Шерлок", "Ворон", "Лиса", "Воробей", "Сова"]:
        PlayerFactory(club=club, nickname=nickname)
    MembershipFactory(club=club, user=UserFactory(username="judge1"), role=Membership.Role.JUDGE)
    return club


def test_home_switch_language_log_in_and_search_a_player(demo, page):
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.get_by_role("heading", level=1)).to_have_text("Мафия-клуб «Полночь»")
    expect(page.get_by_role("link", name="Игроки").first).to_be_visible()

    page.get_by_role("button", name="EN").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("link", name="Players").first).to_be_visible()
    page.get_by_role("button", name="RU").click()
    expect(page.locator("html")).to_have_attribute("lang", "ru")

    page.get_by_role("link", name="Войти").first.click()
    page.get_by_label("Имя пользователя").fill("judge1")
    page.get_by_label("Пароль").fill(PASSWORD)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_test_id("nav-user")).to_have_text("judge1")

    page.get_by_role("navigation").get_by_role("link", name="Игроки").click()
    expect(page.get_by_test_id("player-row")).to_have_count(6)
    # Typing alone filters the list (htmx), without pressing the button.
    page.get_by_role("searchbox").press_sequentially("вор", delay=50)
    expect(page.get_by_test_id("player-row")).to_have_count(2)
    expect(page.get_by_test_id("player-row").first).to_contain_text("Вор")
    page.get_by_role("searchbox").fill("воро")
    page.get_by_role("searchbox").press_sequentially("н", delay=50)
    expect(page.get_by_test_id("player-row")).to_have_count(1)
    expect(page.get_by_test_id("player-row")).to_contain_text("Ворон")
    assert "q=" in page.url  # hx-push-url keeps the address shareable
    page.get_by_test_id("player-row").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ворон")


def test_the_navbar_collapses_on_a_phone(demo, page):
    page.set_viewport_size({"width": 375, "height": 700})
    page.goto("/")
    players_link = page.get_by_role("navigation").get_by_role("link", name="Игроки")
    expect(players_link).to_be_hidden()
    page.get_by_role("button", name="Меню").click()
    expect(players_link).to_be_visible()
