"""A new club's first minutes in chromium, from an empty database: the home page, /setup/, the next steps, the
club's settings, the new look on the home page.

The admin's clicks (a laptop, 1280 wide), counted by the `click` helper below: the home page's call to action 1,
the «Создать клуб» button 1, «Вид и настройки клуба» on the next steps 1, «Сохранить» 1, the club's name in the header
1 — 5 clicks, and 8 typed fields (login, e-mail, the password twice, name, city; then the new name and colour)."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from club.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "Полночь-2026-лиса"


def test_an_empty_site_is_set_up_and_restyled_from_the_browser(page):
    clicks = []

    def click(locator):
        clicks.append(locator)
        locator.click()

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/")
    click(page.get_by_role("link", name="Создать клуб и его администратора"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Создать клуб")
    page.locator("#id_username").fill("olga")
    page.locator("#id_email").fill("olga@example.org")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("#id_name").fill("Полночь")
    page.locator("#id_city").fill("Казань")
    click(page.get_by_role("button", name="Создать клуб"))

    expect(page.get_by_role("heading", level=1)).to_have_text("Что дальше")
    expect(page.get_by_test_id("nav-user")).to_have_text("olga")
    steps = page.get_by_test_id("next-steps")
    for words in ("Вид и настройки клуба", "Роли в клубе", "Игроки", "Первый клубный вечер",
                  "Перенести историю клуба"):
        expect(steps.get_by_role("link", name=words)).to_be_visible()
    click(steps.get_by_role("link", name="Вид и настройки клуба"))

    expect(page.get_by_role("heading", level=1)).to_have_text("Настройки клуба")
    page.locator("#id_name").fill("Полночь Казань")
    page.locator("#id_accent_color").fill("#2e7d32")
    click(page.get_by_role("button", name="Сохранить"))
    expect(page.get_by_role("alert")).to_contain_text("Настройки клуба сохранены")

    click(page.locator(".navbar-brand"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Полночь Казань")
    expect(page.locator("body")).to_have_attribute("style", "--club-accent: #2e7d32")
    assert len(clicks) == 5
    club = Club.objects.get()
    assert (club.name, club.city, club.accent_color) == ("Полночь Казань", "Казань", "#2e7d32")
    assert get_user_model().objects.get().is_superuser
