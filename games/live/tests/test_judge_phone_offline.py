"""The judge's screen when the venue Wi-Fi drops, and against double taps (static/js/live.js, games/live/targets.py).

* offline mid-day: the taps are kept in the browser ("N не сохранено"), survive a reload while offline, and are sent
  in order when the network returns, each applied exactly once;
* with the service worker (templates/games/live/judge_sw.js) a reload while offline reopens the screen itself, with the
  board the server last drew and the unsent taps on it; online the screen always comes from the server, and no other
  page is kept or controlled; logging out drops the kept copy;
* a conflict (another screen wrote meanwhile) shows the unsent taps, which the judge applies again or drops;
* two taps on "speech over" 0.1–1.5 s apart end one speech, never skip a speaker.
"""

from __future__ import annotations

import os
import time

import pytest
from django.core.signals import request_started
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.live.apply import live_apply
from games.models import Day, Game, GameAction, Seat
from games.tests.judge_screen import PHONE, login, pending, settle
from games.tests.live_fixtures import ROLES, make_cast, seat_everyone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GUARD = 1750  # ms: "speech over" ignores a second tap within 1.7 s


def started_game():
    cast = make_cast("cml")
    seat_everyone(cast.game, cast.players, ROLES)
    live_apply(game_id=cast.game.pk, by=cast.judge, kind="start", payload={}, version=cast.game.version,
               action_id="start")
    return cast


def open_screen(page, cast) -> None:
    page.set_viewport_size(PHONE)
    login(page)
    page.goto(f"/games/{cast.game.pk}/judge/")
    expect(page.get_by_test_id("speaker")).to_have_text("1")


def foul(page, seat: int) -> None:
    page.get_by_test_id(f"seat-{seat}").click()
    page.get_by_test_id("foul-plus").click()
    page.locator("[data-sheet-close]").click()


def speech_over(page) -> None:
    page.wait_for_timeout(GUARD)
    page.get_by_test_id("next-speaker").click()


@pytest.fixture
def page_without_worker(browser, live_server):
    """A tab whose browser runs no service worker (an old phone, plain http): a reload offline cannot reopen."""
    context = browser.new_context(base_url=live_server.url, locale="ru-RU", service_workers="block")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def server_hits(live_server):
    """(method, path) of every request that reached the site."""
    seen: list[tuple[str, str]] = []

    def record(sender, environ, **kwargs):
        seen.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))

    request_started.connect(record)
    yield seen
    request_started.disconnect(record)


WORKER = "() => !!navigator.serviceWorker.controller"
KEPT = ("() => caches.keys().then(names => Promise.all(names.filter(n => n.startsWith('mafclub-judge'))"
        ".map(n => caches.open(n).then(c => c.keys())))).then(lists => lists.flat().map(r => new URL(r.url).pathname))")
WORKERS = "() => navigator.serviceWorker.getRegistrations().then(all => all.map(r => new URL(r.scope).pathname))"


def wait_for_worker(page, timeout: float = 10.0) -> None:
    """Until the judge screen's service worker controls the tab (it has kept the screen and its static files by then:
    it claims the tab only after installing). Polled: the CSP forbids wait_for_function's eval."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(WORKER):
        assert time.monotonic() < deadline, "the service worker did not take the screen"
        page.wait_for_timeout(50)


def test_taps_made_offline_survive_a_reload_and_are_applied_once_when_the_network_returns(page_without_worker):
    page = page_without_worker
    cast = started_game()
    game = cast.game
    open_screen(page, cast)
    page.context.set_offline(True)

    foul(page, 3)                                      # 1: a foul to seat 3
    page.get_by_test_id("nominee-4").click()            # 2: seat 1 (speaking) nominates 4
    speech_over(page)                                   # 3: seat 1's speech ends; the screen moves on to 2 by itself
    expect(page.get_by_test_id("speaker")).to_have_text("2")
    page.get_by_test_id("nominee-6").click()            # 4: seat 2 nominates 6
    speech_over(page)                                   # 5
    speech_over(page)                                   # 6
    expect(page.get_by_test_id("speaker")).to_have_text("4")
    foul(page, 6)                                       # 7
    foul(page, 3)                                       # 8: the second foul of seat 3 (the screen showed 1)
    expect(page.get_by_test_id("fouls-3").locator(".fouls-count")).to_have_text("2")
    expect(page.get_by_test_id("unsaved")).to_contain_text("8 не сохранено")
    assert pending(page) == 8
    assert GameAction.objects.filter(game=game).count() == 1  # nothing reached the server: only the start

    with pytest.raises(PlaywrightError):
        page.reload()  # offline: the browser shows its own error page; the taps stay in this phone's storage
    page.context.set_offline(False)
    page.goto(f"/games/{game.pk}/judge/")
    settle(page, timeout=20)
    expect(page.get_by_test_id("speaker")).to_have_text("4")
    expect(page.get_by_test_id("unsaved")).to_be_hidden()

    day = Day.objects.get(game=game, index=1)
    assert [(n["by"], n["nominee"]) for n in day.nominations] == [(1, 4), (2, 6)]
    assert list(day.spoken) == [1, 2, 3]
    assert dict(Seat.objects.filter(game=game, fouls__gt=0).values_list("number", "fouls")) == {3: 2, 6: 1}
    kinds = list(GameAction.objects.filter(game=game).order_by("seq").values_list("kind", flat=True))
    assert kinds == ["start", "foul", "nominate", "speech", "nominate", "speech", "speech", "foul", "foul"]
    assert Game.objects.get(pk=game.pk).version == 1 + 1 + 8


def test_a_conflict_shows_the_unsent_taps_to_apply_again_or_drop(page):
    cast = started_game()
    game = cast.game
    open_screen(page, cast)
    page.context.set_offline(True)
    page.get_by_test_id("nominee-5").click()
    foul(page, 7)
    expect(page.get_by_test_id("unsaved")).to_contain_text("2 не сохранено")
    # Meanwhile the head judge's tablet records a foul to seat 2.
    game.refresh_from_db()
    live_apply(game_id=game.pk, by=cast.club_admin, kind="foul", payload={"seat": 2, "delta": 1},
               version=game.version, action_id=os.urandom(8).hex())
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.get_by_test_id("queue-conflict")).to_be_visible()
    expect(page.get_by_test_id("queue-conflict")).to_contain_text("Фол +1")
    expect(page.get_by_test_id("fouls-2").locator(".fouls-count")).to_have_text("1")  # the stored state shows
    assert pending(page) == 2
    page.get_by_test_id("queue-resend").click()
    settle(page)
    expect(page.get_by_test_id("queue-conflict")).to_be_hidden()
    assert [(n["by"], n["nominee"]) for n in Day.objects.get(game=game).nominations] == [(1, 5)]
    assert dict(Seat.objects.filter(game=game, fouls__gt=0).values_list("number", "fouls")) == {2: 1, 7: 1}

    # Dropping: the taps are gone, nothing is written.
    page.context.set_offline(True)
    foul(page, 8)
    game.refresh_from_db()
    live_apply(game_id=game.pk, by=cast.club_admin, kind="foul", payload={"seat": 2, "delta": 1},
               version=game.version, action_id=os.urandom(8).hex())
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.get_by_test_id("queue-conflict")).to_be_visible()
    page.get_by_test_id("queue-drop").click()
    assert pending(page) == 0
    assert Seat.objects.get(game=game, number=8).fouls == 0


@pytest.mark.parametrize("gap_ms", [100, 400, 700, 1000, 1500])
def test_two_taps_on_speech_over_never_skip_a_speaker(page, gap_ms):
    cast = started_game()
    game = cast.game
    open_screen(page, cast)
    for expected_next in (2, 3):
        page.wait_for_timeout(GUARD)
        button = page.get_by_test_id("next-speaker")
        button.click()
        page.wait_for_timeout(gap_ms)
        page.get_by_test_id("next-speaker").click()
        settle(page)
        expect(page.get_by_test_id("speaker")).to_have_text(str(expected_next))
    assert list(Day.objects.get(game=game).spoken) == [1, 2]
    assert GameAction.objects.filter(game=game, kind="speech").count() == 2


def test_the_timer_starts_with_each_speech_warns_at_10_s_and_survives_redraws_and_a_reload(page):
    cast = started_game()
    page.clock.install()
    # the page's time moves only when the test says so: a slow reload on a loaded machine spends no second of it
    page.clock.pause_at(time.time() + 1)
    open_screen(page, cast)
    timer = page.get_by_test_id("timer")
    expect(timer).to_have_text("60")
    page.clock.run_for(20_000)
    expect(timer).to_have_text("40")
    page.get_by_test_id("nominee-5").click()  # the board is redrawn: the minute goes on
    settle(page)
    expect(timer).to_have_text("40")
    page.reload()  # so does a reload
    expect(page.get_by_test_id("speaker")).to_have_text("1")
    expect(timer).to_have_text("40")
    page.clock.run_for(31_000)
    expect(timer).to_have_text("9")
    expect(page.get_by_test_id("timer-bar")).to_have_class("timer-bar warn")
    page.clock.run_for(10_000)
    expect(timer).to_contain_text("время вышло")
    page.clock.run_for(2_000)
    page.get_by_test_id("next-speaker").click()  # the next speech: a fresh minute by itself
    settle(page)
    expect(timer).to_have_text("60")
    page.get_by_test_id("timer-short").click()  # a 30-second (tie) speech
    expect(timer).to_have_text("30")


def test_a_club_can_start_the_timer_by_hand(page):
    cast = started_game()
    cast.club.judge_timer_autostart = False
    cast.club.save()
    page.clock.install()
    open_screen(page, cast)
    timer = page.get_by_test_id("timer")
    page.clock.run_for(5_000)
    expect(timer).to_have_text("60")  # ready, not running
    page.get_by_test_id("timer-full").click()
    page.clock.run_for(3_000)
    expect(timer).to_have_text("57")


def test_a_reload_offline_reopens_the_screen_with_the_last_board_and_the_unsent_taps(page, server_hits):
    cast = started_game()
    game = cast.game
    open_screen(page, cast)
    wait_for_worker(page)
    kept = page.evaluate(KEPT)
    assert f"/games/{game.pk}/judge/" in kept and "/static/js/live.js" in kept and "/static/css/judge.css" in kept
    # Online taps after the screen was kept: the kept copy of the page no longer shows them.
    foul(page, 5)
    page.get_by_test_id("nominee-2").click()
    settle(page)
    assert Day.objects.get(game=game).nominations[0]["nominee"] == 2

    page.context.set_offline(True)
    speech_over(page)                                   # 1: seat 1's speech ends; 2 speaks
    page.get_by_test_id("nominee-6").click()            # 2: seat 2 nominates 6
    foul(page, 3)                                       # 3
    expect(page.get_by_test_id("unsaved")).to_contain_text("3 не сохранено")
    assert GameAction.objects.filter(game=game).count() == 3  # start, foul 5, nominate 2: the rest is on the phone

    del server_hits[:]
    page.reload()  # offline: the worker answers with the kept screen
    expect(page.get_by_test_id("judge-seats")).to_be_visible()
    assert not [hit for hit in server_hits if hit[1] == f"/games/{game.pk}/judge/"], server_hits  # not the server
    # The board the server last drew (foul 5, the nomination of 2), and the three taps on it.
    expect(page.get_by_test_id("fouls-5").locator(".fouls-count")).to_have_text("1")
    expect(page.get_by_test_id("nominations")).to_contain_text("2")
    expect(page.get_by_test_id("speaker")).to_have_text("2")
    expect(page.get_by_test_id("fouls-3").locator(".fouls-count")).to_have_text("1")
    expect(page.get_by_test_id("fouls-3")).to_have_text("1 ф.")  # labelled, as the server draws it
    expect(page.locator("#timer-seat")).to_have_text("№2")  # the timer follows the speaker the kept taps reached
    expect(page.get_by_test_id("nominations")).to_contain_text("6?")
    expect(page.get_by_test_id("unsaved")).to_contain_text("3 не сохранено")
    foul(page, 8)                                       # 4: a tap on the reopened screen
    expect(page.get_by_test_id("unsaved")).to_contain_text("4 не сохранено")
    # (No count of stored rows here: Chromium's offline emulation lets an occasional retry of the reopened page
    # reach the server, whose answer the page never sees; the tap's action id makes the server apply it once, which
    # the end of this test checks.)

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    settle(page, timeout=20)
    expect(page.get_by_test_id("unsaved")).to_be_hidden()
    day = Day.objects.get(game=game)
    assert [(n["by"], n["nominee"]) for n in day.nominations] == [(1, 2), (2, 6)]
    assert list(day.spoken) == [1]
    assert dict(Seat.objects.filter(game=game, fouls__gt=0).values_list("number", "fouls")) == {3: 1, 5: 1, 8: 1}
    kinds = list(GameAction.objects.filter(game=game).order_by("seq").values_list("kind", flat=True))
    assert kinds == ["start", "foul", "nominate", "speech", "nominate", "foul", "foul"]
    assert Game.objects.get(pk=game.pk).version == 1 + 1 + 6


def test_online_the_screen_comes_from_the_server_and_no_other_page_is_kept(page):
    cast = started_game()
    game = cast.game
    open_screen(page, cast)
    wait_for_worker(page)
    # Another screen writes; a reload online shows it (the kept copy is never shown while the server answers).
    game.refresh_from_db()
    live_apply(game_id=game.pk, by=cast.club_admin, kind="foul", payload={"seat": 9, "delta": 1},
               version=game.version, action_id=os.urandom(8).hex())
    page.reload()
    expect(page.get_by_test_id("fouls-9").locator(".fouls-count")).to_have_text("1")

    for public in (f"/games/{game.pk}/live/", f"/games/{game.pk}/", "/games/", "/players/"):
        page.goto(public)
        assert not page.evaluate(WORKER), f"{public} is controlled by the judge screen's worker"
    kept = page.evaluate(KEPT)
    assert [path for path in kept if not path.startswith("/static/")] == [f"/games/{game.pk}/judge/"]
    assert page.evaluate(WORKERS) == [f"/games/{game.pk}/judge/"]

    page.context.set_offline(True)
    for public in (f"/games/{game.pk}/live/", f"/games/{game.pk}/"):
        with pytest.raises(PlaywrightError):
            page.goto(public)  # the browser's own offline page: nothing of the public site is kept


def test_logging_out_drops_the_kept_screen(page):
    cast = started_game()
    open_screen(page, cast)
    wait_for_worker(page)
    assert page.evaluate(KEPT)
    page.get_by_role("button", name="Меню").click()  # the phone's collapsed menu
    page.get_by_role("button", name="Выйти").click()
    expect(page.get_by_role("link", name="Войти")).to_be_visible()
    deadline = time.monotonic() + 10
    while page.evaluate(KEPT) or page.evaluate(WORKERS):
        assert time.monotonic() < deadline, "the judge's copy outlived the logout"
        page.wait_for_timeout(50)
    page.context.set_offline(True)
    with pytest.raises(PlaywrightError):
        page.goto(f"/games/{cast.game.pk}/judge/")


def test_the_screen_of_a_new_game_replaces_the_kept_one(page):
    cast = started_game()
    open_screen(page, cast)
    wait_for_worker(page)
    second = Game.objects.create(club=cast.club, tournament=cast.tournament, ruleset=cast.game.ruleset, number=3,
                                 table=1, date="2026-11-28", judge=cast.judge, judge_name="judge")
    page.goto(f"/games/{second.pk}/judge/")
    wait_for_worker(page)
    deadline = time.monotonic() + 10
    while page.evaluate(WORKERS) != [f"/games/{second.pk}/judge/"] or [
            path for path in page.evaluate(KEPT) if not path.startswith("/static/")] != [f"/games/{second.pk}/judge/"]:
        assert time.monotonic() < deadline, (page.evaluate(WORKERS), page.evaluate(KEPT))
        page.wait_for_timeout(50)
    assert "/static/js/live.js" in page.evaluate(KEPT)
