"""Measuring a seating schedule (pure Python, no Django): how evenly everyone plays, how often a seat repeats
within a block of rounds, how evenly pairs meet and whether "never together" pairs met — what the tests, the
benchmark and `manage.py seating` report of a schedule, whoever made it."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from games.seating.solver import SEAT_BLOCK


@dataclass
class Stats:
    games_min: int
    games_max: int
    seat_repeats: int  # a participant's seat repeated within a block of SEAT_BLOCK rounds
    avoid_together: int
    mean_meetings: float
    max_deviation: float  # largest |meetings of a pair − mean|
    pairs_outside: int  # pairs meeting fewer than ⌊m⌋ or more than ⌈m⌉ times
    pairs: int
    meetings_min: int = 0  # the fewest meetings of a pair
    meetings_max: int = 0  # the most meetings of a pair
    pairs_outside_goal: int = 0  # pairs meeting fewer than ⌊m⌋ − 1 or more than ⌈m⌉ + 1 times


def evaluate(participants: int, rounds: Sequence[Sequence[Sequence[int]]],
             avoid: Iterable[tuple[int, int]] = ()) -> Stats:
    """Measure a schedule (participant numbers from 1)."""
    P = participants
    games = np.zeros(P + 1, dtype=np.int64)
    meet = np.zeros((P + 1, P + 1), dtype=np.int64)
    seat_repeats = 0
    seats_in_block: dict[tuple[int, int], set[int]] = {}
    for r, rnd in enumerate(rounds):
        for table in rnd:
            for s, p in enumerate(table):
                games[p] += 1
                key = (r // SEAT_BLOCK, p)
                if s in seats_in_block.setdefault(key, set()):
                    seat_repeats += 1
                seats_in_block[key].add(s)
            for a, b in itertools.combinations(table, 2):
                meet[a, b] += 1
                meet[b, a] += 1
    upper = np.triu_indices(P, 1)
    c = meet[1:, 1:][upper]
    pairs = len(c)
    mean = float(c.sum()) / pairs if pairs else 0.0
    lo, hi = int(np.floor(mean)), int(np.ceil(mean))
    avoid_together = sum(
        1 for a, b in avoid for rnd in rounds for t in rnd if a in t and b in t)
    return Stats(
        games_min=int(games[1:].min()), games_max=int(games[1:].max()), seat_repeats=seat_repeats,
        avoid_together=avoid_together, mean_meetings=mean,
        max_deviation=float(np.abs(c - mean).max()) if pairs else 0.0,
        pairs_outside=int(((c < lo) | (c > hi)).sum()), pairs=pairs,
        meetings_min=int(c.min()) if pairs else 0, meetings_max=int(c.max()) if pairs else 0,
        pairs_outside_goal=int(((c < lo - 1) | (c > hi + 1)).sum()))
