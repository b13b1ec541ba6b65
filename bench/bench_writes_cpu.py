"""The writes of `bench_ratings.py` (sign-off, upheld protests, rejected protest, refresh of one changed game) in
this process's CPU time instead of wall time: on a machine other jobs load, the wall figures of a write move by
half between two runs of the same code, its CPU time much less. On SQLite the database's work is this process's
too; on PostgreSQL the server's is not counted. For comparing one switch on and off, run after run:

    DB_RAW_READS=1 .venv/bin/python bench/bench_writes_cpu.py --games 10000 --runs 7
    DB_RAW_READS=0 .venv/bin/python bench/bench_writes_cpu.py --games 10000 --runs 7

On the database `bench_ratings.py --games N` built (bench/out/ratings-N.sqlite3, or DATABASE_URL). Prints one
JSON line: the median CPU ms of each write (the floors stay wall time: they are not printed).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_ratings  # noqa: E402
from _django import setup  # noqa: E402

FIGURES = ("sign_off_ms", "protest_end_ms", "protest_start_ms", "reject_start_ms", "refresh_one_ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    setup(bench_ratings.db_name(args.games), fresh=False)
    # bench_ratings times each write with time.perf_counter: here that clock is this process's CPU time
    clock = types.SimpleNamespace(**{name: getattr(time, name) for name in dir(time) if not name.startswith("_")})
    clock.perf_counter = time.process_time
    bench_ratings.time = clock  # type: ignore[assignment]
    report = bench_ratings.writes(args.runs)
    switches = {key: os.environ[key] for key in sorted(os.environ) if key.startswith("DB_")}
    print(json.dumps({"games": args.games, **switches, **{key: round(report[key], 1) for key in FIGURES}}))


if __name__ == "__main__":
    main()
