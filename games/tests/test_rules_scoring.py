"""Scoring (games/rules/scoring.py) against the worked examples of docs/rules.md (Ex 1–18), one row per example."""

from __future__ import annotations

import ast
import pathlib
from dataclasses import replace
from decimal import Decimal

import pytest

from games.rules.protocol import Protocol
from games.rules.ruleset import CML, XCRAFT
from games.rules.scoring import (
    ADJUSTMENT,
    BEST_MOVE,
    CI,
    JUDGE_EXTRA,
    KINDS,
    MAIN,
    PPK_PENALTY,
    REMOVAL_PENALTY,
    WRONG_COLOUR,
    ci_counts,
    ci_from_counts,
    ci_values,
    score_game,
    score_tournament,
)
from games.tests.rules_builders import (
    BLACK,
    DRAW,
    RED,
    D,
    ex1,
    ex2,
    ex3,
    ex4,
    ex5,
    ex6_cml,
    ex6_xcraft,
    ex7,
    ex8,
    ex9,
    ex10,
    ex11,
    ex15,
    ex16,
    ex18,
    game,
    totals,
)

XCRAFT_8_3 = replace(XCRAFT, best_move_points={2: D("0.2"), 3: D("0.3")})  # docs/rules.md A1, the 8.3 values

# (id with the deciding clause, rule set, protocol, ci, expected totals of seats 1..10)
EXAMPLES = [
    ("ex01-cml-002_III.11_bm_beats_judge", CML, ex1(), None,
     totals(1.3, 0.2, 1.3, 1.0, 1.0, 0, 1.4, 0, 1.0, 1.0)),
    ("ex02-cml-002_III.2_bm3_plus_ci", CML, ex2(), {3: D("0.333333")},
     totals(0, 1.3, 0.833333, 0.3, 0, 1.5, 0, 1.2, 0, 0)),
    ("ex03-cml-002_III.11_judge_beats_bm", CML, ex3(), None,
     totals(1, 0, 1, 1.3, 1.6, 0, 1, 0, 1, 1)),
    ("ex03b-cml-002_III.11_small_judge_void", CML, ex3(judge={5: "0.2", 4: "0.3"}), None,
     totals(1, 0, 1, 1.3, 1.3, 0, 1, 0, 1, 1)),
    ("ex04-cml-002_III.4.2_and_small_ci", CML, ex4(), {10: D("0.125")},
     totals(0.4, 1, 0, 0.5, 0, 1.7, 0, 1, 0.3, 0.125)),
    ("ex05-cml-002_III.5_recorded_colours", CML, ex5(), {9: D("0.2")},
     totals(-0.3, 1, 0.3, 0, 0.3, 1.4, -0.3, 1.3, 0.5, 0)),
    ("ex06-cml-002_III.13_draw", CML, ex6_cml(), None,
     totals(0.2, 0, 0.5, 0.3, 0, 0, 0, -0.3, 0, 0)),
    ("ex06-xcraft-000_T6.1.6_draw", XCRAFT, ex6_xcraft(), None,
     totals(0, 0, 0.4, 0, 0, 0, 0, 0, 0, 0)),
    ("ex07-xcraft-000_BM-4_and_8.2.4", XCRAFT, ex7(), None,
     totals(1, 0, 1, 1.7, 1, 0, 0.5, 0, 1.3, 1.25)),
    ("ex07-xcraft-000_8.3_values", XCRAFT_8_3, ex7(), None,
     totals(1, 0, 1, 1.7, 1, 0, 0.5, 0, 1.3, 1.2)),
    ("ex08-cml-002_III.1.6_ppk", CML, ex8(), None,
     totals(1.3, 0, 1, 1, 1, 0, 1, -0.7, 1, 1)),
    ("ex08-xcraft-000_D6.8_ppk", XCRAFT, ex8(), None,
     totals(1.25, 0, 1, 1, 1, 0, 1, 0, 1, 1)),
    ("ex09-xcraft-000_A2_additive", XCRAFT, ex9(), None,
     totals(0, 1, 0, 0.7, 0, 1.7, 0, 1, 0, 0)),
    ("ex09-cml-002_III.11_bm_beats_judge", CML, ex9(), {4: D("0.25")},
     totals(0, 1, 0, 0.75, 0, 1.7, 0, 1, 0, 0)),
    ("ex10-cml-002_I.7.8_no_bm_ci_due", CML, ex10(), {3: D("0.333333")},
     totals(0, 1, 0.333333, 0, -0.3, 1, 0, 1, -0.3, 0)),
    ("ex10-xcraft-000_S7.12", XCRAFT, ex10(penalties=False), None,
     totals(0, 1, 0, 0, 0, 1, 0, 1, 0, 0)),
    ("ex11-cml-002_III.5_l.309_self_shot", CML, ex11(), None,
     totals(1, 0, 1, 1, 1, 0, 1, 0, 1, 1)),
    ("ex15-cml-002_III.10_one_act_one_penalty", CML, ex15(), None,
     totals(0, 1, 0, -0.5, 0, 1.4, 0, 1.4, -0.5, 0)),
    ("ex16-cml-002_III.1.5_dq", CML, ex16(), None,
     totals(0, 1, 0, 0, 0, 1, 0, 1, 0, -0.5)),
    ("ex16-xcraft-000_8.2.4_dq", XCRAFT, ex16(), None,
     totals(0, 1, 0, 0, 0, 1, 0, 1, 0, -0.5)),
    ("ex18-cml-original", CML, ex18(), {3: D("0.25")},
     totals(0.3, 1, 0.55, -0.3, 0, 1.5, 0, 1, 0, 0)),
]


@pytest.mark.parametrize(("ruleset", "protocol", "ci", "expected"), [row[1:] for row in EXAMPLES],
                         ids=[row[0] for row in EXAMPLES])
def test_worked_example_totals(ruleset, protocol, ci, expected):
    score = score_game(protocol, ruleset, ci=ci)
    assert score.totals() == expected


@pytest.mark.parametrize(("ruleset", "protocol", "ci"), [row[1:4] for row in EXAMPLES], ids=[row[0] for row in EXAMPLES])
def test_every_item_names_its_clause_and_columns_add_up(ruleset, protocol, ci):
    score = score_game(protocol, ruleset, ci=ci)
    for seat in score.seats:
        assert seat.total == seat.main + seat.extras
        for item in seat.items:
            assert item.kind in KINDS
            assert item.clause.strip(), item
        assert seat.main == sum((i.points for i in seat.items if i.kind == MAIN and i.effective), Decimal(0))


# ------------------------------------------------------------------------------------------------ best move
def test_bm_beats_smaller_judge_extra_and_keeps_it_void_002_III_11():
    seat3 = score_game(ex1(), CML).seat(3)
    (bm,) = seat3.items_of(BEST_MOVE)
    (judge,) = seat3.items_of(JUDGE_EXTRA)
    assert (bm.points, bm.effective, bm.clause) == (D("0.3"), True, "002 III.2")
    assert (judge.points, judge.effective, judge.clause, judge.source) == (D("0.2"), False, "002 III.11", "judge")
    assert seat3.extras == D("0.3")


def test_larger_judge_extra_counts_and_bm_is_kept_void_002_III_11():
    seat5 = score_game(ex3(), CML).seat(5)
    (bm,) = seat5.items_of(BEST_MOVE)
    (judge,) = seat5.items_of(JUDGE_EXTRA)
    assert (bm.points, bm.effective) == (D("0.3"), False)
    assert (judge.points, judge.effective) == (D("0.6"), True)


def test_judge_extra_equal_to_bm_counts_instead_of_the_bm_A13():
    seat5 = score_game(ex3(judge={5: "0.3", 4: "0.3"}), CML).seat(5)
    assert [(i.kind, i.effective) for i in seat5.items if i.kind != MAIN] == [(BEST_MOVE, False), (JUDGE_EXTRA, True)]
    assert seat5.total == D("1.3")


def test_bm_and_judge_extra_add_up_in_xcraft_A2():
    seat4 = score_game(ex9(), XCRAFT).seat(4)
    assert [(i.kind, i.points, i.effective) for i in seat4.items] == [
        (BEST_MOVE, D("0.4"), True), (JUDGE_EXTRA, D("0.3"), True)]
    assert seat4.items_of(BEST_MOVE)[0].clause == "000 BM-4"


def test_bm_clause_follows_the_chosen_values_A1():
    assert score_game(ex7(), XCRAFT_8_3).seat(10).items_of(BEST_MOVE)[0].clause == "000 8.3"


def test_bm_without_the_right_scores_nothing_decision_3():
    # Ex 10: two left on Day 1; a best move entered anyway (the validator reports it) gives no points.
    protocol = ex10(bm=[2, 6, 8])
    assert score_game(protocol, CML).seat(3).items_of(BEST_MOVE) == []


def test_black_victim_bm_scores_nothing_002_III_2():
    # Ex 11: a self-shot black names three reds and blacks alike — points only for a red victim.
    protocol = game(RED, outs=[[], [2], [6]], kills=[8, 1], bm=[2, 6, 1])
    assert score_game(protocol, CML).seat(8).items == []


def test_bm_with_one_black_scores_nothing():
    assert score_game(ex4(), CML).seat(10).items_of(BEST_MOVE) == []


def test_bm_not_paid_in_a_draw_when_the_rule_set_says_so():
    ruleset = replace(CML, best_move_in_draw=False)
    assert score_game(ex6_cml(), ruleset).seat(3).total == 0
    assert score_game(ex6_cml(), CML).seat(3).total == D("0.5")  # III.13


# ------------------------------------------------------------------------------------------------ main points
def test_removed_and_eliminated_winners_get_the_win_point_A6():
    score = score_game(ex7(), XCRAFT)
    assert [s.seat for s in score.seats if s.main == 1] == [1, 3, 4, 5, 7, 9, 10]
    assert all(s.won for s in score.seats if s.main == 1)


def test_a_draw_gives_no_main_points_and_nobody_won():
    score = score_game(ex6_cml(), CML)
    assert all(s.main == 0 and not s.won for s in score.seats)


# ------------------------------------------------------------------------------------------------ penalties
def test_removal_penalty_is_an_extra_in_both_columns_decision_7():
    seat7 = score_game(ex7(), XCRAFT).seat(7)
    (penalty,) = seat7.items_of(REMOVAL_PENALTY)
    assert (penalty.points, penalty.clause) == (D("-0.5"), "000 8.2.4")
    assert (seat7.main, seat7.extras, seat7.total) == (1, D("-0.5"), D("0.5"))
    assert seat7.tiebreak_extras == D("-0.5")  # 000: the DQ penalty is an extra (8.2.4, docs/rules.md A16)


def test_cml_penalties_stay_out_of_the_tiebreak_extras_002_III_14():
    seat8 = score_game(ex8(), CML).seat(8)
    (ppk,) = seat8.items_of(PPK_PENALTY)
    assert (ppk.points, ppk.clause) == (D("-0.7"), "002 III.1.6")
    assert seat8.items_of(REMOVAL_PENALTY) == []  # -0.7 instead of -0.5 (III.10)
    assert (seat8.extras, seat8.tiebreak_extras) == (D("-0.7"), 0)
    seat10 = score_game(ex16(), CML).seat(10)
    assert (seat10.extras, seat10.tiebreak_extras) == (D("-0.5"), 0)


def test_ppk_has_no_number_in_xcraft_000_D6_8():
    assert score_game(ex8(), XCRAFT).seat(8).items == []


def test_wrong_recorded_colour_costs_0_3_002_III_5():
    (item,) = score_game(ex5(), CML).seat(7).items_of(WRONG_COLOUR)
    assert (item.points, item.clause) == (D("-0.3"), "002 III.5 l.311")
    assert score_game(ex5(), CML).seat(5).items_of(WRONG_COLOUR) == []  # 8 is black: correct colour


def test_wrong_recorded_colour_costs_0_3_even_when_red_wins_002_III_5_l311():
    protocol = game(RED, outs=[[], [2], [6]], kills=[3, 1], colours=[(3, 4)], bm=[2, 6, 4])
    seat3 = score_game(protocol, CML).seat(3)
    assert [i.kind for i in seat3.items] == [MAIN, BEST_MOVE, WRONG_COLOUR]
    assert seat3.total == D("1") + D("0.3") - D("0.3")


def test_self_shot_black_gets_no_colour_penalty_002_III_5_l309():
    assert score_game(ex11(), CML).seat(8).items_of(WRONG_COLOUR) == []


def test_no_colour_penalty_where_colours_are_not_a_rule():
    assert score_game(ex5(), XCRAFT).seat(7).items_of(WRONG_COLOUR) == []


def test_adjustments_keep_their_clause_and_count_as_judge_items():
    seat4 = score_game(ex15(), CML).seat(4)
    (item,) = seat4.items
    assert (item.kind, item.points, item.clause, item.source) == (ADJUSTMENT, D("-0.5"), "002 III.6/-0.5 #10.2",
                                                                  "judge")


def test_judge_extras_in_a_xcraft_draw_are_kept_void_000_T6_1_6():
    score = score_game(ex6_xcraft(), XCRAFT)
    (item,) = score.seat(4).items
    assert (item.kind, item.effective, item.clause) == (JUDGE_EXTRA, False, "000 T6.1.6")
    assert score.seat(4).total == 0


# ------------------------------------------------------------------------------------------------ Ci (002 III.3)
def red_game(index: int, seat: int, *, killed: bool, result: str) -> Protocol:
    """A filler game of the tournament where P holds the card of `seat` (L1) and is or is not shot on Night 1."""
    other = 5 if seat != 5 else 7
    return game(result, outs=[[], []], kills=[seat if killed else other], players={seat: "P"}, prefix=f"g{index}_")


def test_ci_ex2_two_kills_in_six_red_cards():
    games = [ex2(players={3: "P"})]
    games += [red_game(1, 1, killed=True, result=RED)]  # a Night-1 death in a won game: counts in K, no credit
    games += [red_game(i, 1, killed=False, result=BLACK) for i in range(2, 6)]
    ci = ci_values(games, CML)
    assert ci[0] == {3: D("0.333333")}
    assert ci[1] == {}
    assert score_tournament(games, CML)[0].seat(3).total == D("0.833333")


def test_ci_ex4_one_kill_in_eight_red_cards():
    games = [ex4(players={10: "P"})] + [red_game(i, 4, killed=False, result=RED) for i in range(1, 8)]
    assert ci_values(games, CML)[0] == {10: D("0.125")}


def test_ci_ex9_sheriff_card_counts_as_red():
    games = [ex9(players={4: "P"})] + [red_game(i, 1, killed=False, result=RED) for i in range(1, 4)]
    assert ci_values(games, CML)[0] == {4: D("0.25")}
    assert score_tournament(games, CML)[0].seat(4).total == D("0.75")


def test_ci_ex10_still_due_without_the_bm_right_A8():
    games = [ex10(players={3: "P"})] + [red_game(i, 1, killed=False, result=RED) for i in range(1, 3)]
    assert ci_values(games, CML)[0] == {3: D("0.333333")}
    (item,) = score_tournament(games, CML)[0].seat(3).items_of(CI)
    assert (item.points, item.clause) == (D("0.333333"), "002 III.3")


def test_ci_ex12_interpretation_a_capped_and_only_in_lost_games():
    # P: red in games 1, 2, 4, 5, 7 (as Ш), 9, 10; black in 3, 6, 8. Killed on Night 1 as red in 2, 5, 9;
    # red lost 2 and 9, won 5. Game 6: P (black) is shot by his own team — not a red card, no Ci.
    plan = {
        1: (1, False, RED), 2: (1, True, BLACK), 3: (2, False, RED), 4: (1, False, BLACK), 5: (1, True, RED),
        6: (2, True, BLACK), 7: (4, False, BLACK), 8: (2, False, BLACK), 9: (1, True, BLACK), 10: (1, False, DRAW),
    }
    games = [red_game(index, seat, killed=killed, result=result) for index, (seat, killed, result) in plan.items()]
    ci = ci_values(games, CML)
    credited = {index: ci[index - 1].get(seat) for index, (seat, _, _) in plan.items() if seat in ci[index - 1]}
    assert credited == {2: D("0.4"), 9: D("0.4")}  # min(0.4, 3/7)
    scores = score_tournament(games, CML)
    p_ci = sum(item.points for s in scores for seat in s.seats if seat.player == "P" for item in seat.items_of(CI))
    assert p_ci == D("0.8")


def test_ci_is_not_credited_in_a_draw_A8():
    games = [game(DRAW, outs=[[], [], [], []], kills=[1, None, None, None], players={1: "P"})]
    assert ci_values(games, CML) == [{}]


@pytest.mark.parametrize(("red_cards", "expected"), [(6, "0.166667"), (128, "0.007813"), (2, "0.4")],
                         ids=["1/6", "1/128-half-up", "1/2-capped"])
def test_ci_rounds_half_up_to_six_places(red_cards, expected):
    games = [game(BLACK, outs=[[]], kills=[1], players={1: "P"})]
    games += [red_game(i, 3, killed=False, result=RED) for i in range(1, red_cards)]
    assert ci_values(games, CML)[0] == {1: D(expected)}


def test_no_ci_outside_cml():
    assert ci_values([ex2(), ex4()], XCRAFT) == [{}, {}]
    assert score_tournament([ex2()], XCRAFT)[0].seat(3).items_of(CI) == []


# Ci by difference (docs/rules.md D4, 002 III.3): one game's share of the counts, and the credit from given counts.
def test_ci_counts_is_one_games_share_of_k_and_r():
    # L1: red = {1,3,4,5,7,9,10} (4 is the sheriff, a red card too), black = {2,6,8}; P on seat 1 is shot on Night 1.
    counts = ci_counts(game(BLACK, outs=[[]], kills=[1], players={1: "P", 4: "S", 2: "B"}))
    assert counts["P"] == (1, 1) and counts["S"] == (0, 1)
    assert "B" not in counts and len(counts) == 7
    assert ci_counts(game(BLACK, outs=[[]], kills=[None], players={1: "P"}))["P"] == (0, 1)  # a miss: no K
    assert ci_counts(game(BLACK, outs=[[]], kills=[2], players={2: "B"})).get("B") is None  # a black card: no R


@pytest.mark.parametrize(("result", "victim", "counts", "ruleset", "expected"), [
    (BLACK, 1, {"P": (1, 6)}, CML, {1: D("0.166667")}),     # K/R rounded half-up to six places (A7)
    (BLACK, 4, {"P": (3, 7)}, CML, {4: D("0.4")}),          # the sheriff's card is red; capped at 0.4
    (BLACK, 1, {"P": (1, 128)}, CML, {1: D("0.007813")}),
    (BLACK, 1, {"Q": (1, 1)}, CML, {}),                     # only the victim's counts matter; none: R = 0
    (BLACK, 1, {"P": (0, 3)}, CML, {}),                     # Ci 0 is not credited
    (RED, 1, {"P": (1, 2)}, CML, {}),                       # red won: no Ci (A8)
    (DRAW, 1, {"P": (1, 2)}, CML, {}),                      # a draw: no Ci (A8)
    (BLACK, 2, {"P": (1, 2)}, CML, {}),                     # a black victim: no Ci
    (BLACK, None, {"P": (1, 2)}, CML, {}),                  # a miss on Night 1: no victim
    (BLACK, 1, {"P": (1, 2)}, XCRAFT, {}),                  # no Ci outside the CML rules
], ids=["1/6", "sheriff-capped", "1/128", "no-counts", "zero", "red-won", "draw", "black-victim", "miss", "xcraft"])
def test_ci_from_counts_credits_the_red_night_one_victim_of_a_lost_game(result, victim, counts, ruleset, expected):
    protocol = game(result, outs=[[], [], [], []] if result == DRAW else [[]], kills=[victim],
                    players={victim or 1: "P"})
    assert ci_from_counts(protocol, counts, ruleset) == expected


def test_ci_from_counts_of_the_others_plus_one_game_equals_ci_values():
    # One game changes (its victim reversed to a miss): the counts of the other games plus its new share give the
    # credit of every game that ci_values gives over the whole list.
    games = [red_game(i, 1, killed=i % 2 == 0, result=BLACK if i % 3 else RED) for i in range(1, 9)]
    games[3] = replace(games[3], nights=[])
    others: dict[str, tuple[int, int]] = {}
    for g in games[:3] + games[4:]:
        for player, (k, r) in ci_counts(g).items():
            others[player] = (others.get(player, (0, 0))[0] + k, others.get(player, (0, 0))[1] + r)
    k, r = ci_counts(games[3])["P"]
    counts = {**others, "P": (others["P"][0] + k, others["P"][1] + r)}
    assert [ci_from_counts(g, counts, CML) for g in games] == ci_values(games, CML)
    assert any(ci_values(games, CML))


# ------------------------------------------------------------------------------------------------ purity
@pytest.mark.parametrize("path", ["games/rules/scoring.py", "games/rules/limits.py", "ratings/standings/ranking.py"])
def test_pure_modules_do_not_import_django(path):
    root = pathlib.Path(__file__).resolve().parents[2]
    tree = ast.parse((root / path).read_text())
    imported = [
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    ] + [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [name for name in imported if name.split(".")[0] == "django"]
