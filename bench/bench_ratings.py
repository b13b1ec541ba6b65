"""Ratings at scale: server time of the standings and profile pages as ratios to an empty page, and memory.

    .venv/bin/python bench/bench_ratings.py --games 10000          # SQLite file bench/out/ratings-10000.sqlite3
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python bench/bench_ratings.py --games 10000

Builds (once per size; `--fresh` rebuilds) N random valid games (games.rules.generate) in tournaments of 100 games
over three calendar years (the default seasons), 300 players of whom 10 regulars play twice as often, stored with
bulk_create (seats with their materialised scores from the pure engine, nights; not the days and score items the
ratings do not read) — except the first and the last tournament of every year, stored whole (games.protocol.services.imports
.write_protocol) and scored by games.protocol.services.scoring.score_games, so that a sign-off and a protest there run the real
code — then ratings.standings.services.recompute_all() (tables, history, Elo). Then, each in a fresh process:

* the median server time (Django test client, full middleware) of: an empty view rendering base.html (the floor),
  the season standings, a tournament's standings, the busiest player's profile, first render after a change
  (cache cleared) and cached separately; a full recompute of one tournament (PlayerGame rows, table, history);
* writes, in the latest season, as the judge's and head judge's requests do them (the task backend is the database
  one, as in production: a long tail is queued, not run): the sign-off of the season's last game (live_apply
  "sign"), an upheld protest reversing the result of the season's last game and of its first game
  (games.protests.services.protest_decide, which rescores the tournament), and ratings.standings.services.refresh of the last game
  after one seat's score changed; then the time the worker takes for what was queued (run here, synchronously);
* peak RSS of the full recompute of the largest season, of the process after serving the pages, and of the writes.
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
def settle_after_load() -> None:
    """A bulk load ends as a restore should: fresh planner statistics, and on PostgreSQL the new rows vacuumed, so
    that autovacuum does not start on the million new rows during the recompute_all measured next."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")


def build(n: int, seed: int = 7) -> dict:
    import datetime as dt
    import random

    from django.core.management import call_command
    from django.db import connection, transaction

    from club.models import Club, Player
    from games import signals
    from games.models import Game, Night, Seat, Tournament
    from games.protocol.selectors import ruleset_by_slug
    from games.protocol.services.imports import write_protocol
    from games.protocol.services.scoring import score_games
    from games.rules.generate import generate_game
    from games.rules.scoring import score_tournament
    from ratings.standings.services import recompute_all

    if connection.vendor != "sqlite":  # a server database is reused: start empty
        call_command("flush", interactive=False, verbosity=0)
    # the build stores scores itself; recompute_all below builds every aggregate once
    signals.scores_changed.receivers, saved_receivers = [], signals.scores_changed.receivers
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
    days = [dt.date.fromordinal(first + (last - first) * t // max(1, tournaments)) for t in range(tournaments)]
    whole = set()  # the first and the last tournament of every year: stored as the site stores them
    for year in {d.year for d in days}:
        indices = [t for t, d in enumerate(days) if d.year == year]
        whole |= {indices[0], indices[-1]}
    for t_index in range(tournaments):
        count = min(PER_TOURNAMENT, n - t_index * PER_TOURNAMENT)
        day = days[t_index]
        protocols = []
        for number in range(1, count + 1):
            names: set[str] = set()
            while len(names) < 10:
                names.add(players[rng.choices(range(PLAYERS), weights)[0]].nickname)
            protocols.append(generate_game(rng, ruleset, players=sorted(names), number=number))
        if t_index in whole:
            with transaction.atomic():
                tournament = Tournament.objects.create(club=club, name=f"Турнир {t_index + 1}", ruleset=version,
                                                       start_date=day, end_date=day + dt.timedelta(days=1))
                for i, p in enumerate(protocols):
                    game = Game(club=club, tournament=tournament, ruleset=version, number=p.number, stage=p.stage,
                                date=day + dt.timedelta(days=i * 2 // count), status=Game.Status.FINISHED)
                    write_protocol(game=game, protocol=p, players={pl.nickname_key: pl for pl in
                                                                   (by_nick[s.player] for s in p.seats)}, fresh=True)
                score_games(tournament=tournament)
            continue
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
    settle_after_load()
    loaded = time.perf_counter() - started
    signals.scores_changed.receivers = saved_receivers
    from club.processes import usable_workers

    workers = usable_workers()  # PostgreSQL: settings.REBUILD_WORKERS processes (club.processes)
    started, cpu = time.perf_counter(), time.process_time()
    scopes = recompute_all()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # the rebuild's processes, when it forked
    return {"games": n, "load_s": round(loaded, 1), "recompute_all_s": round(time.perf_counter() - started, 1),
            "recompute_all_cpu_s": round(time.process_time() - cpu + children.ru_utime + children.ru_stime, 1),
            "recompute_all_workers": workers, "scopes": scopes,
            "build_rss_mb": round(max(rss_mb(), children.ru_maxrss / 1024))}


# ---------------------------------------------------------------------------------------------- measure
def measure(runs: int) -> dict:
    """Pages, first render (cache cleared) and cached, each with the floor sampled between its requests."""
    from django.core.cache import cache
    from django.db.models import Count
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment
    from floor import client_floor

    from games.models import Game
    from ratings.models import PlayerStats, RatingScope
    from ratings.standings.services import recompute_scope

    setup_test_environment()
    client = Client()
    seasons = list(RatingScope.objects.filter(kind="season").select_related("season"))
    largest = max(seasons, key=lambda s: Game.objects.filter(club_id=s.club_id, date__range=(
        s.season.start, s.season.end)).count())
    busy = PlayerStats.objects.filter(scope=largest).order_by("-games").first()
    tournament_scope = (RatingScope.objects.filter(kind="tournament").annotate(n=Count("stats"))
                        .order_by("-n", "-pk").select_related("tournament").first())
    game = Game.objects.filter(tournament=tournament_scope.tournament).order_by("-pk").first()
    pages = {
        "season_standings": f"/ratings/?season={largest.season_id}",
        "tournament_standings": f"/ratings/tournaments/{tournament_scope.tournament_id}/",
        "player_profile": f"/players/{busy.player_id}/?season={largest.season_id}",
        # the card's sections the page loads when they come into view (ratings.card.views.card_section)
        "player_profile_history": f"/players/{busy.player_id}/card/history/?season={largest.season_id}",
        "player_profile_partners": f"/players/{busy.player_id}/card/partners/?season={largest.season_id}",
        "player_profile_games": f"/players/{busy.player_id}/card/games/?season={largest.season_id}",
        "game_page": f"/games/{game.pk}/",
        "spectator_view": f"/games/{game.pk}/live/",  # the live board a stream or a phone at the table follows
    }
    htmx = {"HX-Request": "true"}
    result = {"busy_player_games": busy.games, "season_players": largest.stats.count(),
              "tournament_players": tournament_scope.n, "pages_ms": {}}
    with override_settings(ROOT_URLCONF="floor"):
        floor = client_floor(client)
        for name, url in pages.items():
            headers = htmx if "/card/" in url else {}
            assert client.get(url, headers=headers).status_code == 200, url

            def get(url=url, headers=headers):
                assert client.get(url, headers=headers).status_code == 200

            first, first_floor = floor.interleaved(get, max(5, runs // 3), before=cache.clear)
            cached, cached_floor = floor.interleaved(get, runs)
            result["pages_ms"][name] = {"first": first, "first_floor": first_floor, "cached": cached,
                                        "cached_floor": cached_floor}
        result["recompute_tournament_ms"], result["recompute_tournament_floor_ms"] = floor.interleaved(
            lambda: recompute_scope(tournament_scope, rebuild_games=True), max(3, runs // 5))
        result["floor_ms"] = floor.median()
    result["serving_rss_mb"] = round(rss_mb())
    return result


def writes(runs: int) -> dict:
    """Sign-off, upheld protests at the season's end and start, refresh of one game: ms each, and the floor."""
    import uuid

    from django.contrib.auth import get_user_model
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult
    from floor import client_floor

    from games.live.apply import live_apply
    from games.models import Game, Protest, Seat
    from games.protests.services import REJECT, UPHOLD, protest_decide
    from ratings.elo import services as services_elo
    from ratings.models import PendingTail, RatingScope
    from ratings.standings import services

    setup_test_environment()
    client = Client()
    admin, _ = get_user_model().objects.get_or_create(username="bench-admin", defaults={
        "is_superuser": True, "is_staff": True})
    scope = RatingScope.objects.filter(kind="season").select_related("season").order_by("-season__start").first()
    season_games = (Game.objects.filter(scope.games_q(), status__in=[Game.Status.FINISHED, Game.Status.SIGNED])
                    .order_by("date", "pk"))
    whole = season_games.filter(tournament__in=Game.objects.filter(pk__in=[
        season_games.first().pk, season_games.last().pk]).values("tournament"))
    first_game = whole.order_by("date", "pk").first()
    last_games = list(whole.filter(status=Game.Status.FINISHED).order_by("-date", "-pk")[:max(3, runs // 5)])
    last_game = season_games.last()

    def drain() -> float:
        """What the worker would run: the queued Elo and history tails (timed)."""
        started = time.perf_counter()
        for pending in list(PendingTail.objects.all()):
            kind, ident = pending.key.split(":")
            if kind == "elo":
                services_elo.run_pending()
            else:
                services.recompute_history.call(int(ident))
        DBTaskResult.objects.all().delete()
        return (time.perf_counter() - started) * 1000

    def timed(fn) -> float:
        started = time.perf_counter()
        fn()
        return (time.perf_counter() - started) * 1000

    def sign(game):
        game.refresh_from_db()
        live_apply(game_id=game.pk, by=admin, kind="sign", payload={}, version=game.version,
                   action_id=str(uuid.uuid4()))

    def filed(game) -> Protest:
        """A protest filed on the game (not timed: the figure is the head judge's decision)."""
        seat = game.seats.first()
        return Protest.objects.create(game=game, player=seat.player, seat=seat.number, filed_by=admin,
                                      category=Protest.Category.RESULT, text="bench", filed_at=timezone.now())

    def protest(game, p):
        game.refresh_from_db(fields=["result"])
        new = "black" if game.result != "black" else "red"
        protest_decide(protest=p, by=admin, decision=UPHOLD, explanation="bench", sk_representative="СК",
                       outcomes=[{"kind": "reverse_result", "result": new}])

    def reject(_game, p):
        protest_decide(protest=p, by=admin, decision=REJECT, explanation="bench")

    def touch_refresh(game):
        seat = Seat.objects.filter(game=game).order_by("number").first()
        Seat.objects.filter(pk=seat.pk).update(total=seat.total + 1)
        services.refresh([game.pk])

    drain()
    result: dict = {"season": scope.season.name, "season_games": season_games.count()}
    with override_settings(ROOT_URLCONF="floor"):
        floor = client_floor(client)

        def series(fn, games, *, prepare=None) -> tuple[float, float, float]:
            """Each write timed (after its untimed `prepare`), then the worker's tail it queued (timed), then five
            floor samples."""
            times, tails, floors = [], [], []
            for g in games:
                if prepare is None:
                    times.append(timed(lambda g=g: fn(g)))
                else:
                    ready = prepare(g)
                    times.append(timed(lambda g=g, ready=ready: fn(g, ready)))
                tails.append(drain())
                floors += [floor.sample() for _ in range(5)]
            return statistics.median(times), statistics.median(tails), statistics.median(floors)

        result["sign_off_ms"], _, result["sign_off_floor_ms"] = series(sign, last_games)
        (result["protest_end_ms"], result["protest_end_worker_ms"],
         result["protest_end_floor_ms"]) = series(protest, [last_game] * 5, prepare=filed)
        (result["protest_start_ms"], result["protest_start_worker_ms"],
         result["protest_start_floor_ms"]) = series(protest, [first_game] * 5, prepare=filed)
        (result["reject_start_ms"], _, result["reject_start_floor_ms"]) = series(reject, [first_game] * 5,
                                                                                  prepare=filed)
        result["refresh_one_ms"], _, result["refresh_one_floor_ms"] = series(touch_refresh, [last_game] * 3)
        result["floor_ms"] = floor.median()
    result["writes_rss_mb"] = round(rss_mb())
    return result


def recompute_season() -> dict:
    from django.db import transaction

    from games.models import Game
    from ratings.elo import services as services_elo
    from ratings.models import RatingScope
    from ratings.standings.services import _store_history, recompute_scope

    scopes = list(RatingScope.objects.filter(kind="season").select_related("season"))
    largest = max(scopes, key=lambda s: Game.objects.filter(club_id=s.club_id, date__range=(
        s.season.start, s.season.end)).count())
    before = rss_mb()
    started = time.perf_counter()
    recompute_scope(largest, rebuild_games=True)
    recompute_s = time.perf_counter() - started
    # The worker's history tail of the whole season (a change at its first game), then the club's whole Elo tail.
    first = (Game.objects.filter(largest.games_q(), status__in=[Game.Status.FINISHED, Game.Status.SIGNED])
             .order_by("date", "pk").values_list("date", "pk").first())
    tails, tails_cpu = [], []
    for _ in range(3):
        started, cpu = time.perf_counter(), time.process_time()
        with transaction.atomic():
            _store_history(largest, first)
        tails.append(time.perf_counter() - started)
        tails_cpu.append(time.process_time() - cpu)
    started, cpu = time.perf_counter(), time.process_time()
    with transaction.atomic():
        elo_games = services_elo.recompute((largest.season.start, 0))
    elo_s, elo_cpu = time.perf_counter() - started, time.process_time() - cpu
    return {"season": largest.season.name, "season_seats": largest.points.count(),
            "recompute_season_s": round(recompute_s, 2), "history_tail_s": round(statistics.median(tails), 3),
            "history_tail_cpu_s": round(statistics.median(tails_cpu), 3), "elo_tail_s": round(elo_s, 3),
            "elo_tail_cpu_s": round(elo_cpu, 3), "elo_tail_games": elo_games, "rss_before_mb": round(before),
            "recompute_peak_rss_mb": round(rss_mb())}


# ---------------------------------------------------------------------------------------------- main
def print_report(report: dict) -> None:
    """The table: every ratio divides by the floor sampled between the samples of that very figure."""
    n = report["games"]
    print(f"ratings bench: {n} games, {report['database']} (DEBUG off)")
    if "build" in report:
        b = report["build"]
        print(f"  build: load {b['load_s']} s, recompute_all {b['recompute_all_s']} s in "
              f"{b['recompute_all_workers']} process(es) (their CPU {b['recompute_all_cpu_s']} s; {b['scopes']} "
              f"scopes), peak RSS {b['build_rss_mb']} MB (the largest process)")
    m = report["measure"]
    print(f"  busiest player: {m['busy_player_games']} games in the season; season table {m['season_players']} rows;"
          f" tournament table {m['tournament_players']} rows")
    print(f"  floor (base.html, interleaved): median {m['floor_ms']:.2f} ms in the pages process")
    for name, p in m["pages_ms"].items():
        print(f"  {name:22} first {p['first']:7.2f} ms = {p['first'] / p['first_floor']:6.1f}x floor · "
              f"cached {p['cached']:6.2f} ms = {p['cached'] / p['cached_floor']:5.1f}x floor")
    print(f"  recompute one tournament: {m['recompute_tournament_ms']:.0f} ms = "
          f"{m['recompute_tournament_ms'] / m['recompute_tournament_floor_ms']:.0f}x floor")
    mem = report["memory"]
    print(f"  largest season {mem['season']} ({mem['season_seats']} history rows): recompute "
          f"{mem['recompute_season_s']} s; the worker's history tail of the whole season {mem['history_tail_s']} s "
          f"(CPU {mem['history_tail_cpu_s']} s); Elo tail over it {mem['elo_tail_s']} s (CPU {mem['elo_tail_cpu_s']} s, "
          f"{mem['elo_tail_games']} games); peak RSS "
          f"{mem['recompute_peak_rss_mb']} MB (process before: {mem['rss_before_mb']} MB)")
    print(f"  site process after serving the pages: peak RSS {m['serving_rss_mb']} MB")
    w = report["writes"]
    print(f"  writes in season {w['season']} ({w['season_games']} games), floor median {w['floor_ms']:.2f} ms:")
    for key, label in (("sign_off", "sign-off of the season's last game"),
                       ("protest_end", "upheld protest, season's last game"),
                       ("protest_start", "upheld protest, season's first game"),
                       ("reject_start", "rejected protest, season's first game"),
                       ("refresh_one", "refresh of one changed game (last)")):
        ms, floor = w[f"{key}_ms"], w[f"{key}_floor_ms"]
        print(f"    {label:38} {ms:9.1f} ms = {ms / floor:7.1f}x floor")
    print(f"    worker time for the queued tails: season end {w['protest_end_worker_ms']:.0f} ms, "
          f"season start {w['protest_start_worker_ms']:.0f} ms; peak RSS of the writes process {w['writes_rss_mb']} MB")


def child(mode: str, n: int, extra: list[str]) -> dict:
    out = subprocess.run([sys.executable, __file__, "--games", str(n), f"--{mode}", *extra], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--fresh", action="store_true", help="rebuild the database even if it exists")
    parser.add_argument("--reuse", action="store_true",
                        help="with DATABASE_URL: measure the database a previous run built (no rebuild)")
    parser.add_argument("--build", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--recompute-season", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--writes", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    n = args.games
    if args.build:
        setup(db_name(n), fresh=True)
        print(json.dumps(build(n)))
        return
    if args.measure or args.recompute_season or args.writes:
        setup(db_name(n), fresh=False)
        print(json.dumps(measure(args.runs) if args.measure else writes(args.runs) if args.writes
                         else recompute_season()))
        return
    import os

    report: dict = {"games": n, "database": os.environ.get("DATABASE_URL", "").split("@")[-1] or "sqlite"}
    if args.fresh or (os.environ.get("DATABASE_URL") and not args.reuse) or (
            not os.environ.get("DATABASE_URL") and not (OUT / db_name(n)).exists()):
        report["build"] = child("build", n, [])
    # The pages first, on the database as the build's `recompute_all` left it (vacuumed, as autovacuum keeps a
    # server's): the season's rebuild below rewrites a third of the 100k database's history and facts, and until
    # autovacuum passes, PostgreSQL's index-only reads of them visit the table again (bench/README).
    report["measure"] = child("measure", n, ["--runs", str(args.runs)])
    report["memory"] = child("recompute-season", n, [])
    report["writes"] = child("writes", n, ["--runs", str(args.runs)])
    print_report(report)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
