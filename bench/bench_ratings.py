"""Ratings at scale: server time of the standings and profile pages as ratios to an empty page, and memory.

    .venv/bin/python bench/bench_ratings.py --games 10000          # SQLite file bench/out/ratings-10000.sqlite3
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python bench/bench_ratings.py --games 10000

Builds (once per size; `--fresh` rebuilds) N random valid games (games.rules.generate) in tournaments of 100 games
over three calendar years (the default seasons), 300 players of whom 10 regulars play twice as often, stored with
bulk_create (seats with their materialised scores from the pure engine, nights; not the days and score items the
ratings do not read), then ratings.services.recompute_all(). Then, each in a fresh process:

* the median server time (Django test client, full middleware) of: an empty view rendering base.html (the floor),
  the season standings, a tournament's standings, the busiest player's profile, first render after a change
  (cache cleared) and cached separately; a full recompute of one tournament (PlayerGame rows, table, history);
* peak RSS of the full recompute of the largest season, and of the process after serving the pages.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _django import OUT, setup  # noqa: E402

PLAYERS, REGULARS, PER_TOURNAMENT = 300, 10, 100
YEARS = (2024, 2025, 2026)


def db_name(n: int) -> str:
    return f"ratings-{n}.sqlite3"


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---------------------------------------------------------------------------------------------- build
def build(n: int, seed: int = 7) -> dict:
    import datetime as dt
    import random

    from django.db import transaction

    from club.models import Club, Player
    from games.models import Game, Night, Seat, Tournament
    from games.rules.generate import generate_game
    from games.rules.scoring import score_tournament
    from games.selectors import ruleset_by_slug
    from ratings.services import recompute_all

    started = time.perf_counter()
    club = Club.objects.create(name="Бенчмарк")
    Player.objects.bulk_create([Player(club=club, nickname=f"Игрок {i:03d}", nickname_key=f"игрок {i:03d}")
                                for i in range(PLAYERS)])
    players = list(Player.objects.filter(club=club).order_by("pk"))
    by_nick = {p.nickname: p for p in players}
    weights = [2 if i < REGULARS else 1 for i in range(PLAYERS)]
    version = ruleset_by_slug("cml")
    ruleset = version.ruleset()
    rng = random.Random(seed)
    first, last = dt.date(YEARS[0], 1, 10).toordinal(), dt.date(YEARS[-1], 11, 20).toordinal()
    tournaments = -(-n // PER_TOURNAMENT)
    for t_index in range(tournaments):
        count = min(PER_TOURNAMENT, n - t_index * PER_TOURNAMENT)
        day = dt.date.fromordinal(first + (last - first) * t_index // max(1, tournaments))
        protocols = []
        for number in range(1, count + 1):
            names: set[str] = set()
            while len(names) < 10:
                names.add(players[rng.choices(range(PLAYERS), weights)[0]].nickname)
            protocols.append(generate_game(rng, ruleset, players=sorted(names), number=number))
        scores = score_tournament(protocols, ruleset)
        with transaction.atomic():
            tournament = Tournament.objects.create(club=club, name=f"Турнир {t_index + 1}", ruleset=version,
                                                   start_date=day, end_date=day + dt.timedelta(days=1))
            games = Game.objects.bulk_create([
                Game(club=club, tournament=tournament, ruleset=version, number=p.number, stage=p.stage,
                     date=day + dt.timedelta(days=i * 2 // count), status=Game.Status.FINISHED, result=p.result,
                     best_move=list(p.best_move) if p.best_move is not None else None)
                for i, p in enumerate(protocols)])
            seats, nights = [], []
            for game, protocol, score in zip(games, protocols, scores, strict=True):
                entries = {s.seat: s for s in protocol.seats}
                for s in score.seats:
                    seats.append(Seat(game=game, number=s.seat, player=by_nick[s.player], role=s.role or "",
                                      fouls=entries[s.seat].fouls, main=s.main, extras=s.extras, total=s.total,
                                      tiebreak_extras=s.tiebreak_extras, won=s.won,
                                      first_night_death=s.first_night_death))
                nights += [Night(game=game, index=i, kill=night.kill, don_check=night.don_check,
                                 sheriff_check=night.sheriff_check) for i, night in enumerate(protocol.nights, 1)]
            Seat.objects.bulk_create(seats, batch_size=2000)
            Night.objects.bulk_create(nights, batch_size=2000)
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    scopes = recompute_all()
    return {"games": n, "load_s": round(loaded, 1), "recompute_all_s": round(time.perf_counter() - started, 1),
            "scopes": scopes, "build_rss_mb": round(rss_mb())}


# ---------------------------------------------------------------------------------------------- measure
def floor_view(request):
    from django.http import HttpResponse
    from django.template import engines

    template = engines["django"].from_string('{% extends "base.html" %}')
    return HttpResponse(template.render({}, request))


def _urlpatterns():
    from django.urls import include, path

    import club.urls

    return [path("bench/floor/", floor_view), path("", include(club.urls))]


urlpatterns: list = []


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def measure(runs: int) -> dict:
    from django.core.cache import cache
    from django.db.models import Count
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment

    from games.models import Game
    from ratings.models import PlayerStats, RatingScope
    from ratings.services import recompute_scope

    setup_test_environment()
    urlpatterns[:] = _urlpatterns()
    client = Client()
    seasons = list(RatingScope.objects.filter(kind="season").select_related("season"))
    largest = max(seasons, key=lambda s: Game.objects.filter(club_id=s.club_id, date__range=(
        s.season.start, s.season.end)).count())
    busy = PlayerStats.objects.filter(scope=largest).order_by("-games").first()
    tournament_scope = (RatingScope.objects.filter(kind="tournament").annotate(n=Count("stats"))
                        .order_by("-n", "-pk").select_related("tournament").first())
    pages = {
        "floor": "/bench/floor/",
        "season_standings": f"/ratings/?season={largest.season_id}",
        "tournament_standings": f"/ratings/tournaments/{tournament_scope.tournament_id}/",
        "player_profile": f"/ratings/players/{busy.player_id}/?season={largest.season_id}",
    }
    result = {"busy_player_games": busy.games, "season_players": largest.stats.count(),
              "tournament_players": tournament_scope.n, "pages_ms": {}}
    with override_settings(ROOT_URLCONF=__name__):
        for name, url in pages.items():
            assert client.get(url).status_code == 200, url

            def first(url=url):
                cache.clear()
                assert client.get(url).status_code == 200

            def cached(url=url):
                assert client.get(url).status_code == 200

            result["pages_ms"][name] = {"first": median_ms(first, max(5, runs // 3)), "cached": median_ms(cached, runs)}
    result["recompute_tournament_ms"] = median_ms(
        lambda: recompute_scope(tournament_scope, rebuild_games=True), max(3, runs // 5))
    result["serving_rss_mb"] = round(rss_mb())
    return result


def recompute_season() -> dict:
    from games.models import Game
    from ratings.models import RatingScope
    from ratings.services import recompute_scope

    scopes = list(RatingScope.objects.filter(kind="season").select_related("season"))
    largest = max(scopes, key=lambda s: Game.objects.filter(club_id=s.club_id, date__range=(
        s.season.start, s.season.end)).count())
    before = rss_mb()
    started = time.perf_counter()
    recompute_scope(largest, rebuild_games=True)
    return {"season": largest.season.name, "season_seats": largest.points.count(),
            "recompute_season_s": round(time.perf_counter() - started, 1), "rss_before_mb": round(before),
            "recompute_peak_rss_mb": round(rss_mb())}


# ---------------------------------------------------------------------------------------------- main
def child(mode: str, n: int, extra: list[str]) -> dict:
    out = subprocess.run([sys.executable, __file__, "--games", str(n), f"--{mode}", *extra], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--fresh", action="store_true", help="rebuild the database even if it exists")
    parser.add_argument("--build", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--recompute-season", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    n = args.games
    if args.build:
        setup(db_name(n), fresh=True)
        print(json.dumps(build(n)))
        return
    if args.measure or args.recompute_season:
        setup(db_name(n), fresh=False)
        print(json.dumps(measure(args.runs) if args.measure else recompute_season()))
        return
    import os

    report: dict = {"games": n, "database": os.environ.get("DATABASE_URL", "").split("@")[-1] or "sqlite"}
    if args.fresh or os.environ.get("DATABASE_URL") or not (OUT / db_name(n)).exists():
        report["build"] = child("build", n, [])
    report["memory"] = child("recompute-season", n, [])
    report["measure"] = child("measure", n, ["--runs", str(args.runs)])
    pages = report["measure"]["pages_ms"]
    floor = pages["floor"]["cached"]
    print(f"ratings bench: {n} games, {report['database']}")
    if "build" in report:
        b = report["build"]
        print(f"  build: load {b['load_s']} s, recompute_all {b['recompute_all_s']} s ({b['scopes']} scopes)")
    m = report["measure"]
    print(f"  busiest player: {m['busy_player_games']} games in the season; season table {m['season_players']} rows;"
          f" tournament table {m['tournament_players']} rows")
    print(f"  floor (empty page, base.html): {floor:.2f} ms")
    for name in ("season_standings", "tournament_standings", "player_profile"):
        p = pages[name]
        print(f"  {name:22} first {p['first']:7.2f} ms = {p['first'] / floor:6.1f}x floor · "
              f"cached {p['cached']:6.2f} ms = {p['cached'] / floor:5.1f}x floor")
    print(f"  recompute one tournament: {m['recompute_tournament_ms']:.0f} ms = "
          f"{m['recompute_tournament_ms'] / floor:.0f}x floor")
    mem = report["memory"]
    print(f"  recompute of the largest season ({mem['season']}, {mem['season_seats']} seat rows): "
          f"{mem['recompute_season_s']} s, peak RSS {mem['recompute_peak_rss_mb']} MB "
          f"(process before: {mem['rss_before_mb']} MB)")
    print(f"  site process after serving the pages: peak RSS {m['serving_rss_mb']} MB")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
