"""Protests in Debian's chromium: a player files on a phone; the head judge rejects one protest and upholds another."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from club.tests.factories import PASSWORD
from games.models import Game, Protest, ScoreItem
from games.tests.protest_fixtures import protest_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def log_in(page, username: str) -> None:
    page.goto("/login/")
    page.get_by_label("Имя пользователя").fill(username)
    page.get_by_label("Пароль").fill(PASSWORD)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_test_id("nav-user")).to_have_text(username)


def file_protest(page, text: str, category: str) -> None:
    form = page.get_by_test_id("protest-form")
    form.locator("select[name=category]").select_option(category)
    form.locator("textarea[name=text]").fill(text)
    form.get_by_role("button").click()
    expect(page.get_by_test_id("protest").filter(has_text=text)).to_be_visible()


def test_a_player_files_on_a_phone_and_the_head_judge_rejects_one_and_upholds_another(transactional_db, browser,
                                                                                        live_server):
    cast = protest_cast(extra_games=False, ended_at=timezone.now() - dt.timedelta(minutes=2))
    game_url = f"/games/{cast.game.pk}/"

    player = browser.new_context(base_url=live_server.url, locale="ru-RU", viewport=PHONE)
    page = player.new_page()
    page.set_default_timeout(10_000)
    log_in(page, "participant")
    page.goto(game_url)
    expect(page.get_by_test_id("protest-form")).to_be_visible()
    file_protest(page, "Seat 8 peeked at night", "non_game_advantage")
    expect(page.get_by_test_id("under-protest")).to_be_visible()
    file_protest(page, "I was called to the vote twice", "disputed_decision")
    expect(page.get_by_test_id("protest")).to_have_count(2)
    # the protest section fits the phone: nothing of it sticks out to the right
    box = page.get_by_test_id("protests").bounding_box()
    assert box["width"] <= PHONE["width"]
    assert page.get_by_test_id("protest-form").bounding_box()["width"] <= PHONE["width"]
    player.close()

    peek, vote = (Protest.objects.get(text__startswith="Seat 8"), Protest.objects.get(text__startswith="I was"))
    judge = browser.new_context(base_url=live_server.url, locale="ru-RU")
    page = judge.new_page()
    page.set_default_timeout(10_000)
    log_in(page, "head_judge")
    page.goto("/games/protests/")
    expect(page.get_by_test_id("protest-review")).to_have_count(2)

    card = page.locator(f"#protest-{vote.pk}")
    card.locator("input[name=decision][value=reject]").check()
    card.locator("textarea[name=explanation]").fill("A disputed decision of the judge: rejected (App. l.518).")
    card.get_by_role("button", name="Записать решение").click()
    expect(page.locator(f"#protest-{vote.pk}").get_by_test_id("protest-status")).to_have_text("Отклонён")

    card = page.locator(f"#protest-{peek.pk}")
    card.locator("input[name=decision][value=uphold]").check()
    card.locator("textarea[name=explanation]").fill("Peeking proven on video: penalty post factum (App. l.550).")
    card.locator("input[name=sk_representative]").fill("Иванов")
    card.locator("input[name=penalty_seat]").fill("8")
    card.locator("input[name=penalty_points]").fill("-0.5")
    card.locator("input[name=penalty_clause]").fill("002 App. l.550")
    card.get_by_role("button", name="Записать решение").click()
    expect(page.locator(f"#protest-{peek.pk}").get_by_test_id("protest-status")).to_have_text("Удовлетворён")
    # the clause the head judge typed is shown in Russian words: «App. l.550» → «Прил. стр. 550»
    expect(page.locator(f"#protest-{peek.pk}").get_by_test_id("protest-outcomes")).to_contain_text(
        "место 8: -0,5 (002 Прил. стр. 550)")

    page.goto(game_url)
    expect(page.get_by_test_id("under-protest")).to_have_count(0)
    expect(page.get_by_test_id("score-items")).to_contain_text("002 App. l.550")
    judge.close()

    vote.refresh_from_db()
    peek.refresh_from_db()
    assert (vote.status, peek.status) == (Protest.Status.REJECTED, Protest.Status.UPHELD)
    assert peek.decided_by == cast.head_judge
    item = ScoreItem.objects.get(seat__game=cast.game, seat__number=8, source=ScoreItem.Source.PROTEST)
    assert item.points == Decimal("-0.5")
    assert Game.objects.get(pk=cast.game.pk).status == Game.Status.FINISHED
