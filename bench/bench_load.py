"""Throughput under load: pages a crowd refreshes, on gunicorn with 2 sync workers and 16 connections at once.

    .venv/bin/python bench/bench_load.py --games 10000 [--seconds 10] [--connections 16] [--cache redis|locmem]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python bench/bench_load.py --games 10000

Reads the database `bench/bench_ratings.py --games N` built (SQLite bench/out/ratings-N.sqlite3, or DATABASE_URL):
it builds nothing. Starts gunicorn (`bench/settings_http.py`: the site's settings with DEBUG off, plus the floor
page) on a free loopback port with 2 sync workers and the cache the production README sets up (Redis when it
answers, `--cache locmem` for per-process memory), then for each page `--connections` client threads of this
process request it back to back for `--seconds` seconds, anonymous, a new connection per request (gunicorn's sync
workers close every connection). Before each page's run one request warms the page cache, as the first spectator
does. Printed per page: requests per second, errors (anything but 200, or no answer in 10 s), latency median and
p99, and the throughput as a share of the floor's (base.html and nothing else) measured just before it.

The client threads share the machine's cores with the two workers: on a 2-core machine the figures are lower
bounds of what the server does alone. The CPU the client used is printed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _django import OUT, ROOT, environment, free_port, setup  # noqa: E402


def get(port: int, url: str, timeout: float = 10.0) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", url)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def start(port: int, cache_url: str) -> subprocess.Popen:
    env = {**environment(), "DATABASE_URL": os.environ["DATABASE_URL"], "CACHE_URL": cache_url,
           "DJANGO_SETTINGS_MODULE": "settings_http", "PYTHONPATH": f"{ROOT / 'bench'}:{ROOT}",
           "API_RATE_LIMIT_PER_MINUTE": "0"}
    log = open(OUT / "bench_load_gunicorn.log", "w")  # noqa: SIM115
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "club.wsgi", "--workers", "2", "--backlog", "2048",
                               "--bind", f"127.0.0.1:{port}", "--timeout", "60"], cwd=ROOT, env=env, stdout=log,
                              stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if get(port, "/bench/floor/") == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not answer in 60 s: see bench/out/bench_load_gunicorn.log")


def hammer(port: int, url: str, connections: int, seconds: float) -> dict:
    """`connections` threads request `url` back to back for `seconds`."""
    until = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in range(connections)]
    errors: list[list[str]] = [[] for _ in range(connections)]

    def run(i: int) -> None:
        while time.monotonic() < until:
            started = time.monotonic()
            try:
                status = get(port, url)
            except OSError as error:
                errors[i].append(repr(error))
                continue
            latencies[i].append(time.monotonic() - started)
            if status != 200:
                errors[i].append(f"HTTP {status}")

    cpu = time.process_time()
    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(connections)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 30)
    elapsed = time.monotonic() - started
    flat = sorted(t for ts in latencies for t in ts)
    errs = [e for es in errors for e in es]
    return {"requests": len(flat), "per_second": round((len(flat) - 0) / elapsed, 1), "errors": len(errs),
            "first_errors": errs[:3], "median_ms": round(statistics.median(flat) * 1000, 1) if flat else None,
            "p99_ms": round(flat[min(len(flat) - 1, int(0.99 * len(flat)))] * 1000, 1) if flat else None,
            "client_cpu_s": round(time.process_time() - cpu, 1)}


def pages() -> dict[str, str]:
    """The pages a crowd refreshes during a tournament, on the bench database."""
    from django.db.models import Count

    from games.models import Game
    from ratings.models import PlayerStats, RatingScope

    seasons = list(RatingScope.objects.filter(kind="season").select_related("season"))
    largest = max(seasons, key=lambda s: s.stats.count())
    tournament = (RatingScope.objects.filter(kind="tournament").annotate(n=Count("stats"))
                  .order_by("-n", "-pk").first().tournament_id)
    game = Game.objects.filter(tournament_id=tournament).order_by("-pk").first()
    busy = PlayerStats.objects.filter(scope=largest).order_by("-games").first()
    return {"game_page": f"/games/{game.pk}/", "spectator_view": f"/games/{game.pk}/live/",
            "tournament_standings": f"/ratings/tournaments/{tournament}/",
            "season_standings": f"/ratings/?season={largest.season_id}",
            "player_profile": f"/players/{busy.player_id}/?season={largest.season_id}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--cache", choices=["redis", "locmem"], default="redis" if redis_answers() else "locmem")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") and not (OUT / f"ratings-{args.games}.sqlite3").exists():
        raise SystemExit(f"no bench database: run bench/bench_ratings.py --games {args.games} first")
    setup(f"ratings-{args.games}.sqlite3", fresh=False, migrate=False)
    cache_url = "redis://127.0.0.1:6379/9" if args.cache == "redis" else "locmem://"
    urls = pages()
    port = free_port()
    server = start(port, cache_url)
    database = os.environ["DATABASE_URL"].split("@")[-1].split("/")[-1]
    report = {"games": args.games, "database": database, "cache": args.cache, "connections": args.connections,
              "seconds": args.seconds, "pages": {}}
    try:
        for name, url in urls.items():
            assert get(port, url) == 200, url  # warms the page cache, as the first spectator does
            floor = hammer(port, "/bench/floor/", args.connections, args.seconds / 2)
            page = hammer(port, url, args.connections, args.seconds)
            report["pages"][name] = {"url": url, "floor": floor, "page": page}
    finally:
        server.terminate()
        server.wait(timeout=20)
    report["client_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print(f"load bench: {args.games} games, {database}, cache {args.cache}; gunicorn 2 sync workers, "
          f"{args.connections} connections, {args.seconds:g} s per page (DEBUG off)")
    for name, r in report["pages"].items():
        p, f = r["page"], r["floor"]
        print(f"  {name:22} {p['per_second']:6.1f} req/s ({p['errors']} errors), median {p['median_ms']} ms, "
              f"p99 {p['p99_ms']} ms; floor just before {f['per_second']:.1f} req/s -> "
              f"{p['per_second'] / f['per_second']:.2f} of the floor's throughput (client CPU {p['client_cpu_s']} s)")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
