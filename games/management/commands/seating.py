"""`python manage.py seating --participants P --rounds R [--seed S] [--avoid A,B ...] --format json` — a contract:
keep the name, the options and the JSON shape

    {"participants": P, "rounds": [[[a1, …, a10], [b1, …, b10], …], …]}

(for each round its tables, each table the participant numbers in seat order 1–10). Exits non-zero with the
reason when the request is impossible. The tournament pages use the same solver (`games.seating`).
"""

import json

from django.core.management.base import BaseCommand, CommandError

from games.seating import SeatingImpossible, SeatingRequest, evaluate, solve


def _pair(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise CommandError(f"--avoid: expected two participant numbers as A,B, got {text!r}")
    return int(parts[0]), int(parts[1])


class Command(BaseCommand):
    help = "Print a balanced seating schedule: equal games, no repeated seat within ten games, even pair meetings."

    def add_arguments(self, parser):
        parser.add_argument("--participants", type=int, required=True, metavar="P")
        parser.add_argument("--rounds", type=int, required=True, metavar="R")
        parser.add_argument("--seed", type=int, default=0, metavar="S")
        parser.add_argument("--avoid", nargs="+", action="extend", default=[], metavar="A,B",
                            help="participants A and B never share a table (repeatable)")
        parser.add_argument("--format", choices=["json", "table"], default="json")
        parser.add_argument("--steps", type=int, default=SeatingRequest.max_steps,
                            help="search steps (the result is the same for the same seed and steps)")
        parser.add_argument("--time-limit", type=float, default=SeatingRequest.time_limit, metavar="SECONDS",
                            help="stop the search earlier than --steps after this long")

    def handle(self, *args, participants, rounds, seed, avoid, format, steps, time_limit, **options):
        pairs = tuple(_pair(text) for text in avoid)
        if steps < 0 or time_limit <= 0:
            raise CommandError("--steps must be ≥ 0 and --time-limit > 0")
        try:
            schedule = solve(SeatingRequest(participants=participants, rounds=rounds, seed=seed, avoid=pairs,
                                            max_steps=steps, time_limit=time_limit))
        except SeatingImpossible as exc:
            raise CommandError(f"impossible: {exc}") from exc
        if format == "json":
            self.stdout.write(json.dumps(schedule.as_contract()))
            return
        for r, tables in enumerate(schedule.rounds, 1):
            for t, table in enumerate(tables, 1):
                self.stdout.write(f"round {r:>2} table {t:>2}: " + " ".join(f"{p:>3}" for p in table))
            out = schedule.sitting_out(r - 1)
            if out:
                self.stdout.write(f"round {r:>2} out     : " + " ".join(f"{p:>3}" for p in out))
        st = evaluate(participants, schedule.rounds, pairs)
        self.stdout.write(f"games {st.games_min}–{st.games_max}; pair meetings: mean {st.mean_meetings:.2f}, "
                          f"largest deviation {st.max_deviation:.2f}, {st.pairs_outside} of {st.pairs} pairs "
                          "outside ⌊m⌋…⌈m⌉")
        if schedule.bound is not None:
            self.stdout.write(f"pair meetings {st.meetings_min}–{st.meetings_max}, {st.pairs_outside_goal} pairs "
                              f"outside ⌊m⌋−1…⌈m⌉+1; no schedule has a range below "
                              f"{schedule.bound.least_range()} (docs/seating.md)")
