"""Live entry: the cost of one judge click (a foul +1 over HTMX) against an empty view, same run.

    .venv/bin/python bench/bench_live.py [--repeat 300]

Runs in-process with django.test.Client on an in-memory SQLite database (DATABASE_URL=sqlite://): a club, ten
players, a started game. Each measured click is a real POST through the middleware, the service (row lock,
version check, action log) and the fragment render; the baseline is a view that returns an empty response
through the same middleware and session. Prints medians and the ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DATABASE_URL", "sqlite://")  # in memory: nothing left behind
from _django import setup  # noqa: E402

# static/js/live.js sends every tap as URLSearchParams, i.e. a urlencoded body (not the test client's multipart).
FORM = "application/x-www-form-urlencoded"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    setup("bench_live.sqlite3")

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.http import HttpResponse
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import clear_url_caches, path

    from club.models import Club, Membership, Player
    from games.live.apply import live_apply
    from games.models import Game, RuleSetVersion, Seat

    settings.ALLOWED_HOSTS = ["*"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    import club.urls as root_urls

    def empty(request):
        _ = request.user.is_authenticated  # the same session + user load a real view pays
        return HttpResponse("")

    root_urls.urlpatterns.append(path("bench-empty/", empty))
    clear_url_caches()

    club = Club.objects.create(name="Bench club")
    judge = get_user_model().objects.create_user("bench-judge", password="x")
    Membership.objects.create(club=club, user=judge, role=Membership.Role.JUDGE)
    ruleset = RuleSetVersion.objects.get(slug="cml", club__isnull=True)
    game = Game.objects.create(club=club, ruleset=ruleset, number=1, date="2026-11-28", judge=judge)
    players = [Player.objects.create(club=club, nickname=f"P{n}") for n in range(1, 11)]
    Seat.objects.bulk_create([Seat(game=game, number=n, player=p) for n, p in enumerate(players, start=1)])
    live_apply(game_id=game.pk, by=judge, kind="start", payload={}, version=1, action_id="start")

    client = Client()
    client.force_login(judge)
    url = f"/games/{game.pk}/judge/foul/"

    def click(seat: int) -> float:
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        # As the phone screen sends it (urlencoded): the foul count it showed names the tap (a repeat is absorbed).
        data = {"version": version, "action_id": uuid.uuid4().hex, "seat": seat, "delta": 1, "from": 0}
        start = time.perf_counter()
        response = client.post(url, urlencode(data), content_type=FORM, HTTP_HX_REQUEST="true")
        elapsed = time.perf_counter() - start
        assert response.status_code == 200, response.content[:500]
        undo = {"version": version + 1, "action_id": uuid.uuid4().hex}
        client.post(f"/games/{game.pk}/judge/undo/", undo, HTTP_HX_REQUEST="true")  # keep fouls at 0
        return elapsed

    def blank() -> float:
        start = time.perf_counter()
        response = client.get("/bench-empty/")
        elapsed = time.perf_counter() - start
        assert response.status_code == 200
        return elapsed

    for _ in range(20):  # warm up
        click(3)
        blank()
    foul_times, empty_times = [], []
    for i in range(args.repeat):
        foul_times.append(click(1 + i % 10))
        empty_times.append(blank())
    version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
    with CaptureQueriesContext(connection) as queries:  # one click, counted (session and user included)
        client.post(url, urlencode({"version": version, "action_id": uuid.uuid4().hex, "seat": 6, "delta": 1,
                                    "from": 0}), content_type=FORM, HTTP_HX_REQUEST="true")
    client.post(f"/games/{game.pk}/judge/undo/", {"version": version + 1, "action_id": uuid.uuid4().hex},
                HTTP_HX_REQUEST="true")
    foul, base = statistics.median(foul_times), statistics.median(empty_times)
    print(f"queries of one foul +1 (session and user included): {len(queries)}")
    print(f"foul +1 (htmx POST, fragment): median {foul * 1000:.2f} ms over {args.repeat}")
    print(f"empty view (same session):     median {base * 1000:.2f} ms")
    print(f"ratio foul / empty: {foul / base:.1f}")


if __name__ == "__main__":
    main()
