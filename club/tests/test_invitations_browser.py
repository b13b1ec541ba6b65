"""In the browser: the club's admin invites a judge with a one-time link; the judge opens it in another browser,
registers there and has the judge's role — the judge's screen is his to open."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from club.models import Membership
from club.tests.factories import PASSWORD, ClubFactory, MembershipFactory, UserFactory
from games.models import ClubEvening, RuleSetVersion

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_admin_invites_a_judge_by_link_and_the_judge_registers_and_judges(page, browser, live_server):
    club = ClubFactory(name="Мафия-клуб «Полночь»")
    MembershipFactory(club=club, user=UserFactory(username="boss"), role=Membership.Role.ADMIN)
    evening = ClubEvening.objects.create(club=club, date=timezone.localdate(), name="Вечер пятницы",
                                         ruleset=RuleSetVersion.objects.filter(is_preset=True).first())

    page.goto("/login/?next=/staff/")
    page.get_by_label("Имя пользователя").fill("boss")
    page.get_by_label("Пароль").fill(PASSWORD)
    page.get_by_role("button", name="Войти").click()
    invite = page.get_by_test_id("staff-invite")
    expect(invite.get_by_label("Пригласить как")).to_have_value("judge")  # the least power by default
    invite.get_by_role("button", name="Создать ссылку для копирования").click()
    link = page.get_by_test_id("invitation-link")
    expect(link).to_have_count(1)
    url = link.input_value()
    assert url.startswith(live_server.url + "/staff/join/")

    judge_context = browser.new_context(base_url=live_server.url, locale="ru-RU")
    try:
        judge = judge_context.new_page()
        judge.set_default_timeout(10_000)
        judge.goto(url)
        expect(judge.get_by_test_id("invitation-offer")).to_contain_text("Мафия-клуб «Полночь»")
        form = judge.get_by_test_id("invitation-register")
        form.get_by_label("Имя пользователя").fill("olga")
        form.get_by_label("Электронная почта (необязательно)").fill("olga@example.org")
        form.locator("#id_password1").fill("kolokol-zvonit-42")
        form.locator("#id_password2").fill("kolokol-zvonit-42")
        form.get_by_role("button", name="Зарегистрироваться и принять").click()
        expect(judge.get_by_test_id("nav-user")).to_have_text("olga")
        expect(judge.get_by_text("теперь ваша роль — судья")).to_be_visible()
        judge.goto(f"/games/evenings/{evening.pk}/")
        expect(judge.get_by_test_id("start-game")).to_be_visible()  # the judge's screen entry
        judge.goto(url)  # the link is spent
        expect(judge.get_by_test_id("invitation-gone")).to_have_text("Это приглашение уже использовано.")
    finally:
        judge_context.close()
    assert Membership.objects.filter(club=club, user__username="olga", role=Membership.Role.JUDGE).exists()

    page.reload()
    expect(page.get_by_test_id("staff-judge").get_by_test_id("staff-name")).to_have_text("olga")
    expect(page.get_by_test_id("invitation-link")).to_have_count(0)
