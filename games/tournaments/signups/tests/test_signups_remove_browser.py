"""In the browser, «Убрать из списка» asks first: dismissed, nothing changes; accepted, the player is listed as
taken off by the organiser and his place goes to the first waiting player."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.tests.judge_screen import login
from games.tests.signup_fixtures import build_cast
from games.tournaments.signups import services
from games.tournaments.signups.models import Signup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_take_off_the_list_asks_in_the_browser_before_it_acts(page):
    cast = build_cast()
    for user in cast.users[:4]:
        services.sign_up(sheet=cast.sheet, by=user)
    login(page, cast.admin.username)
    page.goto(f"/games/signups/{cast.sheet.pk}/")
    questions: list[str] = []

    def dismiss(dialog):
        questions.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    confirmed = page.get_by_test_id("signup-confirmed")
    confirmed.get_by_role("button", name="Убрать из списка").first.click()
    expect(page.get_by_test_id("signup-removed")).to_have_count(0)
    assert questions == ["Убрать Игрок00 из списка?"]
    assert Signup.objects.get(player=cast.players[0]).status == Signup.Status.CONFIRMED

    page.once("dialog", lambda dialog: dialog.accept())
    confirmed.get_by_role("button", name="Убрать из списка").first.click()
    expect(page.get_by_test_id("signup-removed")).to_contain_text("Игрок00")
    expect(page.get_by_test_id("signup-cancelled")).not_to_contain_text("Игрок00")
    assert Signup.objects.get(player=cast.players[0]).status == Signup.Status.REMOVED
    assert Signup.objects.get(player=cast.players[3]).status == Signup.Status.CONFIRMED
