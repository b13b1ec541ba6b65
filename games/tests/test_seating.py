"""The seating solver and the `manage.py seating` contract (pure solver tests need no database)."""

import io
import itertools
import json

import numpy as np
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.seating import SeatingImpossible, SeatingRequest, assign_seats, evaluate, random_schedule, solve
from games.seating.solver import Lock

AVOID = ((1, 2), (3, 4), (5, 9), (7, 10))
SIZES = [(p, 10) for p in (20, 30, 40, 50, 100)] + [(p, r) for p in (25, 37) for r in (6, 8)]


def _run(participants, rounds, *extra):
    out = io.StringIO()
    call_command("seating", "--participants", str(participants), "--rounds", str(rounds), *extra,
                 "--format", "json", stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.parametrize(("participants", "rounds"), SIZES, ids=[f"P{p}-R{r}" for p, r in SIZES])
def test_contract_equal_games_no_repeated_seat_and_avoid_pairs_apart(participants, rounds):
    data = _run(participants, rounds, "--seed", "3", "--steps", "150",
                "--avoid", *[f"{a},{b}" for a, b in AVOID])
    assert set(data) == {"participants", "rounds"}
    assert data["participants"] == participants
    assert len(data["rounds"]) == rounds
    games = dict.fromkeys(range(1, participants + 1), 0)
    for tables in data["rounds"]:
        assert len(tables) == participants // 10
        seen = [p for table in tables for p in table]
        assert len(seen) == len(set(seen)), "someone sits twice in one round"
        for table in tables:
            assert len(table) == 10
            for a, b in AVOID:
                assert not (a in table and b in table), f"{a} and {b} share a table"
        for p in seen:
            games[p] += 1
    assert max(games.values()) - min(games.values()) <= 1
    seats = {}
    for tables in data["rounds"]:
        for table in tables:
            for seat, p in enumerate(table, 1):
                assert seat not in seats.setdefault(p, set()), f"participant {p} sits in seat {seat} twice"
                seats[p].add(seat)


def test_sitting_out_goes_in_turn():
    schedule = solve(SeatingRequest(25, 5, seed=1, max_steps=50))
    outs = [set(schedule.sitting_out(r)) for r in range(5)]
    assert all(len(o) == 5 for o in outs)
    assert set().union(*outs) == set(range(1, 26)), "everyone sits out once before anyone twice"


def test_same_seed_same_schedule_and_another_seed_another():
    a = _run(30, 6, "--seed", "7", "--steps", "300")
    b = _run(30, 6, "--seed", "7", "--steps", "300")
    c = _run(30, 6, "--seed", "8", "--steps", "300")
    assert a == b
    assert a != c


def test_search_meets_pairs_more_evenly_than_random_seating():
    schedule = solve(SeatingRequest(50, 10, seed=2, max_steps=2000))
    ours = evaluate(50, schedule.rounds)
    chance = evaluate(50, random_schedule(50, 10, seed=2).rounds)
    # the extremes first (no pair outside ⌊m⌋ − 1…⌈m⌉ + 1, docs/seating.md), then as many pairs as can at ⌊m⌋…⌈m⌉
    assert ours.pairs_outside_goal == 0 < chance.pairs_outside_goal
    assert ours.pairs_outside < chance.pairs_outside * 0.8
    assert ours.max_deviation < chance.max_deviation


def test_search_reaches_the_lower_bound_where_it_is_easy():
    # 100 participants, 3 rounds: ten tables, the average pair meets 0.27 times; three mutually orthogonal
    # partitions exist (rows, columns, one Latin square), so nobody has to meet anyone twice
    schedule = solve(SeatingRequest(100, 3, seed=1, max_steps=3000))
    stats = evaluate(100, schedule.rounds)
    assert stats.pairs_outside == 0
    assert stats.max_deviation < 1


@pytest.mark.parametrize(("args", "message"), [
    (["--participants", "9", "--rounds", "3"], "at least 10"),
    (["--participants", "20", "--rounds", "0"], "rounds"),
    (["--participants", "20", "--rounds", "3", "--avoid", "1,21"], "participant 21"),
    (["--participants", "20", "--rounds", "3", "--avoid", "4,4"], "two different"),
    (["--participants", "20", "--rounds", "3", "--avoid", "4;5"], "A,B"),
    (["--participants", "10", "--rounds", "2", "--avoid", "1,2"], "1 and 2"),
])
def test_impossible_requests_exit_non_zero_with_the_reason(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("seating", *args, "--format", "json", stdout=io.StringIO())


def test_edge_colouring_never_repeats_a_seat_within_ten_rounds():
    rng = np.random.default_rng(0)
    for participants, rounds in [(30, 10), (57, 10), (100, 13)]:
        groups = []
        for _ in range(rounds):
            order = rng.permutation(participants)[: participants // 10 * 10]
            groups.append([list(order[i:i + 10]) for i in range(0, len(order), 10)])
        seated = assign_seats(groups, seed=1)
        for r, (before, after) in enumerate(zip(groups, seated, strict=True)):
            assert [sorted(t) for t in before] == [sorted(t) for t in after], f"round {r}: tables changed"
        stats = evaluate(participants, [[[p + 1 for p in t] for t in rnd] for rnd in seated])
        assert stats.seat_repeats == 0


def test_locked_seats_are_kept():
    locks = (Lock(round=1, table=2, seat=1, participant=5), Lock(round=2, table=1, seat=2, participant=5),
             Lock(round=3, table=1, seat=10, participant=1))
    schedule = solve(SeatingRequest(20, 3, seed=4, locks=locks, max_steps=200))
    assert schedule.rounds[0][1][0] == 5
    assert schedule.rounds[1][0][1] == 5
    assert schedule.rounds[2][0][9] == 1
    assert evaluate(20, schedule.rounds).seat_repeats == 0


def test_absent_participants_sit_out_and_the_rest_stay_even():
    absent = {1: frozenset({1, 2}), 2: frozenset({1, 2}), 3: frozenset({1})}
    schedule = solve(SeatingRequest(22, 5, seed=1, absent=absent, max_steps=100))
    for r, gone in absent.items():
        playing = set(itertools.chain.from_iterable(schedule.rounds[r - 1]))
        assert not playing & gone
    games = {p: sum(p in t for rnd in schedule.rounds for t in rnd) for p in range(3, 23)}
    assert max(games.values()) - min(games.values()) <= 1


def test_a_lock_that_contradicts_absence_is_refused():
    with pytest.raises(SeatingImpossible, match="absent"):
        solve(SeatingRequest(20, 2, absent={1: frozenset({3})}, locks=(Lock(1, 1, 1, 3),)))
