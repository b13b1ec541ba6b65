"""A five-day game on the judge's screen of a 390×844 phone, played twice: with the votes entered as counts, and with
the club's choice "record who votes" (Club.judge_records_voters) — tap a candidate, tap the raised hands, the rest go
to the last candidate. Every tap counted, every control on screen without scrolling (the thumb of
test_judge_phone_game); the hands cost at most 30 taps more, and the protocol keeps who voted for whom."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from games.live.tests.test_judge_phone_game import Judge, place_roles, previous_game, speeches
from games.models import Game
from games.protocol.selectors import protocol_of, with_protocol
from games.rules.validate import validate
from games.tests.judge_screen import PHONE, login
from games.tests.live_fixtures import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The cast's roles: the Don at 2, the mafia at 5 and 9, the Sheriff at 7. Per day: the first two speakers, whom
# they nominate, the hands against the first nominee (he leaves), and the night's kill after it.
DAYS = [
    # (first speaker, nominee, second speaker, nominee, the hands against the first nominee, the kill)
    None,  # Day 1: nobody nominated; seat 1 killed
    (2, 4, 3, 6, (3, 5, 7, 8, 10), 3),  # 9 at the table: 4 leaves 5 : 4
    (5, 9, 6, 5, (6, 7, 8, 10), 6),  # 7 at the table: 9 leaves 4 : 3
    (7, 5, 8, 2, (7, 8, 10), 8),  # 5 at the table: 5 leaves 3 : 2
    (10, 2, 2, 7, (7, 10), None),  # 3 at the table: the Don leaves 2 : 1, the reds win
]


def night(judge: Judge, kill: int) -> None:
    judge.controls(f"kill-{kill}", "to-day")
    judge.tap(f"kill-{kill}")
    judge.tap("to-day")


def vote(judge: Judge, first: int, hands: tuple[int, ...], *, by_hands: bool) -> None:
    if by_hands:
        judge.controls(f"hand-candidate-{first}", *(f"hand-{h}" for h in hands), "record-votes")
        for seat in hands:  # the first nominee's candidate button is the chosen one already
            judge.tap(f"hand-{seat}")
        expect(judge.page.get_by_test_id(f"votes-{first}")).to_have_text(str(len(hands)))
    else:
        judge.controls("keypad", f"key-{len(hands)}", "record-votes")
        judge.tap(f"key-{len(hands)}")
    judge.tap("record-votes")


def play(page, game: Game, *, by_hands: bool) -> int:
    """The whole game, from the seats to the confirmed result; the taps."""
    page.goto(f"/games/{game.pk}/judge/")
    judge = Judge(page)
    judge.tap("same-players")
    place_roles(judge)
    judge.tap("start")
    speeches(judge)
    judge.tap("to-night")
    night(judge, 1)
    for first, nominee, second, other, hands, kill in DAYS[1:]:
        expect(page.get_by_test_id("speaker")).to_have_text(str(first))
        judge.controls(f"nominee-{nominee}", "next-speaker")
        judge.tap(f"nominee-{nominee}")
        judge.wait_guard()
        judge.tap("next-speaker")
        expect(page.get_by_test_id("speaker")).to_have_text(str(second))
        judge.tap(f"nominee-{other}")
        speeches(judge)
        vote(judge, nominee, hands, by_hands=by_hands)
        if kill is None:
            break
        judge.tap("to-night")
        night(judge, kill)
    judge.controls("confirm-result")
    judge.tap("confirm-result")
    expect(page.get_by_test_id("end-panel")).to_be_visible()
    return judge.taps


def test_a_five_day_game_by_hands_costs_at_most_30_taps_more(page):
    cast = make_cast("cml")
    previous_game(cast)
    page.set_viewport_size(PHONE)
    login(page)
    by_counts = play(page, cast.game, by_hands=False)

    cast.club.judge_records_voters = True
    cast.club.save(update_fields=["judge_records_voters"])
    second = Game.objects.create(club=cast.club, tournament=cast.tournament, ruleset=cast.game.ruleset, number=3,
                                 table=1, date=dt.date(2026, 11, 28), judge=cast.judge, judge_name="judge")
    by_hands = play(page, second, by_hands=True)
    print(f"taps of the five-day game: counts {by_counts}, hands {by_hands}, more {by_hands - by_counts}")
    assert by_hands - by_counts <= 30

    for game, hands_kept in ((cast.game, False), (second, True)):
        protocol = protocol_of(with_protocol(Game.objects.filter(pk=game.pk)).get())
        assert game.__class__.objects.get(pk=game.pk).result == "red"
        assert [d.out for d in protocol.days] == [[], [4], [9], [5], [2]]
        assert [[t.votes for t in d.votes or []] for d in protocol.days] == [[], [5, 4], [4, 3], [3, 2], [2, 1]]
        assert [p for p in validate(protocol, game.ruleset.ruleset()) if p.is_error] == []
        if hands_kept:
            assert [d.voters for d in protocol.days[1:]] == [
                dict.fromkeys(hands, nominee) for _, nominee, _, _, hands, _ in DAYS[1:]]
        else:
            assert all(d.voters is None for d in protocol.days)
