"""Seating schedules (`manage.py seating`): how evenly do pairs meet, next to random seating and the proven bound?

    .venv/bin/python bench/bench_seating.py [--rounds 10] [--seconds 10] [--sizes 20,30,...,100] [--seed 1]

For each number of participants P, with m the average number of meetings of a pair:

* seconds: what the solver took (bounded by --seconds; it stops earlier once it can narrow the window no more);
* goal: the window [⌊m⌋ − 1, ⌈m⌉ + 1] and `outside`, the pairs meeting fewer or more times than it allows;
* goal at: when the search first had every pair inside the goal;
* range: the fewest and the most meetings of a pair in our schedule (and in random seating with the same
  sitting-out rule);
* bound: what no schedule can beat (`games.seating.bounds`, derived in `docs/seating.md`): the narrowest range of
  meetings the counting and second-moment bounds allow, and the windows of that width they allow;
* games and seat repeats: the hard rules (everyone plays equally within one game, no seat twice in ten rounds).

Pure Python: no database.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.seating import SeatingRequest, evaluate, random_schedule, solve  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--sizes", default=",".join(str(p) for p in range(20, 101, 10)))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"rounds={args.rounds} seed={args.seed} time limit={args.seconds:g}s")
    print(f"{'P':>4} {'m':>5} | {'seconds':>7} {'steps':>6} | {'goal':>6} {'outside':>7} {'range':>5} {'goal at':>7} | "
          f"{'bound: range≥':>13} {'windows':<16} | {'games':>5} {'seat rep':>8} | {'random range':>12}")
    for participants in (int(x) for x in args.sizes.split(",")):
        started = time.perf_counter()
        schedule = solve(SeatingRequest(participants, args.rounds, seed=args.seed, max_steps=10**9,
                                        time_limit=args.seconds))
        seconds = time.perf_counter() - started
        ours = evaluate(participants, schedule.rounds)
        chance = evaluate(participants, random_schedule(participants, args.rounds, seed=args.seed).rounds)
        m = ours.mean_meetings
        low, high = max(0, math.floor(m) - 1), math.ceil(m) + 1
        goal = f"{low}–{high}"
        at = next((f"{sec:.2f}s" for _, sec, lo, hi in schedule.stages if lo >= low and hi <= high), "never")
        limit = schedule.bound
        width = limit.least_range() if limit else 0
        windows = " ".join(f"{lo}–{hi}" for lo, hi in limit.windows(width)) if limit else ""
        print(f"{participants:>4} {m:>5.2f} | {seconds:>7.2f} {schedule.steps:>6} | {goal:>6} "
              f"{ours.pairs_outside_goal:>7} {ours.meetings_min:>2}–{ours.meetings_max:<2} {at:>7} | {width:>13} "
              f"{windows:<16} | {ours.games_min:>2}–{ours.games_max:<2} {ours.seat_repeats:>8} | "
              f"{chance.meetings_min:>5}–{chance.meetings_max:<6}", flush=True)


if __name__ == "__main__":
    main()
