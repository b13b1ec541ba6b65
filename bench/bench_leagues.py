"""Leagues at scale: the series standings, the league's Elo table and a player's card as ratios to the floor.

    .venv/bin/python bench/bench_leagues.py --games 10000          # SQLite file bench/out/ratings-10000.sqlite3
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python bench/bench_leagues.py --games 10000

On the database `bench_ratings.py` builds for N games (built here when it is missing: one club, 300 players,
tournaments of 100 games over three years) it adds a federation: 299 more clubs of 100 players each with a stored
Elo (so the league has 300 clubs and 30,000 players), one league of all of them, a gaining table, and a series of
the 20 latest tournaments (stars 1 to 5 in half steps, the last one the finals, best 8 count) — a season's series
stays that size whatever the number of games stored. Then, each with the floor sampled between its requests:

* `series_first`: the series page with nothing cached and no stored standings (the standings computed from the
  tournaments' stored tables, the table rendered); `series_stored`: the worker's stored standings, the page's cache
  cleared; `series_cached`: the page with its table cached;
* `series_api`: `/api/v1/series/{id}/standings/` with nothing stored; `worker pass`: `recompute_series` of it;
* `league_elo`: the first page of the league's Elo table (30,000 players, 100 a page; nothing is cached);
* `card_first` / `card_cached`: the card of the busiest player (who has the series), the cache cleared or not.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _django import OUT, setup  # noqa: E402

CLUBS, PLAYERS_PER_CLUB, SERIES_SIZE = 300, 100, 20
TABLE = {"name": "Бенчмарк", "best_of": 8,
         "stars": {str(s): [s * 10 - i * s for i in range(10)] for s in range(1, 6)},
         "field": [[10, 0.5], [20, 1.0], [40, 1.25], [80, 1.5]]}


def db_name(n: int) -> str:
    return f"ratings-{n}.sqlite3"


def federation() -> dict:
    """The league of 300 clubs, its gaining table and series (made once; a second run finds them)."""
    import random

    from club.models import Club, ClubMember, Player
    from games.models import Tournament
    from leagues import services
    from leagues.models import League, Series
    from ratings.models import EloRating

    league = League.objects.filter(name="Федерация").first()
    if league is None:
        started = time.perf_counter()
        rng = random.Random(3)
        home = Club.objects.order_by("pk").first()
        assert home is not None, "the ratings bench's club is missing: build the database first"
        clubs = Club.objects.bulk_create([Club(name=f"Клуб {i:03d}", city=f"Город {i % 60:02d}")
                                          for i in range(1, CLUBS)])
        Player.objects.bulk_create([Player(club=c, nickname=f"Игрок {c.pk}-{i}", nickname_key=f"игрок {c.pk}-{i}")
                                    for c in clubs for i in range(PLAYERS_PER_CLUB)], batch_size=5000)
        away = list(Player.objects.exclude(club=home).values_list("pk", "club_id"))
        # a bulk insert sends no post_save: the home clubs' memberships (club.selectors.member_players) are made here
        ClubMember.objects.bulk_create([ClubMember(player_id=pid, club_id=cid) for pid, cid in away],
                                       batch_size=5000, ignore_conflicts=True)
        EloRating.objects.bulk_create([EloRating(player_id=pid, elo=rng.gauss(1000, 80), games=rng.randint(1, 200))
                                       for pid, _cid in away], batch_size=5000)
        league = services.league_create(name="Федерация")
        for club in [home, *clubs]:
            services.league_add_club(league=league, club=club)
        version = services.table_create(league=league, data=TABLE)
        series = services.series_create(league=league, name="Сезон", version=version)
        latest = list(Tournament.objects.filter(club=home).order_by("-start_date", "-pk")[:SERIES_SIZE])[::-1]
        for i, t in enumerate(latest):
            services.series_add_tournament(series=series, tournament=t, stars=str(1 + (i % 9) / 2),
                                           finals=i == len(latest) - 1)
        from django.db import connection

        with connection.cursor() as cursor:  # fresh planner statistics for the new rows, as after the ratings' load
            cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
        made = round(time.perf_counter() - started, 1)
    else:
        made = 0.0
    series = Series.objects.get(league=league)
    return {"league": league.pk, "series": series.pk, "made_s": made,
            "players": Player.objects.count(), "clubs": Club.objects.count()}


def measure(runs: int) -> dict:
    from bench_pages import interleaved
    from django.core.cache import cache
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment
    from floor import client_floor

    from leagues.models import Series, SeriesResult
    from leagues.tasks import recompute_series

    setup_test_environment()
    fed = federation()
    series = Series.objects.get(pk=fed["series"])
    SeriesResult.objects.filter(series=series).delete()
    from leagues import selectors

    data = selectors.compute_standings(series)
    busy = max(data["rows"], key=lambda r: len(r["tournaments"]))["player_id"]
    client = Client()
    pages = {"series": f"/leagues/series/{series.pk}/", "api": f"/api/v1/series/{series.pk}/standings/",
             "league_elo": f"/leagues/{fed['league']}/elo/", "card": f"/players/{busy}/"}
    result: dict = {"federation": fed, "series_rows": len(data["rows"]), "series_tournaments": len(data["events"]),
                    "pages_ms": {}}

    def get(url):
        def call():
            assert client.get(url).status_code == 200, url
        return call

    def record(name, fn, before=None, n=runs):
        t, f = floor.interleaved(fn, n, before=before)
        result["pages_ms"][name] = {"ms": t, "floor": f}
        # this process's CPU time against the base.html page's, sampled after each request (bench_pages.interleaved):
        # what the server side and SQLite cost, whatever the other processes of a shared machine do
        cpu = interleaved(client, fn, n, before=before)
        result["pages_ms"][name].update(cpu_ms=cpu["page_cpu_ms"], base_cpu_ms=cpu["base_cpu_ms"])

    def forget():
        cache.clear()
        SeriesResult.objects.filter(series=series).delete()

    with override_settings(ROOT_URLCONF="floor"):
        floor = client_floor(client)
        for url in pages.values():
            get(url)()
        record("series_first", get(pages["series"]), before=forget, n=max(5, runs // 3))
        record("series_api_first", get(pages["api"]), before=forget, n=max(5, runs // 3))
        record("worker_pass", lambda: recompute_series.call([series.pk]), before=forget, n=max(5, runs // 3))
        record("series_stored", get(pages["series"]), before=cache.clear, n=max(5, runs // 3))
        record("series_cached", get(pages["series"]))
        record("league_elo", get(pages["league_elo"]))
        record("card_first", get(pages["card"]), before=cache.clear, n=max(5, runs // 3))
        record("card_cached", get(pages["card"]))
        result["floor_ms"] = floor.median()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        setup(db_name(args.games), fresh=False)
        print(json.dumps(measure(args.runs)))
        return
    import os

    if not os.environ.get("DATABASE_URL") and not (OUT / db_name(args.games)).exists():
        subprocess.run([sys.executable, str(Path(__file__).parent / "bench_ratings.py"), "--games", str(args.games),
                        "--build"], check=True, capture_output=True)
    out = subprocess.run([sys.executable, __file__, "--games", str(args.games), "--measure", "--runs",
                          str(args.runs)], check=True, capture_output=True, text=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"{args.games} games · {report['federation']['clubs']} clubs · {report['federation']['players']} players · "
          f"series of {report['series_tournaments']} tournaments, {report['series_rows']} rows · "
          f"floor {report['floor_ms']:.2f} ms")
    for name, m in report["pages_ms"].items():
        print(f"    {name:22} {m['ms']:9.1f} ms = {m['ms'] / m['floor']:6.1f}x floor · CPU {m['cpu_ms']:8.1f} ms = "
              f"{m['cpu_ms'] / m['base_cpu_ms']:6.1f}x base.html")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
