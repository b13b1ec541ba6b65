"""A judge plays a short complete game on the real judge's screen in Debian's chromium."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.protocol.selectors import protocol_of, with_protocol
from games.rules.scoring import score_game
from games.tests.judge_screen import login, settle
from games.tests.live_fixtures import ROLES, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def do(page, locator) -> None:
    """Tap and wait until the server answered (the screen's queue of taps is empty again)."""
    locator.click()
    settle(page)


def speeches_to_the_end(page) -> None:
    while page.get_by_test_id("next-speaker").count():
        page.wait_for_timeout(1750)  # the double-tap guard of "speech over"
        do(page, page.get_by_test_id("next-speaker"))


def spectator_roles(browser, live_server, game) -> int:
    context = browser.new_context(base_url=live_server.url, locale="ru-RU")
    spectator = context.new_page()
    spectator.goto(f"/games/{game.pk}/live/")
    expect(spectator.get_by_test_id("live-board")).to_be_visible()
    letters = [t.strip() for t in spectator.locator("[data-testid^=live-role-], td.role").all_inner_texts()]
    context.close()
    return sum(1 for t in letters if t)


def test_a_judge_plays_a_whole_game_on_the_screen(browser, live_server, page):
    cast = make_cast("cml")
    game = cast.game
    login(page)
    page.goto(f"/games/{game.pk}/judge/")

    # Seats: nine club players found by the search box, the tenth added inline as a new player.
    search = page.get_by_test_id("player-search")
    for number in range(1, 10):
        player = cast.players[number - 1]
        expect(page.get_by_test_id(f"seat-{number}")).to_have_class(re.compile("selected"))
        search.fill(player.nickname[:3])
        do(page, page.get_by_test_id(f"suggest-{player.pk}"))
    page.get_by_test_id("player-search").fill("Новичок")
    do(page, page.get_by_test_id("new-player"))
    # Roles: tap the seats of Ш, Д, Ч, Ч; the rest become citizens at the start.
    for number in (7, 2, 5, 9):
        do(page, page.get_by_test_id(f"seat-{number}"))
    expect(page.get_by_test_id("role-counts")).to_contain_text("Ч 2/2")
    do(page, page.get_by_test_id("start"))
    expect(page.get_by_test_id("phase")).to_contain_text("1")

    # Day 1: 1 nominates 5, 2 nominates 4; 7 vote for 5, the 3 silent ones go to 4.
    expect(page.get_by_test_id("speaker")).to_have_text("1")
    do(page, page.get_by_test_id("nominee-5"))
    do(page, page.get_by_test_id("next-speaker"))
    expect(page.get_by_test_id("speaker")).to_have_text("2")
    do(page, page.get_by_test_id("nominee-4"))
    speeches_to_the_end(page)
    page.get_by_test_id("key-7").click()
    expect(page.get_by_test_id("votes-4")).to_have_text("3")
    do(page, page.get_by_test_id("record-votes"))
    expect(page.get_by_test_id("votes")).to_contain_text("№5 — 7; №4 — 3")
    assert spectator_roles(browser, live_server, game) == 0
    do(page, page.get_by_test_id("to-night"))

    # Night 1: seat 1 is killed; the Sheriff (7) checks 9 and is shown "black".
    do(page, page.get_by_test_id("kill-1"))
    do(page, page.get_by_test_id("sheriff-9"))
    expect(page.get_by_test_id("sheriff-answer")).to_be_visible()
    do(page, page.get_by_test_id("to-day"))

    # Day 2: the best move of seat 1 names 2 5 9; four fouls on seat 9 remove him (the 4th asks once).
    for seat in (2, 5, 9):
        page.get_by_test_id(f"bm-{seat}").click()
    do(page, page.get_by_test_id("best-move-save"))
    expect(page.get_by_test_id("best-move")).to_have_text("2, 5, 9")
    page.get_by_test_id("seat-9").click()
    for count in range(1, 5):
        if count == 4:
            page.get_by_test_id("foul-plus").click()  # armed: asks once
        do(page, page.get_by_test_id("foul-plus"))
        expect(page.get_by_test_id("fouls-9").locator(".fouls-count")).to_have_text(str(count))
    expect(page.get_by_test_id("live-message")).to_contain_text("002 II.2.1")
    assert spectator_roles(browser, live_server, game) == 0
    speeches_to_the_end(page)
    do(page, page.get_by_test_id("to-night"))
    do(page, page.get_by_test_id("kill-3"))
    do(page, page.get_by_test_id("to-day"))

    # Day 3: 4 nominates 2, the only nominee, who leaves without a vote; the engine proposes the red win.
    page.get_by_test_id("by-4").click()
    do(page, page.get_by_test_id("nominee-2"))
    speeches_to_the_end(page)
    do(page, page.get_by_test_id("to-night"))
    expect(page.get_by_test_id("proposed-result")).to_be_visible()
    do(page, page.get_by_test_id("confirm-result"))
    expect(page.get_by_test_id("end-panel")).to_be_visible()
    page.get_by_test_id("extra-seat-7").click()
    page.get_by_test_id("extra-points-0,4").click()
    page.get_by_test_id("extra-note").fill("нашёл чёрного")
    do(page, page.get_by_test_id("extra-save"))
    page.get_by_test_id("sign").click()  # asks once
    do(page, page.get_by_test_id("sign"))
    expect(page.get_by_test_id("read-only")).to_be_visible()

    game = with_protocol(Game.objects.filter(pk=game.pk), scores=True).get()
    protocol = protocol_of(game)
    assert game.status == Game.Status.SIGNED and game.signed_by == cast.judge and game.ended_at is not None
    assert [s.role for s in protocol.seats] == [ROLES[n] for n in range(1, 11)]
    assert protocol.seats[9].player == "Новичок"
    assert [d.out for d in protocol.days] == [[5], [], [2]]
    assert [n.kill for n in protocol.nights] == [1, 3]
    assert protocol.nights[0].sheriff_check == 9
    assert [(r.seat, r.reason, r.at) for r in protocol.removals] == [(9, "fouls", "D2")]
    assert protocol.seats[8].fouls == 4
    assert protocol.best_move == [2, 5, 9] and protocol.result == "red"
    assert [(e.seat, e.points) for e in protocol.judge_extras] == [(7, Decimal("0.4"))]
    expected = score_game(protocol, game.ruleset.ruleset())
    assert {s.seat: s.total for s in expected.seats} == {s.number: s.total for s in game.seats.all()}
    assert spectator_roles(browser, live_server, game) == 10
