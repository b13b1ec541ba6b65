"""Live entry: the cost of one judge click (a foul +1 over HTMX) against the base.html floor, same run.

    .venv/bin/python bench/bench_live.py [--repeat 300]            # in-process, django.test.Client
    .venv/bin/python bench/bench_live.py --http [--workers 2]      # the same over HTTP against gunicorn

A club, ten players, a started game on a fresh SQLite file (bench/out/bench_live.sqlite3, or DATABASE_URL). Each
measured click is a real POST through the middleware, the service (row lock, version check, action log) and the
fragment render, then an undo (untimed) keeps the fouls at 0; one request of the floor (bench/floor.py: an empty
page rendering base.html, the same session and user) follows each click. DEBUG is off. Prints medians, the ratio
and the queries of one click.

With --http the bench starts gunicorn (sync workers, bench/settings_http.py) on a free local port and sends the
same requests with http.client, a new connection each (as a sync worker serves them): the figure includes the
HTTP parsing, the WSGI layer and the socket, on both sides of the ratio.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _django import ROOT, environment, free_port, setup  # noqa: E402

# static/js/live.js sends every tap as URLSearchParams, i.e. a urlencoded body (not the test client's multipart).
FORM = "application/x-www-form-urlencoded"


def make_game():
    from django.contrib.auth import get_user_model

    from club.models import Club, Membership, Player
    from games.live.apply import live_apply
    from games.models import Game, RuleSetVersion, Seat

    club = Club.objects.create(name="Bench club")
    judge = get_user_model().objects.create_user("bench-judge", password="x")
    Membership.objects.create(club=club, user=judge, role=Membership.Role.JUDGE)
    ruleset = RuleSetVersion.objects.get(slug="cml", club__isnull=True)
    game = Game.objects.create(club=club, ruleset=ruleset, number=1, date="2026-11-28", judge=judge)
    players = [Player.objects.create(club=club, nickname=f"P{n}") for n in range(1, 11)]
    Seat.objects.bulk_create([Seat(game=game, number=n, player=p) for n, p in enumerate(players, start=1)])
    live_apply(game_id=game.pk, by=judge, kind="start", payload={}, version=1, action_id="start")
    return judge, game


class TestClientDriver:
    """Requests through django.test.Client, in this process."""

    def __init__(self, judge):
        from django.test import Client

        self.client = Client()
        self.client.force_login(judge)

    def get(self, url: str) -> int:
        return self.client.get(url).status_code

    def post(self, url: str, data: dict) -> tuple[int, bytes]:
        response = self.client.post(url, urlencode(data), content_type=FORM, HTTP_HX_REQUEST="true")
        return response.status_code, response.content


class HttpDriver:
    """Requests over HTTP to a gunicorn on localhost, with the judge's session cookie and a CSRF token."""

    def __init__(self, judge, port: int):
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.contrib.sessions.backends.db import SessionStore
        from django.middleware.csrf import _get_new_csrf_string

        session = SessionStore()
        session[SESSION_KEY] = str(judge.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = judge.get_session_auth_hash()
        session.save()
        self.csrf = _get_new_csrf_string()  # an unmasked secret: the header may carry it as is
        self.cookie = f"sessionid={session.session_key}; csrftoken={self.csrf}"
        self.port = port

    def _request(self, method: str, url: str, body: str | None = None, headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, url, body=body, headers={"Cookie": self.cookie, "Host": "127.0.0.1", **(headers or {})})
        response = conn.getresponse()
        content = response.read()
        conn.close()
        return response.status, content

    def get(self, url: str) -> int:
        return self._request("GET", url)[0]

    def post(self, url: str, data: dict) -> tuple[int, bytes]:
        return self._request("POST", url, urlencode(data), {
            "Content-Type": FORM, "HX-Request": "true", "X-CSRFToken": self.csrf})


def start_gunicorn(port: int, workers: int) -> subprocess.Popen:
    env = {**environment(), "DJANGO_SETTINGS_MODULE": "settings_http", "DATABASE_URL": os.environ["DATABASE_URL"]}
    proc = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "club.wsgi:application",
                             "--pythonpath", f"{ROOT / 'bench'},{ROOT}", "--bind", f"127.0.0.1:{port}",
                             "--workers", str(workers), "--log-level", "warning"], cwd=ROOT, env=env)
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("gunicorn did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--http", action="store_true", help="against gunicorn over HTTP")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    setup("bench_live.sqlite3")

    from django.db import connection
    from django.test import override_settings
    from django.test.utils import CaptureQueriesContext
    from floor import FLOOR_URL, Floor

    from games.models import Game

    judge, game = make_game()
    url, undo_url = f"/games/{game.pk}/judge/foul/", f"/games/{game.pk}/judge/undo/"
    gunicorn = None
    if args.http:
        port = free_port()
        gunicorn = start_gunicorn(port, args.workers)
        driver = HttpDriver(judge, port)
    else:
        driver = TestClientDriver(judge)
    try:
        with override_settings(ROOT_URLCONF="floor"):
            floor = Floor(lambda: driver.get(FLOOR_URL))

            def click(seat: int) -> None:
                version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
                # As the phone screen sends it: the foul count it showed names the tap (a repeat is absorbed).
                data = {"version": version, "action_id": uuid.uuid4().hex, "seat": seat, "delta": 1, "from": 0}
                started = time.perf_counter()
                status, content = driver.post(url, data)
                elapsed = (time.perf_counter() - started) * 1000
                assert status == 200, content[:500]
                status, content = driver.post(undo_url, {"version": version + 1, "action_id": uuid.uuid4().hex})
                assert status == 200, content[:500]  # keep fouls at 0
                return elapsed

            for i in range(20):  # warm up
                click(1 + i % 10)
                floor.sample()
            floor.samples.clear()
            foul_times = []
            for i in range(args.repeat):
                foul_times.append(click(1 + i % 10))
                floor.sample()
            queries = None
            if not args.http:
                version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
                with CaptureQueriesContext(connection) as captured:  # one click, counted (session, user included)
                    driver.post(url, {"version": version, "action_id": uuid.uuid4().hex, "seat": 6, "delta": 1,
                                      "from": 0})
                queries = len(captured)
                driver.post(undo_url, {"version": version + 1, "action_id": uuid.uuid4().hex})
    finally:
        if gunicorn is not None:
            gunicorn.terminate()
            gunicorn.wait(10)
    foul, base = statistics.median(foul_times), floor.median()
    where = f"HTTP, gunicorn {args.workers} sync workers" if args.http else "in-process test client"
    print(f"live bench ({where}, DEBUG off, {connection.vendor}):")
    if queries is not None:
        print(f"  queries of one foul +1 (session and user included): {queries}")
    print(f"  foul +1 (htmx POST, fragment): median {foul:.2f} ms over {args.repeat}")
    print(f"  floor (base.html, interleaved): median {base:.2f} ms")
    print(f"  ratio foul / floor: {foul / base:.2f}")


if __name__ == "__main__":
    main()
