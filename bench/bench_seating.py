"""Seating schedules (`manage.py seating`): how evenly do pairs meet, next to random seating?

    .venv/bin/python bench/bench_seating.py [--rounds 10] [--seconds 10] [--sizes 10,20,...,100] [--seed 1]

For each number of participants P: the seconds the solver took (bounded by --seconds; it stops earlier when it
proves the best possible spread), the largest deviation of a pair's meetings from the average m, and the number
of pairs meeting fewer than ⌊m⌋ or more than ⌈m⌉ times — for our schedule and for random seating with the same
sitting-out rule. Also checks the hard requirements (games ±1, no repeated seat) and prints them.
Pure Python: no database.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.seating import SeatingRequest, evaluate, random_schedule, solve  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--sizes", default=",".join(str(p) for p in range(10, 101, 10)))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"rounds={args.rounds} seed={args.seed} time limit={args.seconds:g}s")
    print(f"{'P':>4} {'m':>5} | {'seconds':>7} {'steps':>7} {'max dev':>7} {'outside':>7} {'games':>5} {'seat rep':>8}"
          f" | {'random max dev':>14} {'random outside':>14} | {'pairs':>5}")
    for participants in (int(x) for x in args.sizes.split(",")):
        started = time.perf_counter()
        schedule = solve(SeatingRequest(participants, args.rounds, seed=args.seed, max_steps=10**9,
                                        time_limit=args.seconds))
        seconds = time.perf_counter() - started
        ours = evaluate(participants, schedule.rounds)
        chance = evaluate(participants, random_schedule(participants, args.rounds, seed=args.seed).rounds)
        print(f"{participants:>4} {ours.mean_meetings:>5.2f} | {seconds:>7.2f} {schedule.steps:>7} "
              f"{ours.max_deviation:>7.2f} {ours.pairs_outside:>7} {ours.games_min:>2}–{ours.games_max:<2} "
              f"{ours.seat_repeats:>8} | {chance.max_deviation:>14.2f} {chance.pairs_outside:>14} | {ours.pairs:>5}",
              flush=True)


if __name__ == "__main__":
    main()
