"""Review cases derived directly from docs/rules.md (decisions D1–D12, invariants I1–I45, worked examples) and the rule books.

Written independently of the other rules tests. Every protocol goes through the `mafclub/1` reader
(`interchange.parse_game`) the way an import does, then `validate` / `score_game` / `score_tournament`.
Layout L1 (docs/rules.md, worked examples): red = {1,3,4,5,7,9,10}, black = {2,6,8}; 4 is the Sheriff, 6 the Don.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.rules.interchange import parse_game
from games.rules.ruleset import PRESETS
from games.rules.scoring import score_game, score_tournament
from games.rules.validate import validate
from ratings.standings.ranking import PlayerRecord, rank

L1 = "К Ч К Ш К Д К Ч К К".split()


def D(value) -> Decimal:
    return Decimal(str(value))


def V(noms=(), votes=None, revotes=(), lift=None, out=()):
    """A day with its voting recorded: noms (by, nominee); votes/revotes (seat, count)."""
    day = {"nominations": [{"by": b, "nominee": n} for b, n in noms], "out": list(out)}
    if votes is not None:
        day["votes"] = [{"seat": s, "votes": c} for s, c in votes]
    if revotes:
        day["revotes"] = [[{"seat": s, "votes": c} for s, c in r] for r in revotes]
    if lift is not None:
        day["lift"] = {"for": lift}
    return day


def G(result, days=(), nights=(), *, roles=L1, fouls=None, removals=(), bm=None, colours=(), judge=None,
      approved=(), adjustments=(), players=None):
    """A protocol read from mafclub/1 JSON. days: a list of seats out, or a V(...) dict; nights: a kill or None.

    removals: (seat, reason, at) or (seat, reason, at, after_vote)."""
    names = {s: f"p{s}" for s in range(1, 11)}
    names.update(players or {})
    fouls = dict(fouls or {})
    for r in removals:
        if r[1] == "fouls":
            fouls[r[0]] = 4
    data = {
        "seats": [{"seat": s, "player": names[s], "role": roles[s - 1], "fouls": fouls.get(s, 0)}
                  for s in range(1, 11)],
        "days": [d if isinstance(d, dict) else {"out": list(d)} for d in days],
        "nights": [n if isinstance(n, dict) else {"kill": n} for n in nights],
        "removals": [{"seat": r[0], "reason": r[1], "at": r[2], **({"after_vote": True} if len(r) > 3 and r[3] else {}),
                      "note": "видео"} for r in removals],
        "colours": [{"by": b, "target": t} for b, t in colours],
        "judge_extras": [{"seat": s, "points": p, "note": "оценка +3", **({"approved": True} if s in approved else {})}
                         for s, p in (judge or {}).items()],
        "adjustments": [{"seat": s, "points": p, "clause": c, "note": "видео"} for s, p, c in adjustments],
        "result": result,
    }
    if bm is not None:
        data["best_move"] = list(bm)
    protocol, problems = parse_game(data, "1")
    assert protocol is not None, problems
    return protocol


def errors(protocol, slug):
    return [f"{p.field}: {p.message}" for p in validate(protocol, PRESETS[slug]) if p.is_error]


def assert_verdict(protocol, slug, expect):
    """expect None: no errors; otherwise a fragment (the clause) that must appear in an error."""
    errs = errors(protocol, slug)
    if expect is None:
        assert errs == [], errs
    else:
        assert any(expect in e for e in errs), (expect, errs)


def totals(protocol, slug, **kw):
    return {s.seat: s.total for s in score_game(protocol, PRESETS[slug], **kw).seats}


def check_totals(protocol, slug, expected: dict, **kw):
    got = totals(protocol, slug, **kw)
    for seat in range(1, 11):
        assert got[seat] == D(expected.get(seat, 0)), (seat, got)


# Reference games under L1 (no judge extras):
# RED_WIN: D1 none, N1 kill 3, D2 2 out, N2 kill 4, D3 6 out, N3 kill 1, D4 8 out → no blacks → red.
RED_DAYS, RED_NIGHTS = [[], [2], [6], [8]], [3, 4, 1]
# BLACK_WIN: D1 none, N1 kill 3, D2 5 out, N2 kill 4, D3 10 out → 3 v 3 → black.
BLACK_DAYS, BLACK_NIGHTS = [[], [5], [10]], [3, 4]
REDS = {1: 1, 3: 1, 4: 1, 5: 1, 7: 1, 9: 1, 10: 1}
BLACKS = {2: 1, 6: 1, 8: 1}


def red_win(**kw):
    return G("red", RED_DAYS, RED_NIGHTS, **kw)


def black_win(**kw):
    return G("black", BLACK_DAYS, BLACK_NIGHTS, **kw)


# ------------------------------------------------------------------------------------------ docs/rules.md D1, D2, D3
BEST_MOVE_TOTALS = [
    # (id, rule set, protocol factory, seat, expected total)
    ("d1 xcraft 3 blacks +0.4 (BM-4)", "xcraft", lambda: red_win(bm=[2, 6, 8]), 3, "1.4"),
    ("d1 xcraft 2 blacks +0.25 (BM-4)", "xcraft", lambda: red_win(bm=[2, 6, 9]), 3, "1.25"),
    ("d1 xcraft 1 black 0", "xcraft", lambda: red_win(bm=[2, 5, 9]), 3, "1"),
    ("d1 xcraft red loser still scores BM", "xcraft", lambda: black_win(bm=[2, 6, 8]), 3, "0.4"),
    ("d1 xcraft sheriff victim scores (8.3.1)", "xcraft",
     lambda: G("black", [[], [1], [5]], [4, 3], bm=[2, 6, 8]), 4, "0.4"),
    ("d1 xcraft BM additive with judge extra (docs/rules.md A2)", "xcraft",
     lambda: red_win(bm=[2, 6, 8], judge={3: 0.3, 7: 0.7}, approved=(7,)), 3, "1.7"),
    ("d1 xcraft BM paid in a draw (docs/rules.md A3)", "xcraft",
     lambda: G("draw", [[], [10], [], [], []], [3, None, None, None], bm=[2, 6, 8]), 3, "0.4"),
    ("d1 xcraft black victim names but scores 0", "xcraft",
     lambda: G("red", [[], [2], [6]], [8, 1], bm=[2, 6, 1]), 8, "0"),
    ("d2 cml 3 blacks +0.5 (III.2)", "cml", lambda: red_win(bm=[2, 6, 8]), 3, "1.5"),
    ("d2 cml 2 blacks +0.3 (III.2)", "cml", lambda: red_win(bm=[2, 6, 9]), 3, "1.3"),
    ("d2 cml black victim 0", "cml", lambda: G("red", [[], [2], [6]], [8, 1], bm=[2, 6, 1]), 8, "0"),
    ("d2 cml BM beats smaller judge extra (III.11)", "cml", lambda: red_win(bm=[2, 6, 8], judge={3: 0.3}), 3, "1.5"),
    ("d2 cml larger judge extra replaces BM (III.11)", "cml", lambda: red_win(bm=[2, 6, 9], judge={3: 0.6}), 3, "1.6"),
    ("d2 cml equal values: one of them (docs/rules.md A13)", "cml", lambda: red_win(bm=[2, 6, 8], judge={3: 0.5}), 3, "1.5"),
    ("d2 cml BM paid in a draw (III.13)", "cml",
     lambda: G("draw", [[], [10], [], []], [3, None, None, None], bm=[2, 6, 8]), 3, "0.5"),
]


@pytest.mark.parametrize("slug,factory,seat,expected", [c[1:] for c in BEST_MOVE_TOTALS],
                         ids=[c[0] for c in BEST_MOVE_TOTALS])
def test_best_move_points(slug, factory, seat, expected):
    protocol = factory()
    assert errors(protocol, slug) == []
    assert totals(protocol, slug)[seat] == D(expected)


def day1_removal_then_vote():
    """D1: 8 voted out, then 7 disqualified after the vote result (two left Day 1, only one by vote).

    000 S7.2 / 002 I.8.2: no vote on D2. N1 kill 3, N2 kill 4, D3 2 out, N3 kill 1, D4 6 out → red."""
    return G("red", [V([(1, 8), (2, 3)], [(8, 6), (3, 4)], out=[8]), [], [2], [6]], [3, 4, 1],
             removals=[(7, "disqualified", "D1", True)], bm=[2, 6, 8])


BEST_MOVE_RIGHT = [
    ("d3 Night-1 victim with ≤1 out on D1", "cml", lambda: red_win(bm=[2, 6, 8]), None),
    ("d3 one voted out on D1 keeps the right", "xcraft",
     lambda: G("red", [[8], [2], [6]], [3, 4], bm=[2, 6, 9]), None),
    ("d3 N1 miss: no best move (xcraft)", "xcraft", lambda: G("red", [[], [2], [6], [8]], [None, 4, 1], bm=[2, 6, 8]),
     "best move"),
    ("d3 N1 miss: no best move (cml)", "cml", lambda: G("red", [[], [2], [6], [8]], [None, 4, 1], bm=[2, 6, 8]),
     "best move"),
    ("d3 two lifted on D1 (S7.12)", "xcraft",
     lambda: G("black", [V([(2, 5), (6, 9)], [(5, 5), (9, 5)], [[(5, 5), (9, 5)]], lift=7, out=[5, 9]), [4]], [3],
               bm=[2, 6, 8]), "S7.12"),
    ("d3 two lifted on D1 (I.7.8)", "cml",
     lambda: G("black", [V([(2, 5), (6, 9)], [(5, 5), (9, 5)], [[(5, 5), (9, 5)]], lift=7, out=[5, 9]), [4]], [3],
               bm=[2, 6, 8]), "I.7.8"),
    # S7.12 / I.7.8 count players who left "по результату голосования": a Day-1 removal does not count.
    ("d3 D1 removal does not count (xcraft)", "xcraft", day1_removal_then_vote, None),
    ("d3 D1 removal does not count (cml)", "cml", day1_removal_then_vote, None),
    ("d3 black victim may name (cml)", "cml", lambda: G("red", [[], [2], [6]], [8, 1], bm=[2, 6, 1]), None),
    ("docs/rules.md A28 duplicate numbers", "cml", lambda: red_win(bm=[2, 2, 8]), "distinct"),
    ("docs/rules.md A28 more than three numbers", "xcraft", lambda: red_win(bm=[2, 6, 8, 9]), "at most 3"),
    ("docs/rules.md A28 fewer numbers allowed (BM-2)", "xcraft", lambda: red_win(bm=[2]), None),
    ("docs/rules.md A28 empty best move allowed", "cml", lambda: red_win(bm=[]), None),
    ("d11 kamchatka has no best move", "kamchatka", lambda: red_win(bm=[2, 6, 8]), "best move"),
    ("d11 moscow has no best move", "moscow", lambda: red_win(bm=[2, 6, 8]), "best move"),
]


@pytest.mark.parametrize("slug,factory,expect", [c[1:] for c in BEST_MOVE_RIGHT], ids=[c[0] for c in BEST_MOVE_RIGHT])
def test_best_move_right(slug, factory, expect):
    assert_verdict(factory(), slug, expect)


def test_best_move_out_of_range_number():
    protocol = red_win(bm=[2, 6, 8])
    protocol.best_move = [2, 6, 11]  # the JSON reader refuses 11 already; the validator must too
    assert_verdict(protocol, "cml", "1..10")
    assert totals(protocol, "cml")[3] == D("1.3")  # 2 blacks named


def test_best_move_without_right_scores_nothing():
    protocol = G("black", [V([(2, 5), (6, 9)], [(5, 5), (9, 5)], [[(5, 5), (9, 5)]], lift=7, out=[5, 9]), [4]], [3],
                 bm=[2, 6, 8])
    assert totals(protocol, "cml")[3] == 0
    assert totals(protocol, "xcraft")[3] == 0


def test_day1_removal_keeps_best_move_points():
    assert totals(day1_removal_then_vote(), "xcraft")[3] == D("1.4")
    assert totals(day1_removal_then_vote(), "xcraft")[7] == D("0.5")


# ------------------------------------------------------------------------------------------ docs/rules.md D4: Ci


def _p_games():
    """docs/rules.md Ex 12 for player P: red in 1,2,4,5,7,9,10 (R = 7, game 7 as Ш); killed N1 as red in 2, 5, 9
    (K = 3); red lost 2 and 9, won 5; black in 3, 6, 8."""
    return [
        red_win(players={5: "P"}),  # 1 red, not killed
        black_win(players={3: "P"}),  # 2 killed N1, lost
        red_win(players={2: "P"}),  # 3 black
        black_win(players={7: "P"}),  # 4 red, not killed N1
        red_win(players={3: "P"}),  # 5 killed N1, won
        black_win(players={6: "P"}),  # 6 black
        red_win(players={4: "P"}),  # 7 sheriff, killed N2
        red_win(players={8: "P"}),  # 8 black
        black_win(players={3: "P"}),  # 9 killed N1, lost
        red_win(players={9: "P"}),  # 10 red
    ]


def test_ci_example_12():
    scores = score_tournament(_p_games(), PRESETS["cml"])
    ci = {i + 1: sum((it.points for s in g.seats if s.player == "P" for it in s.items if it.kind == "ci"), D(0))
          for i, g in enumerate(scores)}
    assert ci == {1: 0, 2: D("0.4"), 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: D("0.4"), 10: 0}


def test_ci_uncapped_value_and_draw_excluded():
    """Q: red in 8 games; killed N1 in a draw and in a black win → K = 2, R = 8 → 0.25, only in the black win."""
    draw = G("draw", [[], [10], [], []], [3, None, None, None], players={3: "Q"})
    lost = black_win(players={3: "Q"})
    others = [red_win(players={5: "Q"}) for _ in range(3)] + [black_win(players={7: "Q"}) for _ in range(3)]
    scores = score_tournament([draw, lost, *others], PRESETS["cml"])
    assert scores[0].seat(3).total == 0
    assert scores[1].seat(3).total == D("0.25")
    assert all(s.seat(5).total in (0, 1) and s.seat(7).total in (0, 1) for s in scores[2:])


def test_ci_without_best_move_right_and_additive():
    """Ex 10: two lifted on D1 → no BM, Ci still due (docs/rules.md A8); record 3 red cards, 1 N1 death → 1/3."""
    ex10 = G("black", [V([(2, 5), (6, 9)], [(5, 5), (9, 5)], [[(5, 5), (9, 5)]], lift=7, out=[5, 9]), [4]], [3],
             players={3: "R"})
    games = [ex10, red_win(players={5: "R"}), red_win(players={7: "R"})]
    scores = score_tournament(games, PRESETS["cml"])
    assert scores[0].seat(3).total == D("0.333333")


def test_ci_additive_to_best_move_and_outside_limits():
    """Ex 2: seat 3 BM 0.5 + Ci; Ci counts in no team limit."""
    game = G("black", BLACK_DAYS, BLACK_NIGHTS, bm=[2, 6, 8], judge={4: 0.5, 1: 0.4, 9: 0.3}, players={3: "S"})
    games = [game] + [red_win(players={5: "S"}) for _ in range(5)]  # K=1, R=6
    assert errors(game, "cml") == []
    assert score_tournament(games, PRESETS["cml"])[0].seat(3).total == D("0.666667")


def test_ci_cap_and_black_only_player():
    """K/R = 1 → capped at 0.4; a player who only ever held black cards never gets Ci."""
    assert score_tournament([black_win(players={3: "T"})], PRESETS["cml"])[0].seat(3).total == D("0.4")
    # B holds black cards only: self-shot on N1 in a black win (red lost) → nothing.
    # N1 kill 8 (black), D2 5, N2 4, D3 10, N3 1, D4 3 → 2, 6 v 7, 9
    selfshot = G("black", [[], [5], [10], [3]], [8, 4, 1], players={8: "B"})
    assert errors(selfshot, "cml") == []
    assert score_tournament([selfshot], PRESETS["cml"])[0].seat(8).total == D("1")


def test_no_ci_outside_cml():
    assert score_tournament([black_win(players={3: "T"})], PRESETS["xcraft"])[0].seat(3).total == 0


# ------------------------------------------------------------------------------------------ docs/rules.md D5: judge extras
JUDGE_CASES = [
    # cml (002 III.4, 4.2, 4.3, III.11, III.13; docs/rules.md A10–A14), red_win: red = winners, black = losers
    ("cml red 0.7", "cml", lambda: red_win(judge={7: 0.7}), None),
    ("cml red 0.7 + 0.2", "cml", lambda: red_win(judge={7: 0.7, 1: 0.2}), "III.4.2"),
    ("cml 0.7 does not touch the other team", "cml", lambda: red_win(judge={7: 0.7, 2: 0.5, 6: 0.5}), None),
    ("cml red 0.6 + 0.3", "cml", lambda: red_win(judge={5: 0.6, 4: 0.3}), None),
    ("cml red 0.6 + 0.4", "cml", lambda: red_win(judge={5: 0.6, 4: 0.4}), "III.4.3"),
    ("cml red 0.6 + 0.2 + 0.2", "cml", lambda: red_win(judge={5: 0.6, 4: 0.2, 7: 0.2}), "III.4.3"),
    ("cml red 0.6 + 0.6", "cml", lambda: red_win(judge={5: 0.6, 4: 0.6}), "III.4.3"),
    ("cml red 0.5 + 0.4 + 0.3", "cml", lambda: red_win(judge={5: 0.5, 4: 0.4, 7: 0.3}), None),
    ("cml red 0.5 + 0.4 + 0.4", "cml", lambda: red_win(judge={5: 0.5, 4: 0.4, 7: 0.4}), "III.4"),
    ("cml red 0.2 × 6", "cml", lambda: red_win(judge={s: 0.2 for s in (1, 3, 4, 5, 7, 9)}), None),
    ("cml red 0.2 × 7 = 1.4", "cml", lambda: red_win(judge={s: 0.2 for s in (1, 3, 4, 5, 7, 9, 10)}), "III.4"),
    ("cml black 0.5 + 0.5", "cml", lambda: red_win(judge={2: 0.5, 6: 0.5}), None),
    ("cml black 0.4 + 0.4 + 0.3", "cml", lambda: red_win(judge={2: 0.4, 6: 0.4, 8: 0.3}), "III.4"),
    ("cml loser may get 0.7 (no loser cap)", "cml", lambda: red_win(judge={6: 0.7}), None),
    ("cml both teams at cap, 5 recipients", "cml",
     lambda: red_win(judge={5: 0.5, 4: 0.4, 7: 0.3, 2: 0.5, 6: 0.5}), None),
    ("cml value 0.1", "cml", lambda: red_win(judge={5: 0.1}), "III.4"),
    ("cml value 0.8", "cml", lambda: red_win(judge={5: 0.8}), "III.4"),
    ("cml value 0.25", "cml", lambda: red_win(judge={5: 0.25}), "III.4"),
    ("cml extras allowed in a draw", "cml",
     lambda: G("draw", [[], [10], [], []], [3, None, None, None], judge={4: 0.3, 1: 0.2}), None),
    ("cml void judge extra not in limit (docs/rules.md A14)", "cml", lambda: red_win(bm=[2, 6, 8], judge={3: 0.4, 7: 0.7}), None),
    ("cml equal judge extra counts (docs/rules.md A13): 0.7 rule", "cml",
     lambda: red_win(bm=[2, 6, 8], judge={3: 0.5, 7: 0.7}), "III.4.2"),
    ("cml equal judge extra counts (docs/rules.md A13): red cap", "cml",
     lambda: red_win(bm=[2, 6, 8], judge={3: 0.5, 7: 0.4, 9: 0.4}), "III.4"),
    ("cml void extra (BM larger) leaves cap", "cml",
     lambda: red_win(bm=[2, 6, 8], judge={3: 0.4, 7: 0.5, 9: 0.4, 1: 0.3}), None),
    ("cml judge extra beats BM then 0.6 rule", "cml",
     lambda: red_win(bm=[2, 6, 9], judge={3: 0.6, 7: 0.3}), None),
    ("cml judge 0.6 on BM seat + two more", "cml",
     lambda: red_win(bm=[2, 6, 9], judge={3: 0.6, 7: 0.2, 9: 0.2}), "III.4.3"),
    ("cml BM smaller J 0.2 void, partner 0.6 + 0.3", "cml",
     lambda: red_win(bm=[2, 6, 9], judge={3: 0.2, 7: 0.6, 9: 0.3}), None),
    # xcraft (000 T6.1.1–6.1.6)
    ("xcraft winner 0.7 + loser 0.3", "xcraft", lambda: red_win(judge={7: 0.7, 2: 0.3}, approved=(7,)), None),
    ("xcraft sum 1.1", "xcraft", lambda: red_win(judge={7: 0.5, 5: 0.3, 2: 0.3}), "T6.1.2"),
    ("xcraft loser 0.5", "xcraft", lambda: red_win(judge={2: 0.5}), "T6.1.4"),
    ("xcraft loser 0.4", "xcraft", lambda: red_win(judge={2: 0.4}), None),
    ("xcraft winner 0.8", "xcraft", lambda: red_win(judge={7: 0.8}), "T6.1"),
    ("xcraft 4 recipients", "xcraft", lambda: red_win(judge={1: 0.3, 5: 0.3, 7: 0.2, 2: 0.2}), "T6.1.1"),
    ("xcraft 3 recipients sum 1.0", "xcraft", lambda: red_win(judge={1: 0.4, 5: 0.3, 2: 0.3}), None),
    ("xcraft draw: none", "xcraft",
     lambda: G("draw", [[], [10], [], [], []], [3, None, None, None], judge={4: 0.3}), "T6.1.6"),
    ("xcraft BM not in judge cap (docs/rules.md A2)", "xcraft",
     lambda: red_win(bm=[2, 6, 8], judge={3: 0.4, 7: 0.6}, approved=(7,)), None),
    ("xcraft no team rule: 0.7 + teammate", "xcraft", lambda: red_win(judge={7: 0.7, 1: 0.3}, approved=(7,)), None),
    # docs/rules.md D11: kamchatka / moscow: 0–0.7 per player, no team cap
    ("kamchatka four 0.7 to one team", "kamchatka", lambda: red_win(judge={1: 0.7, 3: 0.7, 5: 0.7, 7: 0.7}), None),
    ("kamchatka 0.8", "kamchatka", lambda: red_win(judge={1: 0.8}), "0.7"),
    ("moscow 0.7 + 0.6 + 0.6 one team", "moscow", lambda: red_win(judge={1: 0.7, 3: 0.6, 5: 0.6}), None),
    ("moscow 0.75", "moscow", lambda: red_win(judge={1: 0.75}), "0.7"),
]


@pytest.mark.parametrize("slug,factory,expect", [c[1:] for c in JUDGE_CASES], ids=[c[0] for c in JUDGE_CASES])
def test_judge_extras(slug, factory, expect):
    assert_verdict(factory(), slug, expect)


def test_xcraft_draw_judge_extras_void():
    protocol = G("draw", [[], [10], [], [], []], [3, None, None, None], judge={4: 0.3}, bm=[2, 6, 8])
    check_totals(protocol, "xcraft", {3: "0.4"})


def test_cml_draw_judge_and_bm_paid():
    protocol = G("draw", [[], [10], [], []], [3, None, None, None], judge={4: 0.3, 1: 0.2}, bm=[2, 6, 8])
    check_totals(protocol, "cml", {1: "0.2", 3: "0.5", 4: "0.3"})


# ------------------------------------------------------------------------------------------ docs/rules.md D6, D7
def ex7(slug_removal="fouls"):
    """Ex 7: D1 8 out; N1 kill 10; D2 seat 7 removed before the vote → no vote; N2 kill 1; D3 2; N3 miss; D4 6 → red."""
    return G("red", [[8], [], [2], [6]], [10, 1, None], bm=[2, 6, 5], removals=[(7, slug_removal, "D2")],
             judge={4: 0.7, 9: 0.3}, approved=(4,))


def test_ex7_xcraft_totals_and_columns():
    protocol = ex7()
    assert errors(protocol, "xcraft") == []
    check_totals(protocol, "xcraft", {1: 1, 3: 1, 4: "1.7", 5: 1, 7: "0.5", 9: "1.3", 10: "1.25"})
    seat7 = score_game(protocol, PRESETS["xcraft"]).seat(7)
    assert (seat7.main, seat7.extras) == (D(1), D("-0.5"))  # docs/rules.md D7: the −0.5 is in "доп. баллы"
    assert seat7.tiebreak_extras == D("-0.5")  # docs/rules.md D8: xcraft extras include the −0.5


def test_ex7_cml_disqualification():
    protocol = ex7("disqualified")
    protocol.judge_extras = [je for je in protocol.judge_extras if je.seat == 4]
    assert errors(protocol, "cml") == []
    check_totals(protocol, "cml", {1: 1, 3: 1, 4: "1.7", 5: 1, 7: "0.5", 9: 1, 10: "1.3"})
    seat7 = score_game(protocol, PRESETS["cml"]).seat(7)
    assert seat7.tiebreak_extras == 0  # docs/rules.md D8: cml main (III.1) includes the −0.5


def test_cml_removal_penalty_once():
    protocol = ex7("disqualified")
    protocol.judge_extras = []
    protocol.adjustments = parse_adj(7, -0.5, "002 III.6/-0.5 #1")
    assert_verdict(protocol, "cml", "III.10")


def parse_adj(seat, points, clause):
    return G("red", adjustments=[(seat, points, clause)]).adjustments


def ex8():
    """Ex 8: D1 none; N1 kill 1; D2 black seat 8 swears an oath → ППК → red wins."""
    return G("red", [[], []], [1], bm=[2, 6, 3], removals=[(8, "ppk", "D2")])


def test_ppk_cml_minus_07_only():
    assert errors(ex8(), "cml") == []
    check_totals(ex8(), "cml", {1: "1.3", 3: 1, 4: 1, 5: 1, 7: 1, 9: 1, 10: 1, 8: "-0.7"})
    assert score_game(ex8(), PRESETS["cml"]).seat(8).tiebreak_extras == 0


def test_ppk_xcraft_no_number():
    assert errors(ex8(), "xcraft") == []
    check_totals(ex8(), "xcraft", {1: "1.25", 3: 1, 4: 1, 5: 1, 7: 1, 9: 1, 10: 1})


COLOUR_CASES = [
    ("wrong colour in a red win", lambda: red_win(colours=[(3, 5)]), {3: "0.7"}),
    ("wrong colour in a black win", lambda: black_win(colours=[(4, 7)]), {4: "-0.3"}),
    ("correct colour gives nothing", lambda: red_win(colours=[(4, 2)]), {4: 1}),
    ("correct colour in a loss gives nothing automatically", lambda: black_win(colours=[(3, 8)]), {3: 0}),
    ("black self-shot victim: no penalty", lambda: G("red", [[], [2], [6]], [8, 1], colours=[(8, 4)]), {8: 0}),
]


@pytest.mark.parametrize("factory,expected", [c[1:] for c in COLOUR_CASES], ids=[c[0] for c in COLOUR_CASES])
def test_recorded_colours(factory, expected):
    protocol = factory()
    assert errors(protocol, "cml") == []
    got = totals(protocol, "cml")
    for seat, value in expected.items():
        assert got[seat] == D(value)


def test_colours_only_in_cml():
    assert_verdict(red_win(colours=[(3, 5)]), "xcraft", "III.5")


MAIN_POINTS = [
    ("red win: eliminated reds get 1", "xcraft", red_win, {**REDS}),
    ("black win: eliminated blacks get 1", "cml", black_win, {**BLACKS}),
    ("draw: nobody", "xcraft", lambda: G("draw", [[], [10], [], [], []], [3, None, None, None]), {}),
    ("kamchatka red win", "kamchatka", red_win, {**REDS}),
    ("moscow black win", "moscow", black_win, {**BLACKS}),
]


@pytest.mark.parametrize("slug,factory,expected", [c[1:] for c in MAIN_POINTS], ids=[c[0] for c in MAIN_POINTS])
def test_main_points(slug, factory, expected):
    protocol = factory()
    assert errors(protocol, slug) == []
    check_totals(protocol, slug, expected)
    for s in score_game(protocol, PRESETS[slug]).seats:
        assert s.main == D(expected.get(s.seat, 0))


@pytest.mark.parametrize("slug", ["kamchatka", "moscow"])
def test_decision_11_removal_penalty(slug):
    protocol = ex7("disqualified")
    protocol.best_move = None
    protocol.judge_extras = []
    assert errors(protocol, slug) == []
    check_totals(protocol, slug, {**REDS, 7: "0.5"})


# ------------------------------------------------------------------------------------------ docs/rules.md D8: tie-breakers
def rec(name, total, extras, wins, wins_difficult=0, extras_difficult=0, fnd=0):
    return PlayerRecord(name, games=10, wins=wins, total=D(total), tiebreak_extras=D(extras), main=D(wins),
                        wins_difficult=wins_difficult, extras_difficult=D(extras_difficult), first_night_deaths=fnd)


def test_tiebreak_xcraft_ex14():
    rows = rank([rec("A", "4.7", "0.7", 4), rec("B", "4.7", "-0.3", 5)], PRESETS["xcraft"].tiebreakers, {})
    assert [r.player for r in rows] == ["A", "B"] and rows[1].decided_by == "extras"


def test_tiebreak_cml_ex14_wins_decide():
    rows = rank([rec("A", "4.2", "0.2", 4), rec("B", "4.2", "0.2", 5)], PRESETS["cml"].tiebreakers, {})
    assert [r.player for r in rows] == ["B", "A"] and rows[1].decided_by == "wins"


def test_tiebreak_cml_difficult_then_extras_difficult_then_deaths_then_lot():
    tb = PRESETS["cml"].tiebreakers
    rows = rank([rec("D", "3.6", "0.6", 3, 1), rec("C", "3.6", "0.6", 3, 2)], tb, {})
    assert [r.player for r in rows] == ["C", "D"] and rows[1].decided_by == "wins_difficult"
    rows = rank([rec("E", "3.6", "0.6", 3, 1, "0.1"), rec("F", "3.6", "0.6", 3, 1, "0.3")], tb, {})
    assert [r.player for r in rows] == ["F", "E"] and rows[1].decided_by == "extras_difficult"
    rows = rank([rec("G", "3.6", "0.6", 3, 1, "0.1", 1), rec("H", "3.6", "0.6", 3, 1, "0.1", 2)], tb, {})
    assert [r.player for r in rows] == ["H", "G"] and rows[1].decided_by == "first_night_deaths"
    rows = rank([rec("I", "3", "0", 3), rec("J", "3", "0", 3)], tb, {"I": 2, "J": 1})
    assert [r.player for r in rows] == ["J", "I"] and rows[1].decided_by == "lot"


def test_tiebreak_xcraft_order():
    assert PRESETS["xcraft"].tiebreakers == ("extras", "wins", "wins_difficult", "first_night_deaths", "lot")
    assert PRESETS["xcraft"].difficult_roles == ("Д", "Ш")
    rows = rank([rec("K", "3", "0.5", 3, 1, fnd=5), rec("L", "3", "0.5", 3, 2)], PRESETS["xcraft"].tiebreakers, {})
    assert [r.player for r in rows] == ["L", "K"] and rows[1].decided_by == "wins_difficult"


def test_tiebreak_bucket_from_scores_cml_ci_and_bm_are_extras():
    scores = score_tournament([black_win(bm=[2, 6, 8], players={3: "T"})], PRESETS["cml"])
    assert scores[0].seat(3).tiebreak_extras == D("0.9")


# ------------------------------------------------------------------------------------------ docs/rules.md D9: draws
QUIET_CML = [[], [10], [], []]  # D1 none, D2 10 out, D3, D4 quiet
DRAW_CASES = [
    # cml I.8.5: three shooting nights with the table unchanged; draw after the 3rd
    ("cml N2 N3 N4 quiet → draw", "cml", lambda: G("draw", QUIET_CML, [3, None, None, None]), None),
    ("cml red declared after 3 quiet nights", "cml", lambda: G("red", QUIET_CML, [3, None, None, None]), "I.8.5"),
    ("cml play after the draw", "cml", lambda: G("draw", QUIET_CML + [[]], [3, None, None, None]), "I.8.5"),
    ("cml only two quiet nights", "cml", lambda: G("draw", QUIET_CML[:3], [3, None, None]), "I.1.4"),
    ("cml N1 counts (night 0 does not)", "cml", lambda: G("draw", [[], [], []], [None, None, None]), None),
    ("cml removal resets the streak", "cml",
     lambda: G("draw", [[], [10], [], [], [], []], [3, None, None, None, None, None],
               removals=[(1, "disqualified", "D4")]), None),
    ("cml removal resets: no draw at N4", "cml",
     lambda: G("draw", [[], [10], [], []], [3, None, None, None], removals=[(1, "disqualified", "D4")]), "I.1.4"),
    ("cml vote-out resets the streak", "cml",
     lambda: G("draw", [[], [10], [], [5], [], []], [3, None, None, None, None, None]), None),
    ("cml vote-out resets: no draw at N4", "cml",
     lambda: G("draw", [[], [10], [], [5]], [3, None, None, None]), "I.1.4"),
    ("cml lift resets the streak", "cml",
     lambda: G("draw", [[], [10], [], V([(2, 5), (6, 8)], [(5, 4), (8, 4)], [[(5, 4), (8, 4)]], lift=5, out=[5, 8]),
                       [], []], [1, None, None, None, None, None]), None),
    ("cml lift resets: no draw at N4", "cml",
     lambda: G("draw", [[], [10], [], V([(2, 5), (6, 8)], [(5, 4), (8, 4)], [[(5, 4), (8, 4)]], lift=5, out=[5, 8])],
               [1, None, None, None]), "I.1.4"),
    # xcraft S7.9: 3 nights and 3 days in a row, counted from a night
    ("xcraft N1..D4 quiet → draw", "xcraft", lambda: G("draw", [[], [], [], []], [None, None, None]), None),
    ("xcraft D1..N3 is not counted from a night", "xcraft", lambda: G("draw", [[], [], []], [None, None, None]),
     "I.1.4"),
    ("xcraft Ex 6: draw at D5", "xcraft", lambda: G("draw", [[], [10], [], [], []], [3, None, None, None]), None),
    ("xcraft Ex 6: not yet at N4", "xcraft", lambda: G("draw", [[], [10], [], []], [3, None, None, None]), "I.1.4"),
    ("xcraft removal in the streak resets", "xcraft",
     lambda: G("draw", [[], [10], [], [], []], [3, None, None, None], removals=[(1, "disqualified", "N3")]),
     "I.1.4"),
    ("xcraft removal resets, draw later", "xcraft",
     lambda: G("draw", [[], [10], [], [], [], [], []], [3, None, None, None, None, None],
               removals=[(1, "disqualified", "N3")]), None),
    # moscow l.83: three misses in a row with the same count → red wins
    ("moscow 3 misses → red", "moscow", lambda: G("red", [[], [], []], [None, None, None]), None),
    ("moscow 3 misses: not a draw", "moscow", lambda: G("draw", [[], [], []], [None, None, None]), "l.83"),
    ("moscow 3 misses: not black", "moscow", lambda: G("black", [[], [], []], [None, None, None]), "l.83"),
    ("moscow vote-out between misses resets", "moscow",
     lambda: G("red", [[], [5], []], [None, None, None]), "l.64"),
    ("moscow after reset, 3 more misses", "moscow",
     lambda: G("red", [[], [5], [], []], [None, None, None, None]), None),
    # kamchatka: no rule, the game goes on
    ("kamchatka no draw", "kamchatka", lambda: G("draw", [[], [], [], []], [None, None, None]), "r.4"),
    ("kamchatka misses then red win", "kamchatka",
     lambda: G("red", [[], [], [], [], [2], [6], [8]], [None, None, None, None, 3, 4]), None),
]


@pytest.mark.parametrize("slug,factory,expect", [c[1:] for c in DRAW_CASES], ids=[c[0] for c in DRAW_CASES])
def test_draw_rules(slug, factory, expect):
    assert_verdict(factory(), slug, expect)


# ------------------------------------------------------------------------------------------ docs/rules.md D10 + lift bans
def four_alive(day4, result, more_days=(), more_nights=()):
    """D1 2 out, N1 kill 1, D2 6 out, N2 kill 3, D3 4 out, N3 kill 5 → 7, 8, 9, 10 (one black, 8) at D4."""
    return G(result, [[2], [6], [4], day4, *more_days], [1, 3, 5, *more_nights])


TIE_4 = ([(7, 8), (8, 7)], [(8, 2), (7, 2)], [[(8, 2), (7, 2)]])
LIFT_CASES = [
    ("xcraft 4 alive 2 tied: no lift (S7.6)", "xcraft",
     lambda: four_alive(V(*TIE_4, out=[]), "red", [[8]], [7]), None),
    ("xcraft 4 alive 2 tied: lift recorded", "xcraft", lambda: four_alive(V(*TIE_4, lift=3, out=[7, 8]), "red"),
     "S7.6"),
    ("cml lift of 2 at 4 allowed", "cml", lambda: four_alive(V(*TIE_4, lift=3, out=[7, 8]), "red"), None),
    ("moscow lift of 2 at 4 allowed", "moscow", lambda: four_alive(V(*TIE_4, lift=3, out=[7, 8]), "red"), None),
    ("cml lift at 4 fails on 2 of 4", "cml", lambda: four_alive(V(*TIE_4, lift=2, out=[]), "red", [[8]], [7]), None),
    ("cml lift at 4 fails but out recorded", "cml", lambda: four_alive(V(*TIE_4, lift=2, out=[7, 8]), "red"),
     "I.6.18"),
    # 3 alive (8, 9, 10) 3 tied twice: xcraft S7.5 (also S7.10: all at the table); cml I.8.6
    ("xcraft 3 alive 3 tied: no lift", "xcraft",
     lambda: four_alive([7], "red", [V([(8, 9), (9, 10), (10, 8)], [(9, 1), (10, 1), (8, 1)],
                                       [[(9, 1), (10, 1), (8, 1)]], lift=2, out=[])], [None]), "S7."),
    ("xcraft 3 alive 3 tied, night falls", "xcraft",
     lambda: four_alive([7], "red", [V([(8, 9), (9, 10), (10, 8)], [(9, 1), (10, 1), (8, 1)],
                                       [[(9, 1), (10, 1), (8, 1)]], out=[]), [8]], [None, None]), None),
    ("cml 3 alive 3 tied: no lift (I.8.6)", "cml",
     lambda: four_alive([7], "red", [V([(8, 9), (9, 10), (10, 8)], [(9, 1), (10, 1), (8, 1)],
                                       [[(9, 1), (10, 1), (8, 1)]], lift=2, out=[])], [None]), "I.8.6"),
    # all tied at 10 on Day 1: xcraft S7.10, cml I.8.6 / I.6.18.1
    ("xcraft all 10 tied: no lift", "xcraft",
     lambda: G("red", [V([(s, s % 10 + 1) for s in range(1, 11)], [(s % 10 + 1, 1) for s in range(1, 11)],
                         [[(s % 10 + 1, 1) for s in range(1, 11)]], lift=6, out=list(range(1, 11)))]), "S7.10"),
    # cml Day 1: 5-way tie (I.6.18.1): night falls, nobody leaves
    ("cml D1 5 tied: lift recorded", "cml",
     lambda: G("red", [V([(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)], [(2, 2), (4, 2), (6, 2), (8, 2), (10, 2)],
                         [[(2, 2), (4, 2), (6, 2), (8, 2), (10, 2)]], lift=6, out=[2, 4, 6, 8, 10])], [3]),
     "I.6.18.1"),
    ("cml D1 5 tied twice: night", "cml",
     lambda: G("red", [V([(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)], [(2, 2), (4, 2), (6, 2), (8, 2), (10, 2)],
                         [[(2, 2), (4, 2), (6, 2), (8, 2), (10, 2)]], out=[]), *RED_DAYS[1:]], RED_NIGHTS), None),
    ("cml D1 5 tied once: night at once (I.6.18.1)", "cml",
     lambda: G("red", [V([(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)], [(2, 2), (4, 2), (6, 2), (8, 2), (10, 2)],
                         out=[]), *RED_DAYS[1:]], RED_NIGHTS), None),
    ("xcraft D1 5 tied: lift allowed", "xcraft",
     lambda: G("red", [V([(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)], [(2, 2), (4, 2), (6, 2), (8, 2), (10, 2)],
                         [[(2, 2), (4, 2), (6, 2), (8, 2), (10, 2)]], lift=6, out=[2, 4, 6, 8, 10])]), None),
    # cml: 9 alive, 3 tied (I.8.7)
    ("cml 9 alive 3 tied: lift recorded", "cml",
     lambda: G("red", [[], V([(2, 3), (4, 5), (6, 7)], [(3, 3), (5, 3), (7, 3)], [[(3, 3), (5, 3), (7, 3)]],
                             lift=5, out=[3, 5, 7])], [1]), "I.8.7"),
    ("cml 9 alive 3 tied: night", "cml",
     lambda: G("red", [[], V([(2, 3), (4, 5), (6, 7)], [(3, 3), (5, 3), (7, 3)], [[(3, 3), (5, 3), (7, 3)]],
                             out=[]), [2], [6], [8]], [1, 4, 3, 5]), None),
    ("xcraft 9 alive 3 tied: lift allowed", "xcraft",
     lambda: G("black", [[], V([(2, 3), (4, 5), (6, 7)], [(3, 3), (5, 3), (7, 3)], [[(3, 3), (5, 3), (7, 3)]],
                               lift=5, out=[3, 5, 7])], [1]), None),
    ("lift passes only with a majority (5 of 10)", "xcraft",
     lambda: G("red", [V([(2, 5), (6, 9)], [(5, 5), (9, 5)], [[(5, 5), (9, 5)]], lift=5, out=[5, 9])]),
     "4.4.15"),
]


@pytest.mark.parametrize("slug,factory,expect", [c[1:] for c in LIFT_CASES], ids=[c[0] for c in LIFT_CASES])
def test_lifts(slug, factory, expect):
    assert_verdict(factory(), slug, expect)


# ------------------------------------------------------------------------------------------ vote cancellation
# Base: D1 none; N1 kill 3; D2 …; N2 kill 4; D3 2 out; N3 kill 1; D4 6 out; N4 miss?; … built per case.
D2_VOTE = V([(1, 5), (2, 7)], [(5, 6), (7, 3)], out=[5])  # 9 alive


def cancel_game(d2, removal, d3=None, *, alive_d2=9):
    """D1 none; N1 kill 3; D2 (given); N2 kill 4; D3 (given or 2 out); N3 kill 1; D4 6 out; N4 kill 9? …

    Kept simple: the game is entered in progress, only validity of the vote days is asserted."""
    days = [[], d2, d3 if d3 is not None else [2]]
    return G(None, days, [3, 4], removals=[removal])


def cancel_errors(protocol, slug):
    return [e for e in (f"{p.field}: {p.message}" for p in validate(protocol, PRESETS[slug], finished=False)
                        if p.is_error)]


CANCEL_CASES = [
    # 000 S7.1: a removal on a day → no vote that day
    ("xcraft D2 removal before vote cancels D2", "xcraft", lambda: cancel_game(D2_VOTE, (9, "disqualified", "D2")),
     "S7.1"),
    ("xcraft D2 removal before vote, no vote", "xcraft", lambda: cancel_game([], (9, "disqualified", "D2")), None),
    # 000 S7.2: after the result, not the one leaving → no vote next day
    ("xcraft after-vote removal cancels D3", "xcraft",
     lambda: cancel_game(V([(1, 5), (2, 7)], [(5, 6), (7, 3)], out=[5]), (8, "fouls", "D2", True)), "S7.2"),
    ("xcraft after-vote removal, D3 without vote", "xcraft",
     lambda: cancel_game(V([(1, 5), (2, 7)], [(5, 6), (7, 3)], out=[5]), (8, "fouls", "D2", True), []), None),
    ("xcraft voted-out player removed in last word: D3 votes", "xcraft",
     lambda: cancel_game(V([(1, 5), (2, 7)], [(5, 6), (7, 3)], out=[5]), (5, "disqualified", "D2", True)), None),
    # 000 S7.1 has no exception for the night victim (002 I.8.1 has): a DQ in his morning last word cancels D2
    ("xcraft night victim removed in last word cancels D2", "xcraft",
     lambda: cancel_game(D2_VOTE, (3, "disqualified", "D2")), "S7.1"),
    # 002 I.8.1: nearest/current vote not held, except the night victim / the one leaving by this vote
    ("cml D2 removal before vote cancels D2", "cml", lambda: cancel_game(D2_VOTE, (9, "disqualified", "D2")),
     "I.8.1"),
    ("cml night victim removed in last word: D2 votes", "cml",
     lambda: cancel_game(V([(1, 5), (2, 7)], [(5, 6), (7, 3)], out=[5]), (3, "disqualified", "D2")), None),
    ("cml night victim removed at night: D2 votes", "cml",
     lambda: cancel_game(V([(1, 5), (2, 7)], [(5, 6), (7, 3)], out=[5]), (3, "disqualified", "N1")), None),
    ("cml voted-out player removed in farewell: D3 votes", "cml",
     lambda: cancel_game(V([(1, 5), (2, 7)], [(5, 6), (7, 3)], out=[5]), (5, "disqualified", "D2", True)), None),
    ("cml after-vote removal cancels D3 (I.8.2)", "cml",
     lambda: cancel_game(V([(1, 5), (2, 7)], [(5, 6), (7, 3)], out=[5]), (8, "fouls", "D2", True)), "I.8.2"),
    ("cml night removal cancels next day", "cml",
     lambda: G(None, [[], [5], [2]], [3, 4], removals=[(8, "disqualified", "N2")]), "I.8."),
    # 003 l.81: only a removed nominee cancels the vote
    ("moscow nominee removed: no vote", "moscow", lambda: cancel_game(D2_VOTE, (7, "disqualified", "D2")), "l.81"),
    ("moscow non-nominee removed: vote goes on", "moscow",
     lambda: cancel_game(V([(1, 5), (2, 7)], [(5, 5), (7, 3)], out=[5]), (8, "disqualified", "D2")), None),
    ("moscow after-vote removal: next day votes", "moscow",
     lambda: cancel_game(V([(1, 5), (2, 7)], [(5, 6), (7, 3)], out=[5]), (8, "fouls", "D2", True)), None),
]


@pytest.mark.parametrize("slug,factory,expect", [c[1:] for c in CANCEL_CASES], ids=[c[0] for c in CANCEL_CASES])
def test_vote_cancellation(slug, factory, expect):
    errs = cancel_errors(factory(), slug)
    if expect is None:
        assert errs == [], errs
    else:
        assert any(expect in e for e in errs), (expect, errs)


# ------------------------------------------------------------------------------------------ game end
END_CASES = [
    # Ex 16: DQ of red 10 on D5 → 2 v 2 → black at once (002 I.1.4, docs/rules.md A5)
    ("DQ ends the game (cml)", "cml",
     lambda: G("black", [[], [2], [7], [], []], [3, 5, 9, None], removals=[(10, "disqualified", "D5")]), None),
    ("DQ ends the game (xcraft)", "xcraft",
     lambda: G("black", [[], [2], [7], [], []], [3, 5, 9, None], removals=[(10, "disqualified", "D5")]), None),
    ("DQ ends the game: red declared", "cml",
     lambda: G("red", [[], [2], [7], [], []], [3, 5, 9, None], removals=[(10, "disqualified", "D5")]), "I.1.4"),
    ("DQ ends the game: later vote", "cml",
     lambda: G("black", [[], [2], [7], [], [4]], [3, 5, 9, None], removals=[(10, "disqualified", "D5")]), "D5"),
    ("DQ of the last black → red", "xcraft",
     lambda: G("red", [[], [2], [6]], [3, 4], removals=[(8, "fouls", "D3", True)]), None),
    ("ppk of a red → black (xcraft)", "xcraft", lambda: G("black", [[], []], [1], removals=[(5, "ppk", "D2")]), None),
    ("ppk of a red → black (cml)", "cml", lambda: G("black", [[], []], [1], removals=[(5, "ppk", "D2")]), None),
    ("ppk of a red: red declared", "cml", lambda: G("red", [[], []], [1], removals=[(5, "ppk", "D2")]), "II.3"),
    ("ppk of a black → red (moscow l.135)", "moscow", lambda: G("red", [[]], [], removals=[(8, "ppk", "D1")]), None),
    ("ppk: nothing after it", "xcraft", lambda: G("black", [[], []], [1, 3], removals=[(5, "ppk", "D2")]), "N2"),
    ("black at equality by vote", "cml", black_win, None),
    ("black at equality: more play recorded", "cml", lambda: G("black", BLACK_DAYS, BLACK_NIGHTS + [1]), "N3"),
    ("black at equality by a night kill", "xcraft", lambda: G("black", [[], [2], [5], []], [3, 4, 1, 9]), None),
    ("black when a lift skips equality (blacks > reds)", "cml",
     lambda: G("black", [[3], V([(2, 4), (6, 5), (8, 7), (10, 9)], [(4, 2), (5, 2), (7, 2), (9, 2)],
                                 [[(4, 2), (5, 2), (7, 2), (9, 2)]], lift=5, out=[4, 5, 7, 9])], [1]), None),
    ("red when the last black is voted out", "moscow", red_win, None),
    ("red win: night after the end", "moscow", lambda: G("red", RED_DAYS, RED_NIGHTS + [5]), "N4"),
    ("result missing the win", "xcraft", lambda: G("red", RED_DAYS[:3], RED_NIGHTS), "I.1.4"),
]


@pytest.mark.parametrize("slug,factory,expect", [c[1:] for c in END_CASES], ids=[c[0] for c in END_CASES])
def test_game_end(slug, factory, expect):
    assert_verdict(factory(), slug, expect)


def test_ex16_totals():
    protocol = G("black", [[], [2], [7], [], []], [3, 5, 9, None], removals=[(10, "disqualified", "D5")])
    check_totals(protocol, "cml", {2: 1, 6: 1, 8: 1, 10: "-0.5"})


# ------------------------------------------------------------------------------------------ worked examples (docs/rules.md Ex)
def test_ex1_cml():
    protocol = G("red", [[8], [2], [6]], [3, 4], bm=[2, 6, 9], judge={7: 0.4, 1: 0.3, 3: 0.2, 2: 0.2})
    assert errors(protocol, "cml") == []
    check_totals(protocol, "cml", {1: "1.3", 2: "0.2", 3: "1.3", 4: 1, 5: 1, 7: "1.4", 9: 1, 10: 1})
    errs = errors(protocol, "xcraft")
    assert any("T6.1.1" in e for e in errs) and any("T6.1.2" in e for e in errs)


def test_ex9_both():
    protocol = G("black", [[], [1], [5]], [4, 3], bm=[2, 6, 8], judge={6: 0.7, 4: 0.3}, approved=(6,))
    assert errors(protocol, "xcraft") == [] and errors(protocol, "cml") == []
    check_totals(protocol, "xcraft", {4: "0.7", 6: "1.7", 2: 1, 8: 1})
    games = [protocol] + [red_win(players={5: "W"}) for _ in range(3)]
    protocol.seats[3].player = "W"  # seat 4's player W: 4 red cards, 1 N1 death → 0.25
    got = score_tournament(games, PRESETS["cml"])[0]
    assert got.seat(4).total == D("0.75") and got.seat(6).total == D("1.7")


def test_decision_12_protest_window():
    assert all(rs.protest_window_minutes == 10 for rs in PRESETS.values())


# ------------------------------------------------------------------------------------------ ППК by a player already out
PPK_OUT_CASES = [
    # 000 D6.8.5 / 003 l.135: an eliminated player interferes → his team is awarded the defeat (docs/rules.md I5, I30)
    ("eliminated black hints → red (xcraft)", "xcraft", lambda: G("red", [[], [2], []], [3, 4],
                                                                    removals=[(2, "ppk", "D3")]), None),
    ("eliminated black hints → red (moscow)", "moscow", lambda: G("red", [[], [2], []], [3, 4],
                                                                    removals=[(2, "ppk", "D3")]), None),
    ("eliminated red hints → black (cml)", "cml", lambda: G("black", [[], [5]], [3],
                                                              removals=[(3, "ppk", "D2", True)]), None),
    ("eliminated player ppk: black declared", "xcraft", lambda: G("black", [[], [2], []], [3, 4],
                                                                    removals=[(2, "ppk", "D3")]), "D6.8"),
    # 002 II.3.5: a ППК in one's farewell minute (after being voted out) still awards the defeat
    ("ppk in the farewell minute (cml)", "cml",
     lambda: G("red", [[], [2]], [3], removals=[(2, "ppk", "D2", True)]), None),
    ("ppk in the farewell minute, play continues", "cml",
     lambda: G("red", [[], [2], [6], [8]], [3, 4, 1], removals=[(2, "ppk", "D2", True)]), "II.3"),
    ("night victim's ppk in his last word (xcraft)", "xcraft",
     lambda: G("black", [[], []], [5], removals=[(5, "ppk", "D2")]), None),
]


@pytest.mark.parametrize("slug,factory,expect", [c[1:] for c in PPK_OUT_CASES], ids=[c[0] for c in PPK_OUT_CASES])
def test_ppk_by_player_already_out(slug, factory, expect):
    assert_verdict(factory(), slug, expect)


def test_ppk_by_player_already_out_scores():
    protocol = G("black", [[], [5]], [3], removals=[(3, "ppk", "D2", True)])
    check_totals(protocol, "cml", {2: 1, 6: 1, 8: 1, 3: "-0.7"})


TEN = [(s % 10 + 1, 1) for s in range(1, 11)]  # seat s nominates s+1; each nominee gets one vote
TEN_NOMS = [(s, s % 10 + 1) for s in range(1, 11)]
TEN_CASES = [
    ("cml D1 10 tied once: night", "cml", lambda: G("red", [V(TEN_NOMS, TEN, out=[]), *RED_DAYS[1:]], RED_NIGHTS),
     None),
    ("cml D1 10 tied twice: night", "cml",
     lambda: G("red", [V(TEN_NOMS, TEN, [TEN], out=[]), *RED_DAYS[1:]], RED_NIGHTS), None),
    ("cml D1 10 tied: lift recorded", "cml",
     lambda: G("red", [V(TEN_NOMS, TEN, [TEN], lift=6, out=[]), *RED_DAYS[1:]], RED_NIGHTS), "no lift vote"),
    ("xcraft D1 10 tied once: re-vote needed", "xcraft",
     lambda: G("red", [V(TEN_NOMS, TEN, out=[]), *RED_DAYS[1:]], RED_NIGHTS), "4.4.14"),
    ("xcraft D1 10 tied twice: night (S7.10)", "xcraft",
     lambda: G("red", [V(TEN_NOMS, TEN, [TEN], out=[]), *RED_DAYS[1:]], RED_NIGHTS), None),
    ("cml D2 5 tied once: re-vote needed (Day 1 only)", "cml",
     lambda: G(None, [[], V([(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)], [(2, 2), (4, 2), (6, 2), (8, 2), (10, 2)],
                            out=[])], [None, None]), "I.6.18"),
]


@pytest.mark.parametrize("slug,factory,expect", [c[1:] for c in TEN_CASES], ids=[c[0] for c in TEN_CASES])
def test_day1_big_ties(slug, factory, expect):
    protocol = factory()
    errs = [f"{p.field}: {p.message}" for p in validate(protocol, PRESETS[slug], finished=False) if p.is_error]
    if expect is None:
        assert errs == [], errs
    else:
        assert any(expect in e for e in errs), (expect, errs)


def test_moscow_three_misses_scores_red():
    check_totals(G("red", [[], [], []], [None, None, None]), "moscow", REDS)
