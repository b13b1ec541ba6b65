"""Table-driven tests of `games.rules.validate` (docs/rules.md I1–I31 and the worked examples).

One row per rule, valid and invalid, the clause in the id. Pure Python: no database, no Django.
Protocols are built from a small valid base game (docs/rules.md Ex 3, layout L1) plus edits, or from a worked example.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from games.rules.problems import ERROR, WARNING
from games.rules.protocol import Colour, Day, Night, Nomination, Protocol, Removal, SeatEntry, Tally
from games.rules.ruleset import PRESETS
from games.rules.validate import validate

# docs/rules.md, worked examples: layout L1: red = {1,3,4,5,7,9,10}, black = {2,6,8}; 4 is the Sheriff, 6 the Don.
L1 = ("К", "Ч", "К", "Ш", "К", "Д", "К", "Ч", "К", "К")
PLAYERS = ("Лис", "Волк", "Кот", "Ворон", "Медведь", "Барон", "Шмель", "Сокол", "Филин", "Ёж")


def votes(*pairs: tuple[int, int]) -> list[Tally]:
    return [Tally(seat, count) for seat, count in pairs]


def day(noms=(), vote=None, revotes=(), lift=None, out=()) -> Day:
    return Day(
        nominations=[Nomination(*n) for n in noms],
        votes=votes(*vote) if vote is not None else None,
        revotes=[votes(*r) for r in revotes],
        lift=lift,
        out=list(out),
    )


def game(days, nights, *, result, roles=L1, best_move=None, removals=(), colours=(), fouls=None) -> Protocol:
    seats = [SeatEntry(n, PLAYERS[n - 1], roles[n - 1], (fouls or {}).get(n, 0)) for n in range(1, 11)]
    return Protocol(seats=seats, days=list(days), nights=list(nights), removals=list(removals),
                    best_move=best_move, colours=list(colours), result=result)


def base() -> Protocol:
    """Ex 3 flow: D1 2 out; N1 kill 5; D2 8 out; N2 miss; D3 the single nominee 6 out → no blacks → RED."""
    return game(
        [
            day([(4, 2), (6, 7)], [(2, 7), (7, 3)], out=[2]),
            day([(1, 8), (6, 1)], [(8, 5), (1, 3)], out=[8]),
            day([(3, 6)], [(6, 7)], out=[6]),
        ],
        [Night(kill=5, don_check=4, sheriff_check=6), Night(don_check=1, sheriff_check=3)],
        result="red",
        best_move=[6, 8, 10],
    )


def base_no_bm() -> Protocol:
    p = base()
    p.best_move = None
    return p


def ex6(extra_day: bool = False) -> Protocol:
    """Ex 6: D2 10 out; N2 miss; D3 4:4, re-vote 4:4, lift 3 of 8 fails; N3 miss; D4 none; N4 miss."""
    days = [
        day(),
        day([(1, 10), (2, 5)], [(10, 6), (5, 3)], out=[10]),
        day([(1, 4), (2, 6)], [(4, 4), (6, 4)], revotes=[[(4, 4), (6, 4)]], lift=3),
        day(),
    ]
    if extra_day:
        days.append(day())
    return game(days, [Night(kill=3), Night(), Night(), Night()], result="draw", best_move=[2, 6, 8])


def ex7() -> Protocol:
    """Ex 7: D1 8 out; N1 kill 10; D2 seat 7's 4th foul before the vote → no vote; N2 kill 1; D3 2 out; N3 miss;
    D4 6 out → RED."""
    return game(
        [
            day([(2, 8), (3, 1)], [(8, 6), (1, 4)], out=[8]),
            day(),
            day([(3, 2), (2, 3)], [(2, 4), (3, 2)], out=[2]),
            day([(4, 6)], [(6, 5)], out=[6]),
        ],
        [Night(kill=10), Night(kill=1), Night()],
        result="red",
        best_move=[2, 6, 5],
        removals=[Removal(7, "fouls", "D2")],
        fouls={7: 4},
    )


def ex10() -> Protocol:
    """Ex 10: D1 5:5, re-vote 5:5, lift 7 of 10 → 5 and 9 leave; N1 kill 3 (no BM right); D2 4 out → BLACK."""
    return game(
        [
            day([(2, 5), (6, 9)], [(5, 5), (9, 5)], revotes=[[(5, 5), (9, 5)]], lift=7, out=[5, 9]),
            day([(2, 4), (1, 2)], [(4, 5), (2, 2)], out=[4]),
        ],
        [Night(kill=3)],
        result="black",
    )


def ex16() -> Protocol:
    """Ex 16: on D5 the table is 1, 4, 10 v 6, 8; seat 10 is disqualified → 2 v 2 → BLACK at once."""
    return game(
        [
            day(),
            day([(1, 2)], [(2, 9)], out=[2]),
            day([(4, 7)], [(7, 7)], out=[7]),
            day(),
            day([(1, 6), (6, 1)]),
        ],
        [Night(kill=3), Night(kill=5), Night(kill=9), Night()],
        result="black",
        removals=[Removal(10, "disqualified", "D5")],
    )


def ex17(extra_day: bool = False, result: str | None = "draw") -> Protocol:
    """Ex 17: D1 none; N1 miss; D2 none; N2 miss; D3 none; N3 miss."""
    days = [day(), day(), day()] + ([day()] if extra_day else [])
    return game(days, [Night(), Night(), Night()], result=result)


def four_at_the_table() -> Protocol:
    """A game that reaches 4 players (1 black, 3 red) on D5 with a 2-way tie twice (000 S7.6 vs 003 l.79)."""
    return game(
        [
            day(),
            day([(3, 2)], [(2, 9)], out=[2]),
            day([(4, 8)], [(8, 7)], out=[8]),
            day(),
            day([(6, 9), (9, 6)], [(9, 2), (6, 2)], revotes=[[(9, 2), (6, 2)]]),
            day([(7, 6)], [(6, 3)], out=[6]),
        ],
        [Night(kill=1), Night(kill=3), Night(kill=4), Night(kill=5), Night(kill=9)],
        result="red",
    )


def three_way_tie_at_nine(lift: int | None = None) -> Protocol:
    """N1 kill 3 → 9 alive; D2 3:3:3 twice (002 I.8.7 bans the lift of 3 at 9); N2 miss closes the day."""
    tie = [(2, 3), (5, 3), (7, 3)]
    return game(
        [day(), day([(1, 2), (2, 5), (4, 7)], tie, revotes=[tie], lift=lift)],
        [Night(kill=3), Night()],
        result=None,
    )


def edit(change: Callable[[Protocol], object], start: Callable[[], Protocol] = base) -> Callable[[], Protocol]:
    """A builder: the `start` protocol with `change` applied in place."""

    def build() -> Protocol:
        protocol = start()
        change(protocol)
        return protocol

    return build


def _set(obj, **values):
    for name, value in values.items():
        setattr(obj, name, value)


def _swap_roles(p: Protocol, a: int, b: int) -> None:
    p.seats[a - 1].role, p.seats[b - 1].role = p.seats[b - 1].role, p.seats[a - 1].role


def case(id, ruleset, build, severity=None, field=None, clause=None, finished=True):
    return pytest.param(ruleset, build, severity, field, clause, finished, id=id)


CASES = [
    # ---- valid games
    case("valid base game xcraft", "xcraft", base),
    case("valid base game cml", "cml", base),
    case("valid base game moscow without best move", "moscow", base_no_bm),
    case("valid base game kamchatka without best move", "kamchatka", base_no_bm),
    # ---- 1: seats
    case("000 4.1.1 ten seats", "xcraft", edit(lambda p: p.seats.pop()), ERROR, "seats", "000 4.1.1"),
    case("000 4.1.1 seat numbers once", "xcraft", edit(lambda p: _set(p.seats[9], seat=9)), ERROR, "seats[9]", "000 4.1.1"),
    case("000 4.1.1 seat numbers 1..10", "xcraft", edit(lambda p: _set(p.seats[9], seat=11)), ERROR, "seats", "000 4.1.1"),
    case("000 P7.3 every seat has a player", "xcraft", edit(lambda p: _set(p.seats[2], player="  ")),
         ERROR, "seats[3].player", "000 P7.3"),
    case("000 P7.3 a player sits once (case-insensitive)", "xcraft",
         edit(lambda p: _set(p.seats[4], player=" " + PLAYERS[0].upper())), ERROR, "seats[5].player", "000 P7.3"),
    # ---- 3: roles
    case("002 I.1.1 three Ч", "cml", edit(lambda p: _set(p.seats[0], role="Ч")), ERROR, "seats", "002 I.1.1"),
    case("000 P7.4.1 unknown role letter", "xcraft", edit(lambda p: _set(p.seats[1], role="X")),
         ERROR, "seats[2].role", "000 P7.4.1"),
    case("000 P7.4 role missing in a finished game", "xcraft", edit(lambda p: _set(p.seats[0], role=None)),
         ERROR, "seats[1].role", "000 P7.4"),
    case("000 P7.4 roles missing while entering is fine", "xcraft",
         edit(lambda p: [_set(s, role=None) for s in p.seats] and _set(p, result=None)), finished=False),
    case("002 I.1.1 an entered role count over the quota while entering", "cml",
         edit(lambda p: ([_set(s, role=None) for s in p.seats[3:]], _set(p.seats[0], role="Ч"),
                         _set(p.seats[2], role="Ч"), _set(p, result=None))),
         ERROR, "seats", "002 I.1.1", finished=False),
    # ---- 7: fouls
    case("000 D6.5 fouls 0..4", "xcraft", edit(lambda p: _set(p.seats[2], fouls=5)), ERROR, "seats[3].fouls", "000 D6.5"),
    case("000 D6.5 four fouls need a removal", "xcraft", edit(lambda p: _set(p.seats[2], fouls=4)),
         ERROR, "seats[3].fouls", "000 D6.5"),
    case("002 II.2.1 a fouls removal needs four fouls", "cml",
         edit(lambda p: p.removals.append(Removal(5, "fouls", "D2"))), ERROR, "removals[0]", "002 II.2.1"),
    # ---- 4: phases
    case("I4 phases alternate", "xcraft", edit(lambda p: p.nights.extend([Night(), Night()])),
         ERROR, "nights", "docs/rules.md I4"),
    # ---- 11-13: nominations
    case("000 4.4.2 nominator left the game", "xcraft",
         edit(lambda p: p.days[1].nominations.__setitem__(1, Nomination(2, 1))),
         ERROR, "days[1].nominations[1]", "000 4.4.2"),
    case("002 I.6.8 nominee left the game", "cml",
         edit(lambda p: p.days[1].nominations.__setitem__(1, Nomination(6, 5))),
         ERROR, "days[1].nominations[1]", "002 I.6.8"),
    case("000 4.4.4 one nomination per player per day", "xcraft",
         edit(lambda p: p.days[0].nominations.__setitem__(1, Nomination(4, 7))),
         ERROR, "days[0].nominations[1]", "000 4.4.4"),
    case("000 4.4.3 a seat is nominated once", "xcraft",
         edit(lambda p: p.days[0].nominations.append(Nomination(1, 2))),
         ERROR, "days[0].nominations[2]", "000 4.4.3"),
    case("000 4.4.2 no withdrawal under xcraft", "xcraft",
         edit(lambda p: p.days[0].nominations.insert(0, Nomination(1, 9, True))),
         ERROR, "days[0].nominations[0]", "000 4.4.2"),
    case("003 l.49 withdrawal allowed under moscow", "moscow",
         edit(lambda p: p.days[0].nominations.insert(0, Nomination(1, 9, True)), base_no_bm)),
    # ---- 14-15: single nominee
    case("000 4.4.13 no vote on Day 1 with a single nominee", "xcraft",
         edit(lambda p: _set(p.days[0], nominations=[Nomination(4, 2)], votes=votes((2, 10)))),
         ERROR, "days[0].votes", "000 4.4.13"),
    case("002 docs/rules.md A18 Day-1 single-nominee vote only warns", "cml",
         edit(lambda p: _set(p.days[0], nominations=[Nomination(4, 2)], votes=votes((2, 10)))),
         WARNING, "days[0].votes", "002 I.6.17"),
    case("000 4.4.12 Day 2 single nominee leaves", "xcraft",
         edit(lambda p: _set(p.days[1], nominations=[Nomination(1, 8)], votes=None, out=[])),
         ERROR, "days[1].out", "000 4.4.12"),
    case("003 l.51 Day 2 single nominee leaves without a vote", "moscow",
         edit(lambda p: _set(p.days[2], votes=None), base_no_bm)),
    # ---- 17: tallies
    case("000 4.4.12 votes sum to living", "xcraft", edit(lambda p: _set(p.days[0], votes=votes((2, 7), (7, 2)))),
         ERROR, "days[0].votes", "000 4.4.12: votes must sum to the 10 living players (got 9)"),
    case("002 I.6.15 votes sum to living on D2", "cml", edit(lambda p: _set(p.days[1], votes=votes((8, 5), (1, 4)))),
         ERROR, "days[1].votes", "002 I.6.15: votes must sum to the 8 living players (got 9)"),
    case("000 4.4.12 no negative votes", "xcraft", edit(lambda p: _set(p.days[0], votes=votes((2, 11), (7, -1)))),
         ERROR, "days[0].votes", "000 4.4.12"),
    case("000 4.4.5 main round in nomination order", "xcraft",
         edit(lambda p: _set(p.days[0], votes=votes((7, 3), (2, 7)))), ERROR, "days[0].votes", "000 4.4.5"),
    # ---- 18-20: outcome, re-votes, lift
    case("000 4.4.15 the unique maximum leaves", "xcraft", edit(lambda p: _set(p.days[1], out=[1])),
         ERROR, "days[1].out", "000 4.4.15"),
    case("002 docs/rules.md A18 a Day-1 outcome mismatch only warns", "cml", edit(lambda p: _set(p.days[0], out=[7])),
         WARNING, "days[0].out", "002 I.6.18"),
    case("000 4.4.14 a tie needs a re-vote", "xcraft", edit(lambda p: _set(p.days[0], votes=votes((2, 5), (7, 5)))),
         ERROR, "days[0].revotes", "000 4.4.14"),
    case("000 4.4.14 the re-vote is among the tied", "xcraft",
         edit(lambda p: _set(p.days[0], votes=votes((2, 5), (7, 5)), revotes=[votes((2, 6), (6, 4))])),
         ERROR, "days[0].revotes[0]", "000 4.4.14"),
    case("000 4.4.14 no re-vote after a unique maximum", "xcraft",
         edit(lambda p: p.days[0].revotes.append(votes((2, 5), (7, 5)))), ERROR, "days[0].revotes[0]", "000 4.4.14"),
    case("002 I.6.18.4 Ex 10 Day-1 double lift is valid", "cml", ex10),
    case("000 4.4.14 Ex 10 Day-1 double lift is valid under xcraft", "xcraft", ex10),
    case("002 I.6.18.4 the lift passes only with more than half", "cml",
         edit(lambda p: _set(p.days[2], lift=4, out=[4, 6]), ex6), ERROR, "days[2].out", "002 I.6.18"),
    case("000 4.4.14 a passed lift puts every tied seat out", "xcraft",
         edit(lambda p: _set(p.days[2], lift=5), lambda: ex6(extra_day=True)), ERROR, "days[2].out", "000 4.4.15"),
    case("000 4.4.14 a second tie on the same seats needs the lift vote", "xcraft",
         edit(lambda p: _set(p.days[2], lift=None), lambda: ex6(extra_day=True)), ERROR, "days[2].lift", "000 4.4.14"),
    case("000 4.4.14 lift counts 0..alive", "xcraft",
         edit(lambda p: _set(p.days[2], lift=9), lambda: ex6(extra_day=True)), ERROR, "days[2].lift", "000 4.4.14"),
    # ---- 19: lift bans
    case("000 S7.6 no lift of 2 at 4 players", "xcraft", four_at_the_table),
    case("000 S7.6 a lift vote of 2 at 4 is an error", "xcraft",
         edit(lambda p: _set(p.days[4], lift=3, out=[6, 9]), four_at_the_table), ERROR, "days[4].lift", "000 S7.6"),
    case("003 l.79 the lift of 2 at 4 is held under moscow", "moscow", four_at_the_table,
         ERROR, "days[4].lift", "003 l.62"),
    case("002 I.8.7 no lift of 3 at 9", "cml", three_way_tie_at_nine, finished=False),
    case("002 I.8.7 a lift vote of 3 at 9 is an error", "cml", lambda: three_way_tie_at_nine(lift=2),
         ERROR, "days[1].lift", "002 I.8.7", finished=False),
    case("000 4.4.14 xcraft holds the lift of 3 at 9", "xcraft", three_way_tie_at_nine,
         ERROR, "days[1].lift", "000 4.4.14", finished=False),
    case("002 I.6.18.1 no lift of 5 on Day 1", "cml",
         lambda: game([day([(1, 2), (2, 3), (3, 4), (4, 5), (5, 6)], [(s, 2) for s in (2, 3, 4, 5, 6)],
                          revotes=[[(s, 2) for s in (2, 3, 4, 5, 6)]])], [Night()], result=None), finished=False),
    case("000 4.4.14 xcraft holds the lift of 5 on Day 1", "xcraft",
         lambda: game([day([(1, 2), (2, 3), (3, 4), (4, 5), (5, 6)], [(s, 2) for s in (2, 3, 4, 5, 6)],
                          revotes=[[(s, 2) for s in (2, 3, 4, 5, 6)]])], [Night()], result=None),
         ERROR, "days[0].lift", "000 4.4.14", finished=False),
    case("in progress: the last day may still wait for its re-vote", "xcraft",
         lambda: game([day([(1, 2), (2, 3)], [(2, 5), (3, 5)])], [], result=None), finished=False),
    case("in progress: a closed day still needs its re-vote", "xcraft",
         lambda: game([day([(1, 2), (2, 3)], [(2, 5), (3, 5)])], [Night()], result=None),
         ERROR, "days[0].revotes", "000 4.4.14", finished=False),
    # ---- 16: vote cancelled by a removal
    case("000 7 Ex 7 no vote on D2 after a 4th foul is valid", "xcraft", ex7),
    case("000 S7.1 Ex 7 a vote on D2 after a 4th foul", "xcraft",
         edit(lambda p: _set(p.days[1], nominations=[Nomination(3, 9)], votes=votes((9, 7)), out=[9]), ex7),
         ERROR, "days[1].votes", "000 S7.1"),
    case("000 S7.2 a removal after the vote is valid with no vote next day", "xcraft",
         edit(lambda p: _set(p.removals[0], at="D1", after_vote=True), ex7)),
    case("000 S7.2 a removal after the vote cancels the next day's vote", "xcraft",
         edit(lambda p: (_set(p.removals[0], at="D1", after_vote=True),
                         _set(p.days[1], nominations=[Nomination(3, 9)], votes=votes((9, 7)), out=[9])), ex7),
         ERROR, "days[1].votes", "000 S7.2"),
    case("002 I.8.1 a night removal cancels the next day's vote", "cml",
         edit(lambda p: p.removals.append(Removal(9, "disqualified", "N1"))), ERROR, "days[1].votes", "002 I.8.1"),
    case("002 I.8.1 removing the night victim keeps the vote", "cml",
         edit(lambda p: p.removals.append(Removal(5, "disqualified", "D2")))),
    case("002 II.3.5 removing the voted-out player keeps the next vote", "cml",
         edit(lambda p: p.removals.append(Removal(2, "disqualified", "D1", after_vote=True)))),
    case("003 l.81 removing a non-nominee keeps the vote", "moscow",
         edit(lambda p: (p.removals.append(Removal(9, "disqualified", "D2")),
                         _set(p.days[1], votes=votes((8, 4), (1, 3))), _set(p.days[2], votes=votes((6, 6)))),
              base_no_bm)),
    case("003 l.81 removing a nominee cancels the vote", "moscow",
         edit(lambda p: p.removals.append(Removal(1, "disqualified", "D2")), base_no_bm),
         ERROR, "days[1].votes", "003 l.81"),
    # ---- 22-23: nights
    case("000 4.5.4 kill of a seat that left", "xcraft", edit(lambda p: _set(p.nights[1], kill=2)),
         ERROR, "nights[1].kill", "000 4.5.4"),
    case("002 I.7.3.1 self-shot of a black is allowed", "cml",
         edit(lambda p: (_set(p.nights[1], kill=6), p.days.pop()))),
    case("000 4.5.6 a Sheriff killed on the night still checks", "xcraft",
         edit(lambda p: (_swap_roles(p, 4, 5), _set(p.nights[1], sheriff_check=None)))),
    case("000 4.5.7 a Sheriff who left does not check", "xcraft", edit(lambda p: _swap_roles(p, 4, 5)),
         ERROR, "nights[1].sheriff_check", "000 4.5.7"),
    case("002 I.7.5 a Don who left does not check", "cml",
         edit(lambda p: (_swap_roles(p, 6, 8))), ERROR, "nights[1].don_check", "002 I.7.5"),
    case("000 4.5.7 checking oneself warns", "xcraft", edit(lambda p: _set(p.nights[0], sheriff_check=4)),
         WARNING, "nights[0].sheriff_check", "000 4.5.7"),
    case("000 4.5.6 checking a seat that left warns", "xcraft", edit(lambda p: _set(p.nights[1], don_check=2)),
         WARNING, "nights[1].don_check", "000 4.5.6"),
    # ---- 24-25: best move
    case("000 8.3 best move needs a Night-1 kill", "xcraft",
         edit(lambda p: _set(p.nights[0], kill=None)), ERROR, "best_move", "000 8.3"),
    case("002 I.7.8 Ex 10 no best move after two left on Day 1", "cml",
         edit(lambda p: _set(p, best_move=[2, 6, 8]), ex10), ERROR, "best_move", "002 I.7.8"),
    case("001 no best move under kamchatka", "kamchatka", base, ERROR, "best_move", "001:"),
    case("000 BM-1 at most three numbers", "xcraft", edit(lambda p: _set(p, best_move=[6, 8, 10, 1])),
         ERROR, "best_move", "000 BM-1"),
    case("002 I.7.8 distinct numbers", "cml", edit(lambda p: _set(p, best_move=[6, 6])), ERROR, "best_move", "002 I.7.8"),
    case("000 BM-1 numbers 1..10", "xcraft", edit(lambda p: _set(p, best_move=[6, 11])), ERROR, "best_move", "000 BM-1"),
    case("docs/rules.md A28 best move naming oneself warns", "xcraft", edit(lambda p: _set(p, best_move=[5, 6])),
         WARNING, "best_move", "docs/rules.md A28"),
    case("docs/rules.md A28 best move naming a seat that left warns", "xcraft", edit(lambda p: _set(p, best_move=[2, 6])),
         WARNING, "best_move", "docs/rules.md A28"),
    case("000 BM-2 an empty best move is valid", "xcraft", edit(lambda p: _set(p, best_move=[]))),
    # ---- 27: recorded colours
    case("002 III.5 colour for the record is valid", "cml", edit(lambda p: p.colours.append(Colour(5, 6)))),
    case("000 no colours for the record", "xcraft", edit(lambda p: p.colours.append(Colour(5, 6))),
         ERROR, "colours[0]", "000:"),
    case("002 III.5 only a night victim leaves a colour", "cml", edit(lambda p: p.colours.append(Colour(1, 6))),
         ERROR, "colours[0]", "002 III.5"),
    case("002 III.5 the colour names another seat", "cml", edit(lambda p: p.colours.append(Colour(5, 5))),
         ERROR, "colours[0]", "002 III.5"),
    case("002 III.5 two colours from one seat warn", "cml",
         edit(lambda p: p.colours.extend([Colour(5, 6), Colour(5, 8)])), WARNING, "colours[1]", "002 III.5"),
    # ---- removals
    case("000 D6.3 removal reason", "xcraft", edit(lambda p: p.removals.append(Removal(9, "tired", "D3", True))),
         ERROR, "removals[0]", "000 D6.3"),
    case("I4 removal phase code", "xcraft", edit(lambda p: p.removals.append(Removal(9, "disqualified", "X3"))),
         ERROR, "removals[0]", "docs/rules.md I4"),
    case("docs/rules.md A35 removal phase must exist", "xcraft", edit(lambda p: p.removals.append(Removal(9, "disqualified", "D9"))),
         ERROR, "removals[0]", "docs/rules.md A35"),
    case("I5 a seat leaves once", "xcraft", edit(lambda p: p.removals.append(Removal(2, "disqualified", "D2"))),
         ERROR, "removals[0]", "docs/rules.md I5"),
    # ---- 28-31: result
    case("002 I.1.4 flipped result", "cml", edit(lambda p: _set(p, result="black")), ERROR, "result", "002 I.1.4"),
    case("000 P7.7 a finished game has a result", "xcraft", edit(lambda p: _set(p, result=None)),
         ERROR, "result", "000 P7.7"),
    case("000 P7.7 result is red, black or draw", "xcraft", edit(lambda p: _set(p, result="green")),
         ERROR, "result", "000 P7.7"),
    case("000 P7.7 an unfinished game needs no result", "xcraft",
         edit(lambda p: (p.days.pop(), _set(p, result=None))), finished=False),
    case("002 I.1.4 a result before the game is over", "cml", edit(lambda p: p.days.pop()),
         ERROR, "result", "002 I.1.4"),
    case("002 I.1.4 no phase after the end", "cml", edit(lambda p: p.nights.append(Night(kill=1))),
         ERROR, "nights[2]", "002 I.1.4"),
    case("000 D6.8 Ex 8 ppk awards the defeat", "xcraft",
         lambda: game([day(), day()], [Night(kill=1)], result="red", best_move=[2, 6, 3],
                      removals=[Removal(8, "ppk", "D2")])),
    case("000 D6.8 Ex 8 ppk: the offender's team loses", "xcraft",
         lambda: game([day(), day()], [Night(kill=1)], result="black", best_move=[2, 6, 3],
                      removals=[Removal(8, "ppk", "D2")]), ERROR, "result", "000 D6.8"),
    case("002 I.1.4 Ex 16 a disqualification ends the game", "cml", ex16),
    case("002 I.1.4 Ex 16 a disqualification ends the game xcraft", "xcraft", ex16),
    case("002 I.1.4 Ex 16 no vote after the deciding removal", "cml",
         edit(lambda p: _set(p.days[4], votes=votes((1, 2), (6, 2))), ex16), ERROR, "days[4]", "002 I.1.4"),
    case("002 I.1.4 Ex 16 the result follows the removal", "cml", edit(lambda p: _set(p, result="red"), ex16),
         ERROR, "result", "002 I.1.4"),
    # ---- 29: draw rules (docs/rules.md D9)
    case("002 I.8.5 Ex 6 draw after N4", "cml", ex6),
    case("000 S7.9 Ex 6 the game goes on after N4", "xcraft", ex6, ERROR, "result", "002 I.1.4"),
    case("000 S7.9 Ex 6 draw after D5", "xcraft", lambda: ex6(extra_day=True)),
    case("002 I.8.5 Ex 6 no phase after the draw", "cml", lambda: ex6(extra_day=True), ERROR, "days[4]", "002 I.8.5"),
    case("003 l.83 Ex 17 three misses: red wins", "moscow", lambda: ex17(result="red")),
    case("003 l.83 Ex 17 three misses: not a draw", "moscow", ex17, ERROR, "result", "003 l.83"),
    case("002 I.8.5 Ex 17 three misses: draw", "cml", ex17),
    case("000 S7.9 Ex 17 three misses: the game goes on", "xcraft", ex17, ERROR, "result", "002 I.1.4"),
    case("000 S7.9 Ex 17 draw after D4", "xcraft", lambda: ex17(extra_day=True)),
    case("001 Ex 17 no draw rule", "kamchatka", lambda: ex17(extra_day=True), ERROR, "result", "001 r.4"),
]


@pytest.mark.parametrize(("slug", "build", "severity", "field", "clause", "finished"), CASES)
def test_validate(slug, build, severity, field, clause, finished):
    problems = validate(build(), PRESETS[slug], finished=finished)
    if severity is None:
        assert [p for p in problems if p.is_error] == []
        return
    matching = [p for p in problems if p.severity == severity and p.field == field and clause in p.message]
    assert matching, f"expected {severity} at {field} citing {clause!r}; got:\n" + "\n".join(map(str, problems))


_CLAUSE_FIRST = re.compile(r"^(\d{3}( |:)|docs/rules\.md )")


@pytest.mark.parametrize("slug", sorted(PRESETS))
def test_every_message_starts_with_its_clause(slug):
    for _slug, build, *_rest in (c.values for c in CASES):
        for problem in validate(build(), PRESETS[slug], finished=False):
            assert _CLAUSE_FIRST.match(problem.message), str(problem)


def test_valid_base_game_has_no_warnings_either():
    assert validate(base(), PRESETS["xcraft"]) == []
