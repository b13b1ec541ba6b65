"""The judge actions' table: each entry's payload is a dataclass, read in one place (the field named in every
refusal), the POST keys a screen sends are the ones the entries declare, and each refusal has its HTTP status."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from games.live.actions import BadInput, answer, payload_filter, read_payload
from games.live.apply import ACTIONS
from games.live.base import ActionRefused, AlreadyDone, Busy, ReadOnly, StaleVersion

pytestmark = pytest.mark.usefixtures("english")

# The keys the judge's screen and the held-back replays send (the POST field names must not change).
SENT = {"seat", "player_id", "nickname", "create", "namesake", "role", "by", "nominee", "index", "hands", "delta", "reason",
        "note", "result", "points", "clause", "id", "target", "seats", "day", "night", "round", "from", "seq"}


def test_every_action_declares_its_payload_as_a_dataclass():
    assert len(ACTIONS) == 29
    for kind, action in ACTIONS.items():
        assert dataclasses.is_dataclass(action.payload), kind


def test_the_kept_keys_are_the_declared_ones_and_the_vote_counts():
    kept = payload_filter(ACTIONS)
    assert {key for key in SENT if kept(key)} == SENT
    assert kept("v3") and kept("v10")
    assert not any(kept(key) for key in ("version", "csrfmiddlewaretoken", "vx", "player", "seat2"))


@pytest.mark.parametrize("kind, payload, expected", [
    ("foul", {"seat": "3"}, {"seat": 3, "delta": 1, "shown": None}),
    ("foul", {"seat": "3", "delta": "−1", "from": "2"}, {"seat": 3, "delta": -1, "shown": 2}),
    ("kill", {"seat": ""}, {"seat": None, "night": None}),
    ("kill", {"seat": "4", "night": "2"}, {"seat": 4, "night": 2}),
    ("speech", {"day": "1", "seat": "3"}, {"day": 1, "seat": 3}),
    ("undo", {"seq": "7"}, {"seq": 7}),
    ("seat", {"seat": "10", "nickname": " Ник "}, {"seat": 10, "player_id": None, "nickname": " Ник ",
                                                     "create": False, "namesake": False}),
    ("role", {"seat": "1", "role": " ш "}, {"seat": 1, "role": "Ш"}),
    ("extra", {"seat": "2", "points": " "}, {"seat": 2, "points": None, "note": ""}),
    ("adjustment", {"seat": "2", "points": "−0,3", "clause": " 002 III.6 ", "note": "x" * 600},
     {"seat": 2, "points": Decimal("-0.3"), "clause": "002 III.6", "note": "x" * 500}),
    ("best_move", {"seats": "2, 5 9"}, {"seats": [2, 5, 9]}),
    ("votes", {"v5": "6", "v9": "", "seat": "1"}, {"counts": {5: "6", 9: ""}, "vote_round": None,
                                                   "by_hands": False, "hands": {}}),
    ("votes", {"by_hands": "1", "h3": "5", "h4": "", "round": "1"}, {"counts": {}, "vote_round": 1,
                                                                     "by_hands": True, "hands": {3: 5}}),
    ("lift", {"hands": "0"}, {"hands": 0, "day": None, "by_hands": False, "raised": {}}),
    ("lift", {"by_hands": "1", "h2": "1", "h7": ""}, {"hands": None, "day": None, "by_hands": True, "raised": {2: 1}}),
])
def test_a_payload_is_read_into_its_dataclass(kind, payload, expected):
    assert dataclasses.asdict(read_payload(ACTIONS[kind], payload)) == expected


@pytest.mark.parametrize("kind, payload, message", [
    ("foul", {"seat": "11"}, "seat: a number from 1 to 10."),
    ("foul", {"seat": "x"}, "seat: enter a number."),
    ("foul", {}, "seat: enter a number."),
    ("foul", {"seat": "1", "from": "a"}, "from: enter a number."),
    ("nominate", {"by": "1", "nominee": "0"}, "nominee: a number from 1 to 10."),
    ("seat", {"seat": "1", "player_id": "1e3"}, "player_id: enter a number."),
    ("adjustment_delete", {"id": "99999999999999999999999"}, "id: a number from 1 to 9223372036854775807."),
    ("adjustment", {"seat": "1", "points": "Infinity"}, "Points are a number like 0.3."),
    ("best_move", {"seats": "2 x"}, "Name up to three seat numbers."),
    ("votes", {"by_hands": "1", "h3": "x"}, "A raised hand names a seat."),
])
def test_a_malformed_field_is_refused_naming_it(kind, payload, message):
    with pytest.raises(ActionRefused) as refused:
        read_payload(ACTIONS[kind], payload)
    assert str(refused.value) == message


@pytest.mark.parametrize("error, status, level", [
    (AlreadyDone("x"), 200, "info"), (BadInput("x"), 400, "danger"), (StaleVersion("x"), 409, "warning"), (Busy("x"), 409, "warning"),
    (ReadOnly("x"), 422, "danger"), (ActionRefused("x"), 422, "danger"),
])
def test_each_refusal_has_its_status(error, status, level):
    assert answer(error) == (status, level)
