"""Import N random valid games through the real import service, then compute the standings.

    .venv/bin/python bench/bench_import.py 1000 10000

For each N: games/second of `import_documents` (parse + validate + store + score, one transaction) and the time of
the tournament standings from the stored scores (first, uncached). Prints the growth from the smallest to the
largest N. Each N runs on a fresh SQLite file under bench/out/ (or on DATABASE_URL when set — it must be empty).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _django import setup  # noqa: E402


def run(n: int) -> dict:
    from django.core.cache import cache
    from generate import document

    from games.models import Game, Tournament
    from games.protocol.services.imports import import_documents
    from ratings.standings.selectors import tournament_standings

    started = time.perf_counter()
    text = json.dumps(document(n, "cml", seed=n, name=f"Бенчмарк {n}"), ensure_ascii=False)
    generated = time.perf_counter() - started

    started = time.perf_counter()
    import_documents(documents=[(f"bench-{n}.json", text)], club_name="Бенчмарк")
    imported = time.perf_counter() - started
    assert Game.objects.filter(tournament__name=f"Бенчмарк {n}").count() == n

    tournament = Tournament.objects.get(name=f"Бенчмарк {n}")
    cache.clear()
    started = time.perf_counter()
    rows = tournament_standings(tournament)
    standings = time.perf_counter() - started
    return {"n": n, "generate_s": generated, "import_s": imported, "games_per_s": n / imported,
            "standings_s": standings, "players": len(rows)}


def main() -> None:
    if sys.argv[1:2] == ["--one"]:
        n = int(sys.argv[2])
        setup(f"bench-import-{n}.sqlite3")
        print(json.dumps(run(n)))
        return
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 10000]
    results = []
    for n in sizes:  # each size in its own process, on its own fresh database
        out = subprocess.run([sys.executable, __file__, "--one", str(n)], check=True, capture_output=True, text=True)
        result = json.loads(out.stdout.strip().splitlines()[-1])
        results.append(result)
        print(f"N={n:>6}: generate {result['generate_s']:.2f} s · import {result['import_s']:.1f} s "
              f"= {result['games_per_s']:.0f} games/s · standings {result['standings_s'] * 1000:.0f} ms "
              f"({result['players']} players)", flush=True)
    if len(results) > 1:
        a, b = results[0], results[-1]
        print(f"from N={a['n']} to N={b['n']} (×{b['n'] / a['n']:.0f} games): import time ×"
              f"{b['import_s'] / a['import_s']:.1f}, games/s ×{b['games_per_s'] / a['games_per_s']:.2f}, "
              f"standings time ×{b['standings_s'] / a['standings_s']:.1f}")


if __name__ == "__main__":
    main()
