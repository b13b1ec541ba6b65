"""The pure core's answers for the judge's screen (games/rules/consequences.py): what a foul does, how long a speech
is, which extras the judge may give, the order of the night — one row per case, the clause in the id."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal as D

import pytest

from games.rules.consequences import foul_effect, judge_extra_values, night_steps, speech_seconds
from games.rules.ruleset import PRESETS


@pytest.mark.parametrize(("slug", "fouls", "removes", "costs_speech", "refused", "clause"), [
    ("xcraft", 2, False, False, False, ""),
    ("xcraft", 3, False, True, False, "000 D6.4"),
    ("xcraft", 4, True, False, False, "000 D6.5"),
    ("xcraft", 5, False, False, True, "000 D6.5"),
    ("cml", 3, False, False, False, "002 I.8.4"),
    ("cml", 4, True, False, False, "002 II.2.1"),
    ("moscow", 3, False, True, False, "003 l.73"),
    ("moscow", 4, True, False, False, "003 l.123"),
    ("moscow", -1, False, False, True, "003 l.123"),
], ids=lambda v: str(v))
def test_what_a_foul_does(slug, fouls, removes, costs_speech, refused, clause):
    effect = foul_effect(PRESETS[slug], fouls)
    assert (effect.removes, effect.costs_speech, effect.refused, effect.clause) == (
        removes, costs_speech, refused, clause)


def test_a_rule_set_with_a_fifth_foul_removes_at_the_fifth():
    five = replace(PRESETS["xcraft"], foul_limit=5)
    assert not foul_effect(five, 4).removes and foul_effect(five, 4).costs_speech
    assert foul_effect(five, 5).removes


@pytest.mark.parametrize(("slug", "short", "seconds"), [
    ("xcraft", False, 60),  # 000 4.3.1
    ("xcraft", True, 30),  # 000 4.4.14, S7.8
    ("cml", False, 60),  # 002 I.6.8
    ("cml", True, 30),  # 002 I.6.18
    ("moscow", False, 60),  # 003 l.16
], ids=lambda v: str(v))
def test_how_long_a_speech_is(slug, short, seconds):
    assert speech_seconds(PRESETS[slug], short=short) == seconds


def test_a_club_rule_set_changes_the_clock():
    club = replace(PRESETS["xcraft"], speech_seconds=45, short_speech_seconds=20)
    assert (speech_seconds(club), speech_seconds(club, short=True)) == (45, 20)


@pytest.mark.parametrize(("case", "ruleset", "values"), [
    ("000 T6.1.3 tenths 0,1–0,7", PRESETS["xcraft"], ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7"]),
    ("002 III.4 from 0,2", PRESETS["cml"], ["0.2", "0.3", "0.4", "0.5", "0.6", "0.7"]),
    ("negatives allowed, zero left out", replace(PRESETS["xcraft"], judge_min=D("-0.3"), judge_max=D("0.2")),
     ["-0.3", "-0.2", "-0.1", "0.1", "0.2"]),
    ("a list given out of order", replace(PRESETS["xcraft"], judge_values=(D("0.5"), D("0.3"))), ["0.3", "0.5"]),
], ids=lambda v: v if isinstance(v, str) else "")
def test_which_extras_the_judge_may_give(case, ruleset, values):
    assert [str(v) for v in judge_extra_values(ruleset)] == values


def test_the_night_is_played_shot_don_sheriff_and_keeps_every_step():
    assert night_steps(PRESETS["cml"]) == ("kill", "don_check", "sheriff_check")  # 002 I.7.3–7.6
    other = replace(PRESETS["xcraft"], night_order=("sheriff_check", "kill", "nonsense"))
    assert night_steps(other) == ("sheriff_check", "kill", "don_check")


def test_the_new_parameters_survive_storage():
    club = replace(PRESETS["cml"], speech_seconds=50, night_order=("don_check", "kill", "sheriff_check"))
    back = type(club).from_dict(club.to_dict())
    assert back.speech_seconds == 50 and back.night_order == ("don_check", "kill", "sheriff_check")
    old = {k: v for k, v in PRESETS["cml"].to_dict().items() if k not in ("speech_seconds", "night_order")}
    assert type(club).from_dict(old).speech_seconds == 60  # a version stored before keeps the preset's value
