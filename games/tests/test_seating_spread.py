"""Pairs meet evenly (`docs/seating.md`): the hard rules hold for any size, the proven bounds hold for any schedule,
and at 50…100 participants and ten rounds no pair meets fewer than ⌊m⌋ − 1 or more than ⌈m⌉ + 1 times."""

import io
import itertools
import math
import time

import numpy as np
import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from games.seating import SeatingRequest, evaluate, random_schedule, solve
from games.seating.bounds import bound


def _meetings(participants, rounds):
    meet = np.zeros((participants + 1, participants + 1), dtype=np.int64)
    for rnd in rounds:
        for table in rnd:
            for a, b in itertools.combinations(table, 2):
                meet[a, b] += 1
                meet[b, a] += 1
    return meet[1:, 1:][np.triu_indices(participants, 1)]


def _playing(schedule):
    return [[p for table in rnd for p in table] for rnd in schedule.rounds]


@settings(max_examples=25, deadline=None)
@given(participants=st.integers(10, 75), rounds=st.integers(1, 13), seed=st.integers(0, 2**16),
       avoid=st.lists(st.tuples(st.integers(1, 10), st.integers(11, 20)), max_size=3))
def test_hard_rules_hold_for_any_size(participants, rounds, seed, avoid):
    # with one table a pair to keep apart can only be split by sitting out, which the rotation does not promise
    avoid = tuple((a, b) for a, b in avoid if b <= participants) if participants >= 20 else ()
    schedule = solve(SeatingRequest(participants, rounds, seed=seed, avoid=avoid, max_steps=120))
    assert len(schedule.rounds) == rounds
    for tables in schedule.rounds:
        assert len(tables) == participants // 10
        assert all(len(table) == 10 for table in tables)
        seated = [p for table in tables for p in table]
        assert len(set(seated)) == len(seated) and set(seated) <= set(range(1, participants + 1))
        for a, b in avoid:
            assert not any(a in table and b in table for table in tables), f"{a} and {b} share a table"
    stats = evaluate(participants, schedule.rounds, avoid)
    assert stats.games_max - stats.games_min <= 1
    assert stats.seat_repeats == 0
    assert stats.avoid_together == 0
    c = _meetings(participants, schedule.rounds)
    assert (stats.meetings_min, stats.meetings_max) == (c.min(), c.max())
    lo, hi = math.floor(stats.mean_meetings), math.ceil(stats.mean_meetings)
    assert stats.pairs_outside_goal == int(((c < lo - 1) | (c > hi + 1)).sum())


@settings(max_examples=40, deadline=None)
@given(participants=st.integers(10, 64), rounds=st.integers(1, 12), seed=st.integers(0, 2**16))
def test_no_schedule_beats_the_bound(participants, rounds, seed):
    """A bound is a claim about every schedule: random seatings and the solver's must both respect it."""
    for schedule in (random_schedule(participants, rounds, seed=seed),
                     solve(SeatingRequest(participants, rounds, seed=seed, max_steps=60))):
        c = _meetings(participants, schedule.rounds)
        limit = bound(participants, _playing(schedule))
        assert limit.total == c.sum()
        assert limit.squares <= int((c * c).sum())
        assert limit.allows(int(c.min()), int(c.max()))
        assert limit.least_range() <= c.max() - c.min()


@pytest.mark.parametrize(("participants", "lo", "hi", "allowed"), [
    # 20 players, two tables: Σ c² ≥ 4500 over 190 pairs of mean 4.74 needs (hi − m)(m − lo) ≥ 1.25
    (20, 3, 6, True), (20, 4, 6, False), (20, 3, 5, False), (20, 4, 7, True),
    (30, 2, 4, True), (30, 3, 5, False), (30, 2, 3, False),
    (40, 1, 3, True), (40, 2, 4, False),
    # each of 50 players meets 90 tablemates among 49 others: someone twice
    (50, 0, 1, False), (50, 0, 2, True),
    # no affine plane of order 10: at 100 players somebody meets twice in ten rounds
    (100, 0, 1, False), (100, 0, 2, True),
])
def test_the_bound_at_ten_rounds(participants, lo, hi, allowed):
    assert bound(participants, [range(participants)] * 10).allows(lo, hi) is allowed


def test_the_net_bound_needs_ten_full_rounds():
    assert bound(100, [range(100)] * 9).allows(0, 1)
    assert not bound(100, [range(100)] * 10).allows(0, 1)


def test_schedule_reports_its_windows_and_the_bound():
    schedule = solve(SeatingRequest(40, 10, seed=1, max_steps=4000))
    stats = evaluate(40, schedule.rounds)
    *_, lo, hi = schedule.stages[-1]
    assert lo <= stats.meetings_min and stats.meetings_max <= hi
    assert [s[0] for s in schedule.stages] == sorted(s[0] for s in schedule.stages)
    windows = [hi - lo for *_, lo, hi in schedule.stages]
    assert windows == sorted(windows, reverse=True), "each stage narrows the window"
    assert schedule.bound.allows(stats.meetings_min, stats.meetings_max)


@pytest.mark.parametrize("participants", [30, 40])
def test_small_fields_are_spread_closer_than_random(participants):
    schedule = solve(SeatingRequest(participants, 10, seed=1, max_steps=6000))
    ours = evaluate(participants, schedule.rounds)
    chance = evaluate(participants, random_schedule(participants, 10, seed=1).rounds)
    assert ours.meetings_max - ours.meetings_min <= 4 < chance.meetings_max - chance.meetings_min
    assert ours.meetings_max <= math.ceil(ours.mean_meetings) + 2


@pytest.mark.scale
@pytest.mark.parametrize("participants", [50, 60, 100])
def test_fifty_to_a_hundred_meet_the_goal_within_the_time_budget(participants):
    started = time.perf_counter()
    schedule = solve(SeatingRequest(participants, 10, seed=1))
    seconds = time.perf_counter() - started
    c = _meetings(participants, schedule.rounds)
    lo, hi = math.floor(c.mean()) - 1, math.ceil(c.mean()) + 1
    assert lo <= c.min() and c.max() <= hi, f"pairs meet {c.min()}…{c.max()} times, outside {lo}…{hi}"
    stats = evaluate(participants, schedule.rounds)
    assert stats.games_min == stats.games_max == 10 and stats.seat_repeats == 0
    assert seconds < 15


def test_the_table_format_prints_the_range_and_the_bound():
    out = io.StringIO()
    call_command("seating", "--participants", "20", "--rounds", "10", "--steps", "300", "--format", "table",
                 stdout=out)
    last = out.getvalue().splitlines()[-1]
    schedule = solve(SeatingRequest(20, 10, seed=0, max_steps=300))
    stats = evaluate(20, schedule.rounds)
    assert last == (f"pair meetings {stats.meetings_min}–{stats.meetings_max}, {stats.pairs_outside_goal} pairs "
                    "outside ⌊m⌋−1…⌈m⌉+1; no schedule has a range below 3 (docs/seating.md)")
