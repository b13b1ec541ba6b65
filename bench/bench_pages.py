"""Every page a visitor opens, against the bare response and the base.html page, on a `bench_ratings.py` database.

    .venv/bin/python bench/bench_ratings.py --games 10000 --build     # once (or any full bench_ratings.py run)
    .venv/bin/python bench/bench_pages.py --games 10000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python bench/bench_pages.py --games 10000

In one process (Django test client, full middleware, DEBUG off), with both floors sampled after each measured
request (`floor.Floor.interleaved_both`):

* the shell: the base.html page against the bare response, for an anonymous visitor and for a logged-in judge;
* each page of `PAGES`, anonymous: `first` with the cache cleared before each request (what the first visitor
  after a write pays), `cached` without; each × the bare response and × the base.html page sampled between its
  own samples.

A tournament sign-up sheet is added to the latest tournament if it has none (the sign-up page needs one).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _django import setup  # noqa: E402


def db_name(n: int) -> str:
    return f"ratings-{n}.sqlite3"


def _targets() -> dict:
    """The ids the pages are read with: the largest season, its busiest player, the largest tournament, its last
    game, a sign-up sheet (made if none)."""
    import datetime as dt

    from django.db.models import Count
    from django.utils import timezone

    from games.models import Game
    from games.tournaments.signups.models import SignupSheet
    from ratings.models import PlayerStats, RatingScope

    seasons = list(RatingScope.objects.filter(kind="season").select_related("season"))
    largest = max(seasons, key=lambda s: Game.objects.filter(club_id=s.club_id, date__range=(
        s.season.start, s.season.end)).count())
    busy = PlayerStats.objects.filter(scope=largest).order_by("-games").first()
    scope = (RatingScope.objects.filter(kind="tournament").annotate(n=Count("stats"))
             .order_by("-n", "-pk").select_related("tournament").first())
    game = Game.objects.filter(tournament=scope.tournament).order_by("-pk").first()
    sheet = SignupSheet.objects.order_by("-pk").first()
    if sheet is None:
        now = timezone.now()
        sheet = SignupSheet.objects.create(club_id=scope.club_id, tournament=scope.tournament,
                                           starts_at=now + dt.timedelta(days=7), opens_at=now - dt.timedelta(days=1),
                                           closes_at=now + dt.timedelta(days=6), limit=40)
    return {"season": largest.season_id, "player": busy.player_id, "tournament": scope.tournament_id,
            "game": game.pk, "sheet": sheet.pk, "player_games": busy.games}


def pages(t: dict) -> dict[str, str]:
    season, player = t["season"], t["player"]
    return {
        "home": "/",
        "players_list": "/players/",
        "card": f"/players/{player}/?season={season}",
        "card_history": f"/players/{player}/card/history/?season={season}",
        "card_partners": f"/players/{player}/card/partners/?season={season}",
        "card_games": f"/players/{player}/card/games/?season={season}",
        "game_page": f"/games/{t['game']}/",
        "spectator_view": f"/games/{t['game']}/live/",
        "tournament_page": f"/games/tournaments/{t['tournament']}/",
        "tournament_standings": f"/ratings/tournaments/{t['tournament']}/",
        "season_standings": f"/ratings/?season={season}",
        "elo_table": "/ratings/elo/",
        "statistics": "/ratings/statistics/",
        "signup_page": f"/games/signups/{t['sheet']}/",
        "api_list": "/api/v1/games/",
        "api_game": f"/api/v1/games/{t['game']}/",
        "pdf": f"/games/{t['game']}/protocol.pdf",
    }


def _judge_client():
    from django.contrib.auth import get_user_model
    from django.test import Client

    from club.models import Club, Membership

    user, _ = get_user_model().objects.get_or_create(username="bench-judge")
    Membership.objects.get_or_create(club=Club.objects.order_by("pk").first(), user=user,
                                     role=Membership.Role.JUDGE)
    client = Client()
    client.force_login(user)
    return client


def _timed(get) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    get()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def interleaved(client, get, runs: int, *, before=None, warm: int = 0) -> dict:
    """`get()`, then the base.html page, then the bare response, `runs` times (after `warm` unrecorded rounds; `before`
    untimed before each `get`): medians of the wall time and of this process's CPU time of each. The CPU time is
    what the test client's server side and SQLite cost, whatever the other processes of a shared machine do (on
    PostgreSQL the server's own work is not in it)."""
    from floor import BARE_URL, FLOOR_URL

    def fetch(url):
        assert client.get(url).status_code == 200

    samples: dict[str, list[float]] = {}
    for i in range(warm + runs):
        if before is not None:
            before()
        for name, call in (("page", get), ("base", lambda: fetch(FLOOR_URL)), ("bare", lambda: fetch(BARE_URL))):
            wall, cpu = _timed(call)
            if i >= warm:
                samples.setdefault(f"{name}_ms", []).append(wall)
                samples.setdefault(f"{name}_cpu_ms", []).append(cpu)
    return {name: statistics.median(values) for name, values in samples.items()}


def measure(runs: int, only: list[str]) -> dict:
    from django.core.cache import cache
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment

    setup_test_environment()
    targets = _targets()
    result: dict = {"targets": targets, "shell": {}, "pages": {}}
    with override_settings(ROOT_URLCONF="floor"):
        for who, client in (("anonymous", Client()), ("judge", _judge_client())):
            # the shell: the base.html page against the bare response (the "page" is the bare response again)
            result["shell"][who] = interleaved(client, lambda c=client: c.get("/bench/bare/"), runs * 3, warm=10)
        client = Client()
        htmx = {"HX-Request": "true"}
        for name, url in pages(targets).items():
            if only and name not in only:
                continue
            headers = htmx if "/card/" in url else {}

            def get(url=url, headers=headers):
                status = client.get(url, headers=headers).status_code
                assert status == 200, f"{url}: {status}"

            get()
            result["pages"][name] = {"url": url,
                                     "first": interleaved(client, get, max(5, runs // 3), before=cache.clear),
                                     "cached": interleaved(client, get, runs, warm=1)}
    return result


def print_report(n: int, database: str, r: dict) -> None:
    print(f"pages bench: {n} games, {database} (DEBUG off); busiest player {r['targets']['player_games']} games")
    print("  each figure: wall ms, then × bare response and × base.html page (wall; CPU in brackets), interleaved")
    for who, s in r["shell"].items():
        print(f"  shell ({who}): base.html {s['base_ms']:.2f} ms, bare {s['bare_ms']:.2f} ms = "
              f"{s['base_ms'] / s['bare_ms']:.2f}x bare (CPU {s['base_cpu_ms'] / s['bare_cpu_ms']:.2f}x)")
    for name, p in r["pages"].items():
        parts = []
        for kind in ("first", "cached"):
            f = p[kind]
            parts.append(f"{kind} {f['page_ms']:7.2f} ms = {f['page_ms'] / f['bare_ms']:5.1f}x bare "
                         f"({f['page_cpu_ms'] / f['bare_cpu_ms']:5.1f}) {f['page_ms'] / f['base_ms']:5.1f}x base "
                         f"({f['page_cpu_ms'] / f['base_cpu_ms']:5.1f})")
        print(f"  {name:21} " + " · ".join(parts))


def table(reports: list[dict]) -> str:
    """A Markdown table of several runs' JSON (the last line each run prints): a column per run (its `label`), a row
    for the shell and one per page; each cell the first render / cached, CPU time × the bare response and, in
    brackets, × the base.html page, then the wall-time ratios × bare."""
    def ratio(f: dict, floor: str, clock: str) -> float:
        return f[f"page{clock}"] / f[f"{floor}{clock}"]

    heads = [r["label"] for r in reports]
    lines = ["| page (first / cached) | " + " | ".join(heads) + " |", "| --- |" + " --- |" * len(heads)]
    cells = []
    for r in reports:
        a, j = r["shell"]["anonymous"], r["shell"]["judge"]
        cells.append(f"{a['base_cpu_ms'] / a['bare_cpu_ms']:.1f}× / {j['base_cpu_ms'] / j['bare_cpu_ms']:.1f}× "
                     f"(wall {a['base_ms'] / a['bare_ms']:.1f}× / {j['base_ms'] / j['bare_ms']:.1f}×)")
    lines.append("| shell: base.html × bare, anonymous / judge | " + " | ".join(cells) + " |")
    for name in reports[0]["pages"]:
        cells = []
        for r in reports:
            p = r["pages"].get(name)
            if p is None:
                cells.append("–")
                continue
            first, kept = p["first"], p["cached"]
            cells.append(f"{ratio(first, 'bare', '_cpu_ms'):.1f}× / {ratio(kept, 'bare', '_cpu_ms'):.1f}× "
                         f"({ratio(first, 'base', '_cpu_ms'):.1f}× / {ratio(kept, 'base', '_cpu_ms'):.1f}×; "
                         f"wall {ratio(first, 'bare', '_ms'):.1f}× / {ratio(kept, 'bare', '_ms'):.1f}×)")
        lines.append(f"| {name.replace('_', ' ')} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", nargs="+", metavar="LABEL=FILE",
                        help="print the Markdown table of saved runs (each FILE holds a run's output) and stop")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--only", nargs="*", default=[], help="measure these pages only (names of PAGES)")
    args = parser.parse_args()
    if args.table:
        runs = []
        for item in args.table:
            label, _, path = item.partition("=")
            runs.append({"label": label, **json.loads(Path(path).read_text().strip().splitlines()[-1])})
        print(table(runs))
        return
    import os

    database = os.environ.get("DATABASE_URL", "").split("@")[-1] or "sqlite"
    setup(db_name(args.games), fresh=False)
    report = measure(args.runs, args.only)
    print_report(args.games, database, report)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
