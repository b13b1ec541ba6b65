"""The read API: the cost of an unchanged poll (a 304) as a ratio to the floor, an empty view rendering base.html.

    .venv/bin/python bench/bench_api.py [--runs 200]        # SQLite file bench/out/api.sqlite3, DEBUG=0

Runs in-process with django.test.Client through the full middleware (CORS, the API's rate limit — counted, with a
limit no poll reaches — and conditional GET) on the demo club (`manage.py seed_demo`: a tournament with a game in
play). For each polled answer it prints the median server time of the first GET (200) and of a poll repeating its
ETag in If-None-Match (304), and their ratios to the floor measured in the same run, before and after the polls.
The ETag is the hash of the body (api/middleware.py); a game's answer — what an overlay or a bot polls during play
— is also stamped (api.selectors.game_stamp: one query), so its unchanged poll is a 304 without building the
answer, while the other answers are built and hashed (the 304 saves the transfer and the client's work).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "x" * 40)
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("API_RATE_LIMIT_PER_MINUTE", str(10**9))
from _django import setup  # noqa: E402


def floor_view(request):
    from django.http import HttpResponse
    from django.template import engines

    _ = request.user.is_authenticated  # the session and user load a real page pays
    template = engines["django"].from_string('{% extends "base.html" %}')
    return HttpResponse(template.render({}, request))


urlpatterns: list = []


def _samples(fn, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    setup("api.sqlite3")

    from django.core.management import call_command
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment
    from django.urls import include, path

    import club.urls
    from games.models import Game, Tournament

    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    setup_test_environment()
    urlpatterns[:] = [path("bench/floor/", floor_view), path("", include(club.urls))]
    live = Game.objects.filter(status=Game.Status.IN_PROGRESS).first()
    tournament = Tournament.objects.first()
    polls = {
        "game_in_play": f"/api/v1/games/{live.pk}/",
        "tournament_standings": f"/api/v1/tournaments/{tournament.pk}/standings/",
        "games_list": f"/api/v1/games/?tournament={tournament.pk}&per_page=50",
    }
    client = Client()
    storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    result: dict = {"debug": os.environ["DEBUG"], "runs": args.runs, "polls": {}}
    with override_settings(ROOT_URLCONF=__name__, STORAGES=storages):
        def floor():
            assert client.get("/bench/floor/").status_code == 200

        for _ in range(10):
            floor()
        floor_samples = _samples(floor, args.runs)
        for name, url in polls.items():
            first = client.get(url)
            assert first.status_code == 200, (url, first.status_code)
            etag = first["ETag"]

            def full(url=url):
                assert client.get(url).status_code == 200

            def poll(url=url, etag=etag):
                assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304

            result["polls"][name] = {"bytes": len(first.content), "ms_200": statistics.median(_samples(full, args.runs)),
                                     "ms_304": statistics.median(_samples(poll, args.runs))}
        floor_samples += _samples(floor, args.runs)
    floor_ms = statistics.median(floor_samples)
    result["floor_ms"] = round(floor_ms, 3)
    for entry in result["polls"].values():
        entry["ratio_200"] = round(entry["ms_200"] / floor_ms, 2)
        entry["ratio_304"] = round(entry["ms_304"] / floor_ms, 2)
        entry["ms_200"], entry["ms_304"] = round(entry["ms_200"], 3), round(entry["ms_304"], 3)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
