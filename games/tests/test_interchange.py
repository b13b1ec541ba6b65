"""The mafclub/1 reader (pure): round trip, and any input answered with problems, never an exception."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.generate import generate_game
from games.rules.interchange import FORMAT, parse_document, protocol_to_dict
from games.rules.ruleset import PRESETS

SLUGS = sorted(PRESETS)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


def _document(slug: str, seed: int) -> dict:
    protocol = generate_game(random.Random(seed), PRESETS[slug], number=1)
    return {"format": FORMAT, "tournament": {"name": "T", "ruleset": slug}, "games": [protocol_to_dict(protocol)]}


@settings(max_examples=60, deadline=None)
@given(slug=st.sampled_from(SLUGS), seed=st.integers(0, 10**6))
def test_a_generated_game_survives_the_round_trip_unchanged(slug, seed):
    document = _document(slug, seed)
    parsed = parse_document(copy.deepcopy(document))
    assert parsed.problems == []
    assert protocol_to_dict(parsed.games[0]) == document["games"][0]


@settings(max_examples=200, deadline=None)
@given(data=json_values)
def test_any_json_is_answered_with_problems_not_an_exception(data):
    parsed = parse_document(data)
    assert parsed.problems  # nothing random is a valid document


KEYS = ["seats", "days", "nights", "removals", "best_move", "colours", "judge_extras", "adjustments", "result",
        "number"]


@settings(max_examples=200, deadline=None)
@given(slug=st.sampled_from(SLUGS), seed=st.integers(0, 10**6), key=st.sampled_from(KEYS), junk=json_values)
def test_a_damaged_field_is_reported_by_name_or_read_safely(slug, seed, key, junk):
    document = _document(slug, seed)
    document["games"][0][key] = junk
    parsed = parse_document(document)
    if parsed.problems:
        assert all(p.game in ("1", "#1", "-") for p in parsed.problems)
        assert any(p.problem.field.split("[")[0].split(".")[0] in (key, "game") for p in parsed.problems), \
            [str(p) for p in parsed.problems]
    else:
        assert len(parsed.games) == 1  # the junk was an acceptable value (e.g. [] or null for an optional list)
