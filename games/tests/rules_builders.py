"""Compact builders for example protocols (docs/rules.md, worked examples), shared by the pure rules tests. No Django."""

from __future__ import annotations

from decimal import Decimal

from games.rules.protocol import Adjustment, Colour, Day, JudgeExtra, Night, Protocol, Removal, SeatEntry

# docs/rules.md, worked examples, layout L1: red = {1,3,4,5,7,9,10}, black = {2,6,8}.
L1 = "К Ч К Ш К Д К Ч К К".split()


def D(value) -> Decimal:
    return Decimal(str(value))


def game(
    result: str | None,
    *,
    outs: list[list[int]] = (),
    kills: list[int | None] = (),
    bm: list[int] | None = None,
    judge: dict[int, object] | None = None,
    approved: tuple[int, ...] = (),
    adjustments: list[tuple[int, object, str]] = (),
    removals: list[tuple[int, str, str]] = (),
    colours: list[tuple[int, int]] = (),
    roles: list[str] = L1,
    players: dict[int, str] | None = None,
    prefix: str = "p",
    notes: bool = True,
) -> Protocol:
    """A protocol in a few words.

    outs: per day (D1, D2, …) the seats that left by vote/lift; kills: per night (N1, N2, …) the victim or None;
    judge: seat → points; adjustments: (seat, points, clause); removals: (seat, reason, phase); colours: (by, target).
    Players are f"{prefix}{seat}" unless `players` names them.
    """
    names = {seat: f"{prefix}{seat}" for seat in range(1, 11)}
    names.update(players or {})
    return Protocol(
        seats=[SeatEntry(seat=s, player=names[s], role=roles[s - 1]) for s in range(1, 11)],
        days=[Day(out=list(out)) for out in outs],
        nights=[Night(kill=kill) for kill in kills],
        removals=[Removal(seat=s, reason=reason, at=at) for s, reason, at in removals],
        best_move=bm,
        colours=[Colour(by=by, target=target) for by, target in colours],
        judge_extras=[
            JudgeExtra(seat=s, points=D(p), note="grade +3" if notes else "", approved=s in approved)
            for s, p in (judge or {}).items()
        ],
        adjustments=[Adjustment(seat=s, points=D(p), clause=c, note="see video" if notes else "")
                     for s, p, c in adjustments],
        result=result,
    )


def totals(*values) -> dict[int, Decimal]:
    """Seat totals 1..10 written out as in the tables of the worked examples (docs/rules.md Ex 1–18)."""
    assert len(values) == 10
    return {seat: D(v) for seat, v in enumerate(values, start=1)}


# ---------------------------------------------------------------------------------------------- docs/rules.md, worked examples
RED, BLACK, DRAW = "red", "black", "draw"


def ex1(**kw) -> Protocol:
    """Ex 1: red win, BM 2 blacks on seat 3, J 0.2 on seat 3 superseded (002 III.11)."""
    judge = kw.pop("judge", {7: "0.4", 1: "0.3", 3: "0.2", 2: "0.2"})
    return game(RED, outs=[[8], [2], [6]], kills=[3, 4], bm=[2, 6, 9], judge=judge, **kw)


def ex2(**kw) -> Protocol:
    return game(BLACK, outs=[[], [5], [10]], kills=[3, 4], bm=[2, 6, 8],
                judge={6: "0.5", 2: "0.3", 8: "0.2", 4: "0.3"}, **kw)


def ex3(judge=None, **kw) -> Protocol:
    return game(RED, outs=[[2], [8], [6]], kills=[5, None], bm=[6, 8, 10],
                judge=judge or {5: "0.6", 4: "0.3"}, **kw)


def ex4(judge=None, **kw) -> Protocol:
    return game(BLACK, outs=[[], [9], []], kills=[10, 4, 1], bm=[1, 2, 3],
                judge=judge or {6: "0.7", 4: "0.5", 1: "0.4", 9: "0.3"}, **kw)


def ex5(**kw) -> Protocol:
    return game(BLACK, outs=[[], [2], [4], [10]], kills=[9, 5, 7], bm=[2, 6, 7], colours=[(5, 8), (7, 3)],
                judge={6: "0.4", 8: "0.3", 3: "0.3"},
                adjustments=[(5, "0.3", "002 III.5 l.317"), (1, "-0.3", "002 III.5 l.317")], **kw)


def ex6_cml(**kw) -> Protocol:
    return game(DRAW, outs=[[], [10], [], []], kills=[3, None, None, None], bm=[2, 6, 8],
                judge={4: "0.3", 1: "0.2"}, adjustments=[(8, "-0.3", "002 III.6/-0.3 #1")], **kw)


def ex6_xcraft(**kw) -> Protocol:
    """000 S7.9: the draw comes only after D5; the judge's 4→0.3, 1→0.2 are void (T6.1.6)."""
    return game(DRAW, outs=[[], [10], [], [], []], kills=[3, None, None, None], bm=[2, 6, 8],
                judge={4: "0.3", 1: "0.2"}, **kw)


def ex7(**kw) -> Protocol:
    return game(RED, outs=[[8], [], [2], [6]], kills=[10, 1, None], bm=[2, 6, 5], removals=[(7, "fouls", "D2")],
                judge={4: "0.7", 9: "0.3"}, approved=(4,), **kw)


def ex8(**kw) -> Protocol:
    return game(RED, outs=[[], []], kills=[1], bm=[2, 6, 3], removals=[(8, "ppk", "D2")], **kw)


def ex9(**kw) -> Protocol:
    return game(BLACK, outs=[[], [1], [5]], kills=[4, 3], bm=[2, 6, 8], judge={6: "0.7", 4: "0.3"}, approved=(6,),
                **kw)


def ex10(penalties: bool = True, **kw) -> Protocol:
    adjustments = [(5, "-0.3", "002 III.6/-0.3 #15"), (9, "-0.3", "002 III.6/-0.3 #15")] if penalties else []
    return game(BLACK, outs=[[5, 9], [4]], kills=[3], adjustments=adjustments, **kw)


def ex11(**kw) -> Protocol:
    return game(RED, outs=[[], [2], [6]], kills=[8, 1], bm=[1, 3, 4], colours=[(8, 4)], **kw)


def ex15(**kw) -> Protocol:
    return game(BLACK, outs=[[], [2], [1], [], [9]], kills=[None, 3, 4, 5], judge={6: "0.4", 8: "0.4"},
                adjustments=[(4, "-0.5", "002 III.6/-0.5 #10.2"), (9, "-0.5", "002 III.6/-0.5 l.421")], **kw)


def ex16(**kw) -> Protocol:
    return game(BLACK, outs=[[], [2], [7], [], []], kills=[3, 5, 9, None], removals=[(10, "disqualified", "D5")],
                **kw)


def ex18(**kw) -> Protocol:
    return game(BLACK, outs=[[], [5], [9]], kills=[3, 7], bm=[2, 6, 9], judge={6: "0.5", 1: "0.3"},
                adjustments=[(4, "-0.3", "002 III.6/-0.3 #2")], **kw)
