"""Scoring invariants (games/rules/limits.py, docs/rules.md I32–I40, D5): Ex 13 and the invalid
variants of the worked examples."""

from __future__ import annotations

import re

import pytest

from games.rules.limits import check_scoring
from games.rules.problems import ERROR, WARNING
from games.rules.ruleset import CML, KAMCHATKA, XCRAFT
from games.tests.rules_builders import (
    BLACK,
    DRAW,
    RED,
    ex1,
    ex2,
    ex3,
    ex4,
    ex5,
    ex6_cml,
    ex7,
    ex8,
    ex9,
    ex10,
    ex11,
    ex15,
    ex16,
    ex18,
    game,
)

CLAUSE = re.compile(r"^(\d{3} [^:]+|docs/rules\.md [^:]+):")


def clauses(problems, severity=ERROR) -> set[str]:
    found = set()
    for problem in problems:
        match = CLAUSE.match(problem.message)
        assert match, f"message does not start with a clause: {problem.message!r}"
        if problem.severity == severity:
            found.add(match.group(1))
    return found


def allocation(team_values: dict[int, str], result: str = RED, **kw):
    """Judge extras only (no night → no best move), layout L1."""
    return game(result, outs=[[]], judge=team_values, **kw)


RED_SEATS = (1, 3, 4, 5, 7, 9)
BLACK_SEATS = (2, 6, 8)


def red(*values):
    return dict(zip(RED_SEATS, values, strict=False))


def black(*values):
    return dict(zip(BLACK_SEATS, values, strict=False))


# docs/rules.md Ex 13, the 002 table (per team, III.4 / 4.2 / 4.3, docs/rules.md A10–A14).
EX13_CML = [
    ("red_0.7-ok", red("0.7"), set()),
    ("red_0.7+0.2-002_III.4.2", red("0.7", "0.2"), {"002 III.4.2"}),
    ("red_0.6+0.3-ok", red("0.6", "0.3"), set()),
    ("red_0.6+0.4-002_III.4.3", red("0.6", "0.4"), {"002 III.4.3"}),
    ("red_0.6+0.2+0.2-002_III.4.3", red("0.6", "0.2", "0.2"), {"002 III.4.3"}),
    ("red_0.5+0.4+0.3-ok", red("0.5", "0.4", "0.3"), set()),
    ("red_0.5+0.4+0.4-002_III.4_cap", red("0.5", "0.4", "0.4"), {"002 III.4"}),
    ("red_0.2x6-ok-002-l.293", red(*["0.2"] * 6), set()),
    ("black_0.5+0.5-ok", black("0.5", "0.5"), set()),
    ("black_0.4+0.4+0.3-002_III.4_cap", black("0.4", "0.4", "0.3"), {"002 III.4"}),
    ("any_0.1-002_III.4", red("0.1"), {"002 III.4"}),
    ("any_0.8-002_III.4", black("0.8"), {"002 III.4"}),
    ("any_0.25-002_III.4_A12", red("0.25"), {"002 III.4"}),
]


@pytest.mark.parametrize(("judge", "expected"), [row[1:] for row in EX13_CML], ids=[row[0] for row in EX13_CML])
def test_ex13_cml_allocations(judge, expected):
    assert clauses(check_scoring(allocation(judge), CML)) == expected


def test_ex13_cml_superseded_judge_extra_is_left_out_of_the_limits_and_warned_A14():
    # Seat 3 (BM victim, 3 blacks → 0.5) has J 0.4, void; seat 4 has J 0.7: valid on effective values, UI warns.
    protocol = game(RED, outs=[[], [2], [6], [8]], kills=[3, 1, 5], bm=[2, 6, 8], judge={3: "0.4", 4: "0.7"})
    problems = check_scoring(protocol, CML)
    assert clauses(problems) == set()
    (warned,) = [p for p in problems if p.severity == WARNING]
    assert (warned.field, clauses([warned], WARNING)) == ("judge_extras[0]", {"002 III.11"})


def test_judge_extra_equal_to_the_bm_counts_in_the_team_limit_A13():
    protocol = game(RED, outs=[[], [2], [6], [8]], kills=[3, 1, 5], bm=[2, 6, 9], judge={3: "0.3", 4: "0.7"})
    problems = check_scoring(protocol, CML)
    assert clauses(problems) == {"002 III.4.2"}
    assert {p.field for p in problems if p.is_error} == {"judge_extras[1]"}


# docs/rules.md Ex 13, the 000 table (per game, T6.1.x). Result red: red seats win, black seats lose.
EX13_XCRAFT = [
    ("winner_0.7+loser_0.3-ok", RED, {4: "0.7", 2: "0.3"}, set()),
    ("0.5+0.3+loser_0.3-000_T6.1.2", RED, {4: "0.5", 1: "0.3", 2: "0.3"}, {"000 T6.1.2"}),
    ("loser_0.5-000_T6.1.4", RED, {2: "0.5"}, {"000 T6.1.4"}),
    ("four_recipients-000_T6.1.1", RED, {1: "0.3", 3: "0.3", 2: "0.2", 6: "0.2"}, {"000 T6.1.1"}),
    ("any_extra_in_a_draw-000_T6.1.6", DRAW, {1: "0.2"}, {"000 T6.1.6"}),
    ("winner_0.8-000_T6.1.3", BLACK, {6: "0.8"}, {"000 T6.1.3"}),
]


@pytest.mark.parametrize(("result", "judge", "expected"), [row[1:] for row in EX13_XCRAFT],
                         ids=[row[0] for row in EX13_XCRAFT])
def test_ex13_xcraft_allocations(result, judge, expected):
    protocol = allocation(judge, result, approved=tuple(judge))
    assert clauses(check_scoring(protocol, XCRAFT)) == expected


def test_xcraft_0_6_and_0_7_without_approval_only_warn_000_T6_1_3():
    problems = check_scoring(allocation({4: "0.7", 1: "0.6"}, RED), XCRAFT)
    assert clauses(problems) == {"000 T6.1.2"}  # 1.3 > 1.0 is an error; the approvals are warnings
    assert [p.field for p in problems if p.severity == WARNING] == ["judge_extras[0]", "judge_extras[1]"]
    assert clauses(problems, WARNING) == {"000 T6.1.3"}


# ------------------------------------------------------------------------------------------------ examples
def test_ex1_under_xcraft_is_invalid():
    # 4 recipients > 3 (T6.1.1) and Σ 1.1 > 1.0 (T6.1.2).
    assert clauses(check_scoring(ex1(), XCRAFT)) == {"000 T6.1.1", "000 T6.1.2"}


@pytest.mark.parametrize(("judge", "expected"), [
    ({5: "0.6", 4: "0.3", 7: "0.2"}, {"002 III.4.3"}),
    ({5: "0.6", 4: "0.4"}, {"002 III.4.3"}),
], ids=["ex03-third_red_with_a_0.6-002_III.4.3", "ex03-partner_0.4-002_III.4.3"])
def test_ex3_invalid_variants(judge, expected):
    assert clauses(check_scoring(ex3(judge=judge), CML)) == expected


def test_ex4_invalid_variant_teammate_of_a_0_7():
    judge = {6: "0.7", 4: "0.5", 1: "0.4", 9: "0.3", 8: "0.2"}
    problems = check_scoring(ex4(judge=judge), CML)
    assert clauses(problems) == {"002 III.4.2"}
    assert "judge_extras[0]" in {p.field for p in problems}


def test_ex7_allocation_under_cml_is_invalid():
    assert clauses(check_scoring(ex7(), CML)) == {"002 III.4.2"}


VALID = [
    ("ex01-cml", ex1, CML), ("ex02-cml", ex2, CML), ("ex03-cml", ex3, CML), ("ex04-cml", ex4, CML),
    ("ex05-cml", ex5, CML), ("ex06-cml", ex6_cml, CML), ("ex07-xcraft", ex7, XCRAFT), ("ex08-cml", ex8, CML),
    ("ex08-xcraft", ex8, XCRAFT), ("ex09-xcraft", ex9, XCRAFT), ("ex09-cml", ex9, CML), ("ex10-cml", ex10, CML),
    ("ex11-cml", ex11, CML), ("ex15-cml", ex15, CML), ("ex16-cml", ex16, CML), ("ex18-cml", ex18, CML),
]


@pytest.mark.parametrize(("build", "ruleset"), [row[1:] for row in VALID], ids=[row[0] for row in VALID])
def test_worked_examples_pass_the_scoring_checks(build, ruleset):
    assert clauses(check_scoring(build(), ruleset)) == set()


# ------------------------------------------------------------------------------------------------ entries
def test_judge_extra_to_a_seat_outside_1_to_10_is_an_error():
    problems = check_scoring(allocation({11: "0.3"}), CML)
    assert [(p.severity, p.field) for p in problems] == [(ERROR, "judge_extras[0]")]


def test_two_judge_extras_to_one_seat_is_an_error():
    protocol = allocation({1: "0.3"})
    protocol.judge_extras.append(protocol.judge_extras[0])
    problems = check_scoring(protocol, CML)
    assert {p.field for p in problems if p.is_error} == {"judge_extras[0]", "judge_extras[1]"}
    assert clauses(problems) == {"002 III.4"}


def test_adjustment_without_a_clause_is_an_error():
    protocol = game(BLACK, outs=[[]], adjustments=[(3, "-0.3", "")])
    problems = check_scoring(protocol, CML)
    assert [(p.severity, p.field) for p in problems] == [(ERROR, "adjustments[0]")]
    assert clauses(problems) == {"docs/rules.md D6"}


def test_xcraft_back_side_needs_a_note_for_judge_items_000_P7_9():
    protocol = game(RED, outs=[[]], judge={4: "0.3"}, adjustments=[(2, "-0.3", "000 D6.3")], notes=False)
    problems = check_scoring(protocol, XCRAFT)
    assert clauses(problems) == set()
    assert [(p.field, p.severity) for p in problems] == [("judge_extras[0]", WARNING), ("adjustments[0]", WARNING)]
    assert clauses(problems, WARNING) == {"000 P7.9"}
    assert check_scoring(protocol, CML) == []  # 002 III.1.8: grades only


def test_destructive_minus_0_3_on_a_winner_is_an_error_002_III_6():
    protocol = game(BLACK, outs=[[]], adjustments=[(2, "-0.3", "002 III.6/-0.3 #1")])
    assert clauses(check_scoring(protocol, CML)) == {"002 III.6 l.345"}
    protocol = game(RED, outs=[[]], adjustments=[(2, "-0.3", "002 III.6/-0.3 #1")])
    assert clauses(check_scoring(protocol, CML)) == set()


def test_removal_penalty_entered_again_by_hand_is_an_error_002_III_10():
    protocol = ex16(adjustments=[(10, "-0.5", "002 III.6/-0.5 #1")])
    assert clauses(check_scoring(protocol, CML)) == {"002 III.10"}
    # #10.2 is another act (a sheriff without checks), not the DQ.
    protocol = ex16(adjustments=[(10, "-0.5", "002 III.6/-0.5 #10.2")])
    assert clauses(check_scoring(protocol, CML)) == set()


def test_rule_sets_without_caps_check_the_range_only_decision_11():
    assert clauses(check_scoring(allocation(red("0.7", "0.7", "0.7", "0.7")), KAMCHATKA)) == set()
    assert clauses(check_scoring(allocation(red("0.75")), KAMCHATKA)) == {"docs/rules.md D11"}
