"""Scoring-related invariants (docs/rules.md I32–I40, D5): judge-extra limits, BM/judge exclusivity,
penalties, the back side of the sheet.

`validate()` calls `check_scoring` last. Main points, Ci and the totals (32, 36, 40) are derived by `scoring.py`,
never entered, so there is nothing to check for them here. Which judge extras count is decided in one place,
`scoring.extras_in_effect`, shared with the scorer.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from decimal import Decimal

from .i18n import N_, NC_
from .problems import Problem, error_t, warning_t
from .protocol import BLACK, DISQUALIFIED, DRAW, FOULS, RED, SEATS, Protocol
from .ruleset import ITEM_IF_RED_LOST, ITEM_IF_TEAM_LOST_OR_DREW, RuleSet
from .scoring import JudgeExtraState, clause, extras_in_effect

ZERO = Decimal("0")
_SEATS_CLAUSE = "000 4.1.1 / 002 I.1.1"
_NOT_A_SEAT = N_("%(clause)s: seat %(seat)s is not a seat 1–10")

# What a conditional item (RuleSet.conditional_items) that the recorded result breaks is told, by its condition.
_BROKEN_CONDITION = {
    ITEM_IF_TEAM_LOST_OR_DREW: N_("%(clause)s: %(item)s applies only when the team lost or drew; seat %(seat)s won"),
    ITEM_IF_RED_LOST: N_("%(clause)s: %(item)s applies only when red lost"),
}
# The removal −0.5 is automatic; a judge item for the same act would apply it twice (002 III.10, docs/rules.md A15).
_REMOVAL_AGAIN = re.compile(r"III\.1\.5|III\.6\s*/\s*-0\.5\s*#1(?![\d.])|8\.2\.4")


def _fmt(points: Decimal) -> str:
    return format(points.normalize(), "f")


def _field(state: JudgeExtraState) -> str:
    return f"judge_extras[{state.index}]"


def check_scoring(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    problems: list[Problem] = []
    problems += _check_judge_entries(protocol, ruleset)
    problems += _check_judge_limits(protocol, ruleset)
    problems += _check_adjustments(protocol, ruleset)
    return problems


def _check_judge_entries(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    """Each judge extra on its own: seat, value, approval, draw, back-side note."""
    problems: list[Problem] = []
    seats = Counter(extra.seat for extra in protocol.judge_extras)
    in_effect = extras_in_effect(protocol, ruleset)
    values_clause = clause(ruleset, "judge_values")
    for state in in_effect.judge:
        extra, where = state.extra, _field(state)
        if extra.seat not in SEATS:
            problems.append(error_t(where, _NOT_A_SEAT, clause=_SEATS_CLAUSE, seat=extra.seat))
        elif seats[extra.seat] > 1:
            problems.append(error_t(
                where, N_("%(clause)s: seat %(seat)s has more than one judge extra"),
                clause=clause(ruleset, 'judge_extra'), seat=extra.seat,
            ))
        # docs/rules.md D5 / A12: cml {0.2, …, 0.7}; otherwise a range.
        if ruleset.judge_values is not None:
            if extra.points not in ruleset.judge_values:
                allowed = ", ".join(_fmt(v) for v in ruleset.judge_values)
                problems.append(error_t(where, N_("%(clause)s: %(points)s is not one of %(allowed)s"),
                                        clause=values_clause, points=_fmt(extra.points), allowed=allowed))
        elif not ruleset.judge_min <= extra.points <= ruleset.judge_max:
            problems.append(error_t(
                where,
                N_("%(clause)s: %(points)s is outside %(low)s–%(high)s"),
                clause=values_clause, points=_fmt(extra.points), low=_fmt(ruleset.judge_min),
                high=_fmt(ruleset.judge_max),
            ))
        # 000 T6.1.3: 0.6 and 0.7 need the head judge's approval — a reminder, not a block.
        if ruleset.judge_approval_from is not None and extra.points >= ruleset.judge_approval_from \
                and not extra.approved:
            problems.append(warning_t(
                where,
                N_("%(clause)s: %(points)s to seat %(seat)s needs the head judge's approval"),
                clause=clause(ruleset, 'judge_approval'), points=_fmt(extra.points), seat=extra.seat,
            ))
        # 000 P7.9: the back side explains every extra point in detail (002 III.1.8: grades only).
        if ruleset.back_side_detail == "detailed" and not extra.note.strip():
            problems.append(warning_t(
                where, N_("%(clause)s: explain the judge extra to seat %(seat)s on the back side"),
                clause=clause(ruleset, 'back_side'), seat=extra.seat,
            ))
        if state.superseded:  # docs/rules.md A14: the UI warns
            bm = in_effect.best_move
            problems.append(warning_t(
                where,
                N_("%(clause)s: the judge extra %(points)s to seat %(seat)s is void — the best move %(best)s is larger"),
                clause=state.clause, points=_fmt(extra.points), seat=extra.seat, best=_fmt(bm.points) if bm else '',
            ))
    if protocol.result == DRAW and not ruleset.judge_extras_in_draw and protocol.judge_extras:
        problems.append(error_t("judge_extras", N_("%(clause)s: no judge extras in a draw"),
                                clause=clause(ruleset, 'judge_draw')))
    return problems


def _check_judge_limits(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    """Limits on the effective judge extras (docs/rules.md A10, A14): per game (000 T6.1.x) and per team (002 III.4, 4.2, 4.3)."""
    problems: list[Problem] = []
    counted = extras_in_effect(protocol, ruleset).effective_judge()

    recipients = {state.extra.seat for state in counted}
    if ruleset.judge_max_recipients is not None and len(recipients) > ruleset.judge_max_recipients:
        problems.append(error_t(
            "judge_extras",
            N_("%(clause)s: judge extras go to at most %(max)s players, not %(got)s"),
            clause=clause(ruleset, 'judge_recipients'), max=ruleset.judge_max_recipients, got=len(recipients),
        ))
    total = sum((state.extra.points for state in counted), ZERO)
    if ruleset.judge_total_cap is not None and total > ruleset.judge_total_cap:
        problems.append(error_t(
            "judge_extras",
            N_("%(clause)s: judge extras total %(total)s > %(cap)s"),
            clause=clause(ruleset, 'judge_total'), total=_fmt(total), cap=_fmt(ruleset.judge_total_cap),
        ))

    # 000 T6.1.3–6.1.4: a winner ≤ 0.7, a loser ≤ 0.4.
    if protocol.result in (RED, BLACK):
        for state in counted:
            team = protocol.team_of_seat(state.extra.seat)
            if team is None:
                continue
            won = team == protocol.result
            cap = ruleset.judge_winner_cap if won else ruleset.judge_loser_cap
            if cap is not None and state.extra.points > cap:
                key = "judge_winner" if won else "judge_loser"
                template = (N_("%(clause)s: a winner gets at most %(cap)s, seat %(seat)s has %(points)s") if won
                            else N_("%(clause)s: a loser gets at most %(cap)s, seat %(seat)s has %(points)s"))
                problems.append(error_t(
                    _field(state), template,
                    clause=clause(ruleset, key), cap=_fmt(cap), seat=state.extra.seat,
                    points=_fmt(state.extra.points),
                ))

    by_team: dict[str, list[JudgeExtraState]] = defaultdict(list)
    for state in counted:
        team = protocol.team_of_seat(state.extra.seat)
        if team is not None:
            by_team[team].append(state)
    for team in (RED, BLACK):
        problems += _check_team(team, by_team.get(team, []), ruleset)
    return problems


def _check_team(team: str, states: list[JudgeExtraState], ruleset: RuleSet) -> list[Problem]:
    problems: list[Problem] = []
    name = NC_("team", "red") if team == RED else NC_("team", "black")
    # 002 III.4: red ≤ 1.2, black ≤ 1.0 (effective values, docs/rules.md A10).
    if ruleset.judge_team_cap and team in ruleset.judge_team_cap:
        cap = ruleset.judge_team_cap[team]
        total = sum((s.extra.points for s in states), ZERO)
        if total > cap:
            problems.append(error_t(
                "judge_extras",
                N_("%(clause)s: the %(team)s team's judge extras total %(total)s > %(cap)s"),
                clause=clause(ruleset, 'judge_team_cap'), team=name, total=_fmt(total), cap=_fmt(cap),
            ))
    # 002 III.4.2: a 0.7 excludes every teammate.
    top = ruleset.judge_top_exclusive
    if top is not None:
        for state in states:
            if state.extra.points >= top and len(states) > 1:
                other_seats = ", ".join(str(s.extra.seat) for s in states if s is not state)
                problems.append(error_t(
                    _field(state),
                    N_("%(clause)s: seat %(seat)s has %(points)s, so no %(team)s teammate may get a judge extra "
                       "(seat %(others)s)"),
                    clause=clause(ruleset, 'judge_top'), seat=state.extra.seat, points=_fmt(state.extra.points),
                    team=name, others=other_seats,
                ))
    # 002 III.4.3: with a 0.6 at most one teammate, valued 0.2–0.3 (docs/rules.md A11: only when a 0.6 was given).
    second, partner_max = ruleset.judge_second_value, ruleset.judge_second_partner_max
    if second is not None:
        for state in states:
            if state.extra.points != second:
                continue
            others = [s for s in states if s is not state]
            if len(others) > 1:
                problems.append(error_t(
                    _field(state),
                    N_("%(clause)s: with a %(second)s (seat %(seat)s) at most one %(team)s teammate gets a judge "
                       "extra, not %(got)s"),
                    clause=clause(ruleset, 'judge_second'), second=_fmt(second), seat=state.extra.seat, team=name,
                    got=len(others),
                ))
            if partner_max is not None:
                for other in others:
                    if other.extra.points > partner_max:
                        problems.append(error_t(
                            _field(other),
                            N_("%(clause)s: the teammate of a %(second)s gets at most %(max)s, seat %(seat)s has "
                               "%(points)s"),
                            clause=clause(ruleset, 'judge_second'), second=_fmt(second), max=_fmt(partner_max),
                            seat=other.extra.seat, points=_fmt(other.extra.points),
                        ))
    return problems


def _check_adjustments(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    problems: list[Problem] = []
    removed = {r.seat for r in protocol.removals if r.reason in (FOULS, DISQUALIFIED)}
    for index, adjustment in enumerate(protocol.adjustments):
        where = f"adjustments[{index}]"
        text = adjustment.clause.strip()
        if adjustment.seat not in SEATS:
            problems.append(error_t(where, _NOT_A_SEAT, clause=_SEATS_CLAUSE, seat=adjustment.seat))
        if not text:
            problems.append(error_t(where, N_("docs/rules.md D6: a judge-entered item needs its clause")))
        # 000 P7.9: the back side explains every extra point and penalty.
        if ruleset.back_side_detail == "detailed" and not adjustment.note.strip():
            problems.append(warning_t(
                where, N_("%(clause)s: explain the item for seat %(seat)s on the back side"),
                clause=clause(ruleset, 'back_side'), seat=adjustment.seat,
            ))
        # Items that hold only under some results (002 III.6 l.345: the −0.3 list only when the team lost or drew).
        team = protocol.team_of_seat(adjustment.seat)
        for kind in ruleset.conditional_items_for(text):
            if kind.checked and protocol.result and not kind.holds(protocol.result, team):
                problems.append(error_t(where, _BROKEN_CONDITION[kind.holds_if], clause=kind.clause, item=text,
                                        seat=adjustment.seat))
        # 002 III.10 / docs/rules.md A15: the −0.5 for a removal is applied once, automatically.
        if _REMOVAL_AGAIN.search(text) and adjustment.seat in removed:
            problems.append(error_t(
                where,
                N_("%(clause)s: seat %(seat)s already gets %(penalty)s for the removal (%(removal)s); "
                   "one act, one penalty"),
                clause=clause(ruleset, 'one_penalty'), seat=adjustment.seat, penalty=_fmt(ruleset.removal_penalty),
                removal=clause(ruleset, 'removal_penalty'),
            ))
    return problems
