"""The broadcast overlay (docs/broadcast.md): what an unchanged poll costs, how long a judge's tap takes to reach
the overlay, and 200 overlays polling one gunicorn at once.

    .venv/bin/python bench/bench_overlay.py [--games 3] [--pollers 200] [--seconds 15] [--repeat 300]

Everything runs with DEBUG=0 on a SQLite file under bench/out/ (DATABASE_URL to use PostgreSQL instead), the
static files collected once into bench/out/static.

1. In process (django.test.Client, the full middleware): the median of an unchanged poll (a 304), a changed one
   (the board fragment) and the whole overlay page, each as a ratio to the floor — an empty view rendering
   base.html (as bench/bench_ratings.py measures it), in the same run.
2. gunicorn on 127.0.0.1 (the README's `--workers 3`): one overlay polls as static/js/overlay.js does (every
   POLL_MS, If-None-Match) while a judge plays whole games through the live-entry service with a judge's pauses
   between taps; the delay is from the tap's commit to the first poll answer that shows it: median and p99.
   The judge's own POST (bench/bench_live.py) comes before it.
3. The same gunicorn: `--pollers` clients poll the table being played at once for `--seconds` (the judge tapping
   every `--tap-every` seconds): half are overlays (as overlay.js), half are API readers of the same game
   (`/api/v1/games/<id>/`, every POLL_MS, If-None-Match; the API's per-address limit is off here, since every
   poller comes from 127.0.0.1): requests, errors (anything but 200/304, or no answer in 10 s), latency median and
   p99, for each kind and together. The pollers are threads of this process: on a small machine they compete with
   the server for the CPU.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
ENV = {"DEBUG": "0", "SECRET_KEY": "bench-overlay-not-a-secret-" + "x" * 40, "SECURE_SSL_REDIRECT": "0",
       "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver", "STATIC_ROOT": str(OUT / "static"),
       "CACHE_URL": "locmem://", "API_RATE_LIMIT_PER_MINUTE": "0"}  # 200 pollers share one address: no API limit
os.environ.update(ENV)
from _django import free_port, setup  # noqa: E402

# The whole game of games/live/tests/test_live_final.py (red wins on Day 3), with fouls between the steps.
GAME = [("start", {}), ("foul", {"seat": 3, "delta": 1}), ("speech", {}), ("nominate", {"by": 1, "nominee": 5}),
        ("speech", {}), ("nominate", {"by": 2, "nominee": 4}), ("foul", {"seat": 8, "delta": 1}), ("speech", {}),
        ("speech", {}), ("votes", {"v5": 7}), ("night", {}), ("kill", {"seat": 1}), ("don_check", {"seat": 7}),
        ("sheriff_check", {"seat": 9}), ("best_move", {"seats": "2 5 9"}), ("day", {}), ("foul", {"seat": 3, "delta": 1}),
        ("nominate", {"by": 3, "nominee": 9}), ("nominate", {"by": 4, "nominee": 2}), ("votes", {"v9": 6}),
        ("night", {}), ("kill", {"seat": ""}), ("day", {}), ("foul", {"seat": 6, "delta": 1}),
        ("nominate", {"by": 3, "nominee": 2}), ("night", {}), ("result", {"result": "red"})]
ROLES = {1: "К", 2: "Д", 3: "К", 4: "К", 5: "Ч", 6: "К", 7: "Ш", 8: "К", 9: "Ч", 10: "К"}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ---------------------------------------------------------------------------------------------- the world
def build_world(games: int):
    from django.contrib.auth import get_user_model

    from broadcast.models import OverlayToken
    from club.models import Club, Membership, Player
    from games.models import Game, RuleSetVersion, Seat, Tournament

    club = Club.objects.create(name="Bench club")
    judge = get_user_model().objects.create_user("bench-judge", password="x")
    Membership.objects.create(club=club, user=judge, role=Membership.Role.JUDGE)
    ruleset = RuleSetVersion.objects.get(slug="cml", club__isnull=True, version=1)
    tournament = Tournament.objects.create(club=club, name="Bench cup", ruleset=ruleset)
    players = [Player.objects.create(club=club, nickname=f"Игрок {n}") for n in range(1, 11)]
    made = []
    for number in range(1, games + 2):  # one more than played: the in-process measures use the last
        game = Game.objects.create(club=club, tournament=tournament, ruleset=ruleset, number=number, table=number,
                                   date="2026-11-28", judge=judge)
        Seat.objects.bulk_create([Seat(game=game, number=n, player=p, role=ROLES[n])
                                  for n, p in enumerate(players, start=1)])
        made.append(game)
    token = OverlayToken.objects.create(club=club, tournament=tournament, token="bench-overlay")
    return judge, made, token


def tap(game, judge, kind: str, payload: dict) -> None:
    from games.live.apply import live_apply
    from games.models import Game

    version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
    live_apply(game_id=game.pk, by=judge, kind=kind, payload=payload, version=version,
               action_id=f"{game.pk}-{kind}-{version}")


# ---------------------------------------------------------------------------------------------- 1. in process
def in_process(game, judge, token, repeat: int) -> dict:
    from django.core.cache import cache
    from django.http import HttpResponse
    from django.template import engines
    from django.test import Client, override_settings
    from django.urls import include, path, reverse

    import club.urls

    def floor_view(request):
        template = engines["django"].from_string('{% extends "base.html" %}')
        return HttpResponse(template.render({}, request))

    module = type(sys)("bench_overlay_urls")
    module.urlpatterns = [path("bench/floor/", floor_view), path("", include(club.urls))]
    sys.modules["bench_overlay_urls"] = module
    tap(game, judge, "start", {})
    client = Client()
    state = reverse("broadcast:table_state", args=[token.token, game.table])
    page = reverse("broadcast:table", args=[token.token, game.table])

    def median_ms(fn) -> float:
        for _ in range(20):
            fn()
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            fn()
            times.append(time.perf_counter() - started)
        return statistics.median(times) * 1000

    with override_settings(ROOT_URLCONF="bench_overlay_urls"):
        etag = client.get(state)["ETag"]

        def unchanged():
            assert client.get(state, HTTP_IF_NONE_MATCH=etag).status_code == 304

        def changed():  # another overlay already rendered this version: the board comes from the cache
            assert client.get(state).status_code == 200

        def rendered():  # the first overlay to ask after a tap renders the board
            cache.clear()
            assert client.get(state).status_code == 200

        def whole():
            assert client.get(page).status_code == 200

        def floor():
            assert client.get("/bench/floor/").status_code == 200

        result = {"floor": median_ms(floor), "unchanged": median_ms(unchanged), "changed": median_ms(changed),
                  "rendered": median_ms(rendered), "page": median_ms(whole)}
        result["floor"] = statistics.median([result["floor"], median_ms(floor)])  # before and after the others
    return result


# ---------------------------------------------------------------------------------------------- gunicorn
def start_gunicorn(port: int) -> subprocess.Popen:
    env = {**os.environ, **ENV, "DATABASE_URL": os.environ["DATABASE_URL"], "DJANGO_SETTINGS_MODULE": "club.settings"}
    log = open(OUT / "bench_overlay_gunicorn.log", "w")  # noqa: SIM115
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "club.wsgi", "--workers", "3", "--backlog", "2048",
                               "--bind", f"127.0.0.1:{port}", "--timeout", "60"], cwd=ROOT, env=env, stdout=log,
                              stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if get(port, "/login/")[0] == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not answer in 30 s: see bench/out/bench_overlay_gunicorn.log")


def get(port: int, url: str, etag: str = "", timeout: float = 10.0) -> tuple[int, str, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", url, headers={"If-None-Match": etag} if etag else {})
        response = connection.getresponse()
        return response.status, response.getheader("ETag") or "", response.read()
    finally:
        connection.close()


class Poller(threading.Thread):
    """One overlay as static/js/overlay.js polls: wait POLL_MS after each answer, send the last ETag."""

    def __init__(self, port: int, url: str, every: float, until: float, seen=None):
        super().__init__(daemon=True)
        self.port, self.url, self.every, self.until, self.seen = port, url, every, until, seen
        self.etag, self.latencies, self.errors, self.codes = "", [], [], {}

    def run(self) -> None:
        time.sleep(random.random() * self.every)  # the overlays were not all opened at the same instant
        while time.monotonic() < self.until:
            started = time.monotonic()
            try:
                status, etag, _body = get(self.port, self.url, self.etag)
            except OSError as error:
                self.errors.append(repr(error))
            else:
                self.latencies.append(time.monotonic() - started)
                self.codes[status] = self.codes.get(status, 0) + 1
                if status == 200:
                    self.etag = etag
                    if self.seen is not None:
                        self.seen(etag, time.monotonic())
                elif status != 304:
                    self.errors.append(f"HTTP {status}")
            time.sleep(self.every)


def tap_delays(port: int, games: list, judge, token, every: float) -> tuple[list[float], dict[int, int]]:
    """Each tap's commit → the overlay's first answer showing it, over whole played games (a tap that changes
    nothing public, as a night's check, is not counted)."""
    from django.urls import reverse
    from django.utils import translation

    from broadcast.views import board_answer

    def board_etag() -> str:  # the ETag of the board the tap made: the hash of its HTML (broadcast.views)
        with translation.override("ru"):
            return board_answer(token, game.table)[1]

    delays, codes = [], {}
    for game in games:
        arrived: dict[str, float] = {}  # ETag -> when the overlay first had it (one poller thread writes)
        url = reverse("broadcast:table_state", args=[token.token, game.table])
        poller = Poller(port, url, every, time.monotonic() + 3600, arrived.setdefault)
        poller.start()
        time.sleep(1)
        shown = board_etag()
        for kind, payload in GAME:
            time.sleep(random.uniform(0.3, 1.2))  # a judge between two taps
            tap(game, judge, kind, payload)
            committed = time.monotonic()
            wanted = board_etag()
            if wanted == shown:  # a secret tap (a night's check): the public board does not move, nothing to wait for
                continue
            shown = wanted
            deadline = committed + 5
            while wanted not in arrived and time.monotonic() < deadline:
                time.sleep(0.002)
            assert wanted in arrived, f"the overlay never showed {wanted} (saw {sorted(arrived)[-3:]})"
            delays.append(arrived[wanted] - committed)
        poller.until = 0
        poller.join()
        assert not poller.errors, poller.errors[:5]
        for status, count in poller.codes.items():
            codes[status] = codes.get(status, 0) + count
    return delays, codes


def crowd(port: int, game, judge, token, pollers: int, seconds: float, every: float, tap_every: float) -> dict:
    """`pollers` clients at once on the table being played, half overlays and half API readers of the game; the
    judge taps a foul ±1 every `tap_every` s."""
    from django.urls import reverse

    overlay = reverse("broadcast:table_state", args=[token.token, game.table])
    api = f"/api/v1/games/{game.pk}/"
    until = time.monotonic() + seconds
    threads = [Poller(port, overlay if n % 2 == 0 else api, every, until) for n in range(pollers)]
    for thread in threads:
        thread.start()
    delta = 1
    while time.monotonic() < until:
        time.sleep(tap_every)
        tap(game, judge, "foul", {"seat": 10, "delta": delta})
        delta = -delta
    for thread in threads:
        thread.join(timeout=30)
    return {"all": summary(threads, seconds), "overlay": summary(threads[0::2], seconds),
            "api": summary(threads[1::2], seconds)}


def summary(threads: list[Poller], seconds: float) -> dict:
    latencies = [t for thread in threads for t in thread.latencies]
    errors = [e for thread in threads for e in thread.errors]
    codes: dict[int, int] = {}
    for thread in threads:
        for status, count in thread.codes.items():
            codes[status] = codes.get(status, 0) + count
    return {"requests": len(latencies) + len(errors), "errors": errors, "codes": codes,
            "median_ms": statistics.median(latencies) * 1000, "p99_ms": pct(latencies, 0.99) * 1000,
            "per_second": (len(latencies) + len(errors)) / seconds}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--pollers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--tap-every", type=float, default=3.0, help="seconds between the judge's taps in step 3")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    setup("bench_overlay.sqlite3")
    from django.conf import settings
    from django.core.management import call_command

    from broadcast.views import POLL_MS

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    if not (OUT / "static" / "staticfiles.json").exists():
        call_command("collectstatic", interactive=False, verbosity=0)
    judge, games, token = build_world(args.games)
    every = POLL_MS / 1000

    costs = in_process(games[-1], judge, token, args.repeat)
    floor = costs["floor"]
    print(f"in process, DEBUG=0, median of {args.repeat}:")
    print(f"  floor (empty view rendering base.html): {floor:.2f} ms")
    for name, label in (("unchanged", "unchanged poll (304)"), ("changed", "changed poll, board from the cache"),
                        ("rendered", "changed poll, board rendered (the first overlay after a tap)"),
                        ("page", "whole overlay page")):
        print(f"  {label}: {costs[name]:.2f} ms = {costs[name] / floor:.2f} × floor")

    port = free_port()
    server = start_gunicorn(port)
    try:
        delays, codes = tap_delays(port, games[:-1], judge, token, every)
        print(f"gunicorn (3 workers), poll every {POLL_MS} ms: tap → overlay over {args.games} played games "
              f"({len(delays)} taps): median {statistics.median(delays) * 1000:.0f} ms, "
              f"p99 {pct(delays, 0.99) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms; the overlay's answers {codes}")
        results = crowd(port, games[-1], judge, token, args.pollers, args.seconds, every, args.tap_every)
        print(f"{args.pollers} pollers at once for {args.seconds:.0f} s ({args.pollers - args.pollers // 2} overlays, "
              f"{args.pollers // 2} API readers of /api/v1/games/<id>/), a tap every {args.tap_every:g} s:")
        for name, label in (("overlay", "overlays"), ("api", "API"), ("all", "together")):
            result = results[name]
            print(f"  {label}: {result['requests']} requests ({result['per_second']:.0f}/s; {result['codes']}), "
                  f"{len(result['errors'])} errors, latency median {result['median_ms']:.1f} ms, "
                  f"p99 {result['p99_ms']:.1f} ms")
            if result["errors"]:
                print("    first errors:", result["errors"][:5])
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
