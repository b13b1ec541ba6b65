"""What a rule makes happen at the table, decided once for the judge's screen and its handlers (pure: no Django).

* `foul_effect(ruleset, fouls)`: what a seat's foul count does now (the 3rd costs a speech where the book says so,
  the 4th removes: 000 D6.4–D6.5, 002 I.8.4 / II.2.1, 003 l.73 / l.123);
* `speech_seconds(ruleset, short=...)`: how long a speech is (000 4.3.1, 4.4.14, S7.8; 002 I.6.8, I.6.18; 003 l.16,
  l.60);
* `judge_extra_values(ruleset)`: which extra points the judge may give (000 T6.1.3, 002 III.4, docs/rules.md D5);
* `night_steps(ruleset)`: the night's steps in the order they are played (000 4.5.4–4.5.8, 002 I.7.3–7.6).

The handler stores what these answer; the screen shows it and `static/js/live.js` reads the numbers from the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from games.rules.ruleset import THIRD_FOUL_NONE, RuleSet, cite

STEP = Decimal("0.1")  # the judge's extras go in tenths (000 T6.1, 002 III.4)


@dataclass(frozen=True)
class FoulEffect:
    fouls: int
    removes: bool = False  # the seat leaves the game now, without a last word
    costs_speech: bool = False  # the seat loses a speech (which one: `games.rules.facts.third_foul_day`)
    refused: bool = False  # a count the book does not know (beyond the removing foul, below zero)
    clause: str = ""


def foul_effect(ruleset: RuleSet, fouls: int) -> FoulEffect:
    """What `fouls` fouls of one seat do under `ruleset`."""
    removal_clause = cite(ruleset, "000 D6.5", "002 II.2.1", "003 l.123")
    if fouls < 0 or fouls > ruleset.foul_limit:
        return FoulEffect(fouls, refused=True, clause=removal_clause)
    if fouls == ruleset.foul_limit:
        return FoulEffect(fouls, removes=True, clause=removal_clause)
    if fouls == ruleset.speech_foul:
        # 000 D6.4 / 003 l.73: a speech is lost; 002 I.8.4: no penalty for the 3rd foul
        costs = ruleset.third_foul_effect != THIRD_FOUL_NONE
        return FoulEffect(fouls, costs_speech=costs, clause=cite(ruleset, "000 D6.4", "003 l.73", "002 I.8.4"))
    return FoulEffect(fouls)


def speech_seconds(ruleset: RuleSet, *, short: bool = False) -> int:
    """A speech's length: the full one, or the short one (a tie speech 000 4.4.14, a 3rd-foul speech with 3–4
    players at the table 000 S7.8)."""
    return ruleset.short_speech_seconds if short else ruleset.speech_seconds


def judge_extra_values(ruleset: RuleSet) -> tuple[Decimal, ...]:
    """The extra points the judge may give, smallest first: the rule set's own list (002 III.4: 0.2–0.7), else
    the tenths from `judge_min` to `judge_max` without zero (a zero extra is no extra; negatives where allowed)."""
    if ruleset.judge_values is not None:
        return tuple(sorted(ruleset.judge_values))
    values = []
    value = (ruleset.judge_min / STEP).to_integral_value() * STEP
    while value <= ruleset.judge_max:
        if value != 0 and value >= ruleset.judge_min:
            values.append(value)
        value += STEP
    return tuple(values)


NIGHT_STEPS = ("kill", "don_check", "sheriff_check")


def night_steps(ruleset: RuleSet) -> tuple[str, ...]:
    """The night's steps as they are played (the rule set's `night_order`; unknown names are dropped, missing ones
    come last, so every step keeps its control)."""
    known = [step for step in ruleset.night_order if step in NIGHT_STEPS]
    return (*known, *(step for step in NIGHT_STEPS if step not in known))
