"""The club's rule-set form offers every `RuleSet` parameter or lists it as fixed with its reason
(games/rulesets/forms.py `FIXED`), so a new parameter cannot be left out of the editor unnoticed."""

from dataclasses import fields, replace

import pytest

from games.rules.ruleset import PRESETS, RuleSet
from games.rulesets.forms import COMPOSED, FIXED, RuleSetForm


def test_every_parameter_is_offered_or_fixed_with_a_reason():
    offered = set(RuleSetForm.base_fields) | set(COMPOSED)
    missing = [f.name for f in fields(RuleSet) if f.name not in offered and f.name not in FIXED]
    assert missing == [], f"RuleSet fields neither on the form nor in FIXED: {missing}"
    assert not set(FIXED) & offered  # a parameter is one or the other
    assert set(FIXED) <= {f.name for f in fields(RuleSet)} and all(reason.strip() for reason in FIXED.values())
    assert all(set(parts) <= set(RuleSetForm.base_fields) for parts in COMPOSED.values())


def _data(ruleset: RuleSet, **changes) -> dict:
    initial = RuleSetForm.initial_from("Наши", ruleset)
    data = {k: v for k, v in initial.items() if v is not None and v is not False}
    data = {k: ("on" if v is True else v) for k, v in data.items()}
    data.update(changes)
    return data


def test_the_new_fields_round_trip_into_the_rule_set():
    ruleset = replace(PRESETS["xcraft"], foul_limit=5, speech_seconds=50, short_speech_seconds=25,
                      third_foul_short_at=(3,), best_move_max_day1_out=2, day1_outcome_warn_only=True)
    form = RuleSetForm(data=_data(ruleset))
    assert form.is_valid(), form.errors
    back = RuleSet.from_dict({**PRESETS["xcraft"].to_dict(), **form.params()})
    assert (back.foul_limit, back.speech_seconds, back.short_speech_seconds, back.third_foul_short_at,
            back.best_move_max_day1_out, back.day1_outcome_warn_only) == (5, 50, 25, (3,), 2, True)


@pytest.mark.parametrize(("changes", "field"), [
    ({"foul_limit": "1"}, "foul_limit"),
    ({"foul_limit": "99"}, "foul_limit"),
    ({"short_speech_seconds": "90"}, "short_speech_seconds"),  # longer than the 60-second speech
    ({"third_foul_short_at": "3, x"}, "third_foul_short_at"),
    ({"third_foul_short_at": "11"}, "third_foul_short_at"),
])
def test_a_bad_value_is_refused_naming_the_field(changes, field):
    form = RuleSetForm(data=_data(PRESETS["xcraft"], **changes))
    assert not form.is_valid() and field in form.errors
