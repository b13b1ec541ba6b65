"""On a 390×844 phone, the whole evening: two players sign up for tonight's club evening from the home page, a
third waits and moves up when one of them cancels (the letter in mail.outbox), the organiser turns the list into
two tables in one tap, a game at table 1 is played and signed through the judge's endpoints, and the home page's
latest results show it named with its evening and coloured by result."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from playwright.sync_api import expect

from games.models import Game, Seat
from games.tests.judge_screen import PHONE, login
from games.tests.live_fixtures import ROLES, act
from games.tests.signup_fixtures import build_cast
from games.tournaments.signups import services
from games.tournaments.signups.models import Signup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="ru-RU", viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def _tap_sign_up(browser, live_server, username: str, expected: str):
    context, page = _phone(browser, live_server)
    login(page, username)
    page.goto("/")
    events = page.get_by_test_id("home-events")
    # on a phone the next event comes first: above the games and the ratings
    assert events.bounding_box()["y"] < page.get_by_test_id("home-top").bounding_box()["y"]
    card = events.get_by_test_id("signup-card").first
    expect(card).to_contain_text("Вечер пятницы")
    card.get_by_test_id("signup-join").click()
    expect(events.get_by_test_id("signup-mine").first).to_contain_text(expected)
    return context, page


def _play_and_sign(game: Game, by) -> None:
    """A whole game through the judge's POST endpoints (the same sequence as the live-entry test)."""
    for number, role in ROLES.items():
        Seat.objects.filter(game=game, number=number).update(role=role)
    client = Client()
    client.force_login(by)
    steps = [("start", {}), ("speech", {}), ("nominate", {"by": 1, "nominee": 5}),
             ("nominate", {"by": 2, "nominee": 4}), ("votes", {"v5": 7}), ("night", {}), ("kill", {"seat": 1}),
             ("sheriff_check", {"seat": 9}), ("best_move", {"seats": "2, 5, 9"}), ("day", {}),
             ("nominate", {"by": 3, "nominee": 9}), ("nominate", {"by": 4, "nominee": 2}), ("votes", {"v9": 6}),
             ("night", {}), ("kill", {"seat": ""}), ("day", {}), ("nominate", {"by": 3, "nominee": 2}),
             ("night", {}), ("result", {"result": "red"}), ("sign", {})]
    for kind, payload in steps:
        response = act(client, game, kind, **payload)
        assert response.status_code == 200, (kind, response.content.decode()[:500])
    assert Game.objects.get(pk=game.pk).status == Game.Status.SIGNED


def test_players_sign_up_from_the_phone_the_organiser_makes_two_tables_and_the_result_reaches_the_home_page(
        browser, live_server):
    cast = build_cast(limit=20, players=21)
    for user in cast.users[2:20]:
        services.sign_up(sheet=cast.sheet, by=user)  # 18 taken, 2 places left
    first, _page = _tap_sign_up(browser, live_server, "su-player0", "Вы записаны")
    second, second_page = _tap_sign_up(browser, live_server, "su-player1", "Вы записаны")
    waiting, _page = _tap_sign_up(browser, live_server, "su-player20", "1-й в листе ожидания")
    assert Signup.objects.filter(sheet=cast.sheet, status="confirmed").count() == 20

    mail.outbox.clear()
    second_page.goto("/")
    second_page.get_by_test_id("signup-leave").first.click()
    expect(second_page.get_by_test_id("signup-join").first).to_be_visible()
    assert Signup.objects.get(player=cast.players[20]).status == "confirmed"
    assert [m.to for m in mail.outbox] == [["player20@example.org"]]
    assert "Место освободилось" in mail.outbox[0].subject
    for context in (first, second, waiting):
        context.close()

    organiser, page = _phone(browser, live_server)
    login(page, "su-admin")
    page.goto(f"/games/signups/{cast.sheet.pk}/")
    expect(page.get_by_test_id("signup-confirmed").locator("li")).to_have_count(20)
    expect(page.get_by_test_id("signup-cancelled")).to_contain_text("Игрок01")
    page.get_by_test_id("signup-convert").click()
    page.wait_for_url(f"**/games/evenings/{cast.evening.pk}/")
    games = list(Game.objects.filter(evening=cast.evening).order_by("table"))
    assert [(g.table, g.seats.count()) for g in games] == [(1, 10), (2, 10)]
    seated = set(Seat.objects.filter(game__evening=cast.evening).values_list("player_id", flat=True))
    assert seated == {p.pk for i, p in enumerate(cast.players) if i != 1}

    _play_and_sign(games[0], cast.admin)
    page.goto("/")
    row = page.get_by_test_id("latest-results").locator("li").first
    expect(row).to_contain_text("Вечер пятницы — стол 1, игра 1")
    expect(row.locator("[data-result=red]")).to_have_text("Победа красных")
    assert "result-red" in row.get_attribute("class")
    top = page.get_by_test_id("home-top")
    table_two = set(Seat.objects.filter(game=games[1]).values_list("player__nickname", flat=True))
    assert not table_two & set(top.locator("a").all_inner_texts())  # only table 1 has played: cached so

    _play_and_sign(games[1], cast.admin)  # the season's stored version moves on: the cached top ten is not served
    page.goto("/")
    expect(page.get_by_test_id("latest-results").locator("li").first).to_contain_text("стол 2, игра 2")
    assert table_two & set(page.get_by_test_id("home-top").locator("a").all_inner_texts())
    organiser.close()
