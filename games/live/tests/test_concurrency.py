"""Overlapping requests against a real server process (gunicorn, several workers and threads), on the database the
suite runs on (SQLite or PostgreSQL):

* two tables of one tournament confirm their results at the same moment, 20 rounds: after every round the stored
  seat scores, score lines and standings equal a fresh recompute;
* 200 pairs of judge actions sent together (conflicting edits of one protocol, the same action id twice, two
  protocols at once, a judge extra against a foul): no answer is a 5xx, and each action is applied exactly once or
  refused with a message.

The server is started from the test database: on PostgreSQL it connects to the test database itself (the test is
transactional, so what the test writes is committed and visible); on SQLite the in-memory test database is copied
into a file (the SQLite backup API) that the server's processes share in WAL mode, and copied back for the checks.
"""

from __future__ import annotations

import dataclasses
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client

from club.backups import sqlite_copy
from club.models import Membership, nickname_key
from club.tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from games.live.apply import live_apply
from games.models import Game, GameAction, RuleSetVersion, ScoreItem, Seat, Tournament
from games.protocol.services.imports import write_protocol
from games.protocol.services.scoring import score_games
from games.tests.live_fixtures import NICKS, ROLES
from games.tests.rules_builders import ex1, ex18
from ratings.standings.selectors import standings_json

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BASE_DIR = Path(settings.BASE_DIR)
CSRF = "c" * 32  # a CSRF secret of the right length, sent as the cookie and the header


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        auth = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else "")
        return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    raise AssertionError("SQLite is served from a file copy")


@dataclasses.dataclass
class Site:
    url: str
    file: Path | None  # the SQLite file the server uses (None on PostgreSQL)

    def pull(self) -> None:
        """Make what the server wrote visible to this process's ORM (SQLite: copy the file back)."""
        cache.clear()
        if self.file is None:
            return
        connection.close()
        connection.ensure_connection()
        source = sqlite3.connect(self.file)
        try:
            source.backup(connection.connection)
        finally:
            source.close()


@contextmanager
def site_server(tmp_path: Path):
    """gunicorn with 2 worker processes × 4 threads on this test's database; stopped on exit."""
    # DEBUG on only spares the collectstatic of the production test (hashed static names); the database, the
    # processes and the threads are the production ones.
    env = dict(os.environ, DEBUG="1", SECRET_KEY=settings.SECRET_KEY, ALLOWED_HOSTS="127.0.0.1",
               CACHE_URL="locmem://", TASKS_BACKEND="immediate",
               CONN_MAX_AGE="60", LOG_LEVEL="ERROR", DJANGO_SETTINGS_MODULE="club.settings")
    file = None
    if connection.vendor == "sqlite":
        file = tmp_path / "site.sqlite3"
        sqlite_copy(file)
        env["DATABASE_URL"] = f"sqlite:///{file}"
    else:
        env["DATABASE_URL"] = _database_url()
    port = _free_port()
    log = (tmp_path / "gunicorn.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "club.wsgi:application", "-b", f"127.0.0.1:{port}", "--workers", "2",
         "--threads", "4", "--timeout", "60", "--graceful-timeout", "3", "--log-level", "warning"],
        cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/", timeout=5).read()
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if process.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    raise AssertionError("gunicorn did not start:\n" + (tmp_path / "gunicorn.log").read_text()) from None
                time.sleep(0.3)
        yield Site(url, file)
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return (f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={CSRF}; "
            f"{settings.LANGUAGE_COOKIE_NAME}=en")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect (to the login page) is an answer to check, not to follow


OPENER = urllib.request.build_opener(_NoRedirects)


def post_action(site: Site, cookie: str, game_id: int, kind: str, version: int, action_id: str,
                **payload) -> tuple[int, str]:
    data = urlencode({"version": version, "action_id": action_id, **payload}).encode()
    request = urllib.request.Request(f"{site.url}/games/{game_id}/judge/{kind}/", data=data, method="POST", headers={
        "Cookie": cookie, "X-CSRFToken": CSRF, "HX-Request": "true", "Referer": site.url + "/",
        "Content-Type": "application/x-www-form-urlencoded"})
    try:
        with OPENER.open(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def together(*calls):
    """Run the calls at the same moment (a barrier releases every thread at once); their answers in order."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return [f.result() for f in [pool.submit(run, call) for call in calls]]


# ---------------------------------------------------------------------------------------------- the cast


def started_games(club, players, judge, ruleset, tournament, count: int) -> list[int]:
    """`count` games at tables 1..count, seated with ROLES and started by `judge`: their ids."""
    games = []
    for number in range(1, count + 1):
        game = Game.objects.create(club=club, tournament=tournament, ruleset=ruleset, number=number, table=number,
                                   date="2026-11-28", judge=judge, judge_name="judge1")
        Seat.objects.bulk_create([Seat(game=game, number=n, player=players[n - 1], role=ROLES[n])
                                  for n in range(1, 11)])
        live_apply(game_id=game.pk, by=judge, kind="start", payload={}, version=1, action_id="start")
        games.append(game.pk)
    return games


def club_with_judges():
    club = ClubFactory(name="Полночь")
    players = [PlayerFactory(club=club, nickname=n) for n in NICKS[:10]]
    judges = [MembershipFactory(club=club, user=UserFactory(username=f"judge{i}"), role=Membership.Role.JUDGE).user
              for i in (1, 2)]
    ruleset = RuleSetVersion.objects.filter(slug="cml", club__isnull=True).order_by("-version").first()
    tournament = Tournament.objects.create(club=club, name="Кубок", ruleset=ruleset)
    return club, players, judges, ruleset, tournament


def ready_for_the_result(tournament, ruleset, number: int, table: int, judge, protocol, players) -> Game:
    """A game whose protocol is complete and whose win condition holds: the judge only confirms the result."""
    game = Game(club=tournament.club, tournament=tournament, ruleset=ruleset, number=number, table=table,
                date="2026-11-28", judge=judge, judge_name=judge.username, status=Game.Status.IN_PROGRESS,
                phase="D3")
    write_protocol(game=game, protocol=dataclasses.replace(protocol, result=None), players=players, fresh=True)
    return game


def scores(tournament) -> tuple:
    """What the tournament's scoring stores: every seat's score columns, every score line, the standings."""
    cache.clear()
    seats = list(Seat.objects.filter(game__tournament=tournament).order_by("game_id", "number").values_list(
        "game_id", "number", "main", "extras", "total", "tiebreak_extras", "won", "first_night_death"))
    items = sorted(ScoreItem.objects.filter(seat__game__tournament=tournament).values_list(
        "seat__game_id", "seat__number", "kind", "points", "clause", "effective", "source"))
    return seats, items, standings_json(tournament)["rows"]


def fresh_scores(tournament) -> tuple:
    """The same after recomputing the whole tournament from its protocols (rolled back: nothing is kept)."""
    with transaction.atomic():
        score_games(tournament=tournament)
        fresh = scores(tournament)
        transaction.set_rollback(True)
    cache.clear()
    return fresh


# ---------------------------------------------------------------------------------------------- the tests


ROUNDS = 20


def test_two_tables_confirming_at_the_same_moment_lose_no_score(tmp_path):
    club, players, judges, ruleset, tournament = club_with_judges()
    names = dict(enumerate(NICKS[:10], start=1))
    by_key = {nickname_key(p.nickname): p for p in players}
    pairs = []
    for r in range(ROUNDS):
        pairs.append((
            ready_for_the_result(tournament, ruleset, 2 * r + 1, 1, judges[0], ex1(players=names), by_key),
            ready_for_the_result(tournament, ruleset, 2 * r + 2, 2, judges[1], ex18(players=names), by_key)))
    cookies = [session_cookie(j) for j in judges]

    with site_server(tmp_path) as site:
        for r, (red_win, black_win) in enumerate(pairs):
            answers = together(
                lambda g=red_win: post_action(site, cookies[0], g.pk, "result", g.version, uuid.uuid4().hex,
                                              result="red"),
                lambda g=black_win: post_action(site, cookies[1], g.pk, "result", g.version, uuid.uuid4().hex,
                                                result="black"))
            assert [status for status, _body in answers] == [200, 200], (r, [b[:400] for _s, b in answers])
            site.pull()
            finished = Game.objects.filter(pk__in=[red_win.pk, black_win.pk], status=Game.Status.FINISHED)
            assert finished.count() == 2, f"round {r + 1}: a result was lost"
            stored = scores(tournament)
            assert stored == fresh_scores(tournament), f"round {r + 1}: the stored scores differ from a recompute"
            won = Seat.objects.filter(game__in=[red_win, black_win], won=True).count()
            assert won == 10, f"round {r + 1}: {won} winners stored in the two games (7 reds + 3 blacks expected)"
    assert Game.objects.filter(tournament=tournament, status=Game.Status.FINISHED).count() == 2 * ROUNDS


PAIRS = 200


def test_two_hundred_overlapping_pairs_of_judge_actions_give_no_5xx(tmp_path):
    club, players, judges, ruleset, tournament = club_with_judges()
    games = started_games(club, players, judges[0], ruleset, tournament, 4)
    cookie = session_cookie(judges[0])
    version = {pk: 2 for pk in games}
    applied: dict[int, list[str]] = {pk: [] for pk in games}
    refused: list[str] = []
    statuses: dict[int, int] = {}

    def classify(pk: int, action_id: str, status: int, body: str) -> bool:
        statuses[status] = statuses.get(status, 0) + 1
        assert status < 500, body[:1000]
        assert "Traceback" not in body
        if status == 200 and "Already saved" not in body:
            applied[pk].append(action_id)
            return True
        if status == 200:
            return False
        assert status == 409, (status, body[:500])  # every tap is valid: only the overlap refuses one
        assert 'data-testid="live-message"' in body, body[:500]  # the judge sees why, with the current state
        if status == 409:
            assert "changed on another screen" in body or "busy" in body, body[:500]
        refused.append(action_id)
        return False

    # The judge's view of each protocol, kept from the answers: fouls stay within 0..2 before a tap and seat 1's judge
    # extra toggles, so every tap is valid and a refusal can only come from the overlap itself.
    fouls = {pk: dict.fromkeys(range(1, 11), 0) for pk in games}
    extra = dict.fromkeys(games, False)

    def foul(pk: int, seat: int, action_id: str | None = None):
        return (pk, "foul", action_id or uuid.uuid4().hex, {"seat": seat, "delta": 1 if fouls[pk][seat] < 2 else -1})

    with site_server(tmp_path) as site:
        for i in range(PAIRS):
            kind = i % 4
            pk = games[i % len(games)]
            seat = 1 + i % 10
            if kind == 0:  # two different edits of one protocol from the same version: one wins
                calls = [foul(pk, seat), foul(pk, 1 + (i + 5) % 10)]
            elif kind == 1:  # the same tap sent twice: applied once
                same = foul(pk, seat)
                calls = [same, same]
            elif kind == 2:  # two tables at once: both applied
                calls = [foul(pk, seat), foul(games[(i + 1) % len(games)], seat)]
            else:  # a judge extra against a foul on one protocol
                calls = [(pk, "extra", uuid.uuid4().hex, {"seat": 1, "points": "" if extra[pk] else "0.2",
                                                          "note": "x"}),
                         foul(pk, 1 + (i + 3) % 10)]
            answers = together(*[
                lambda g=g, k=k, a=a, p=p: post_action(site, cookie, g, k, version[g], a, **p)
                for g, k, a, p in calls])
            results = [classify(g, a, status, body) for (g, _k, a, _p), (status, body) in zip(calls, answers,
                                                                                              strict=True)]
            for (g, k, _a, p), was_applied in zip(calls, results, strict=True):
                version[g] += was_applied
                if was_applied and k == "foul":
                    fouls[g][p["seat"]] += p["delta"]
                elif was_applied:
                    extra[g] = not extra[g]
            if kind == 1:
                assert results.count(True) == 1, answers  # applied once, the repeat answered "already saved"
            if kind == 2:
                assert results == [True, True], answers
            if kind in (0, 3):
                assert results.count(True) == 1, answers  # one applied, the other refused as stale
        site.pull()

    for pk in games:
        log = list(GameAction.objects.filter(game_id=pk).exclude(action_id="start").values_list("action_id",
                                                                                                 flat=True))
        assert sorted(log) == sorted(applied[pk]), f"game {pk}: the log differs from the applied answers"
        assert len(set(log)) == len(log)  # each applied once
        assert Game.objects.get(pk=pk).version == 2 + len(applied[pk])
    assert not GameAction.objects.filter(action_id__in=refused).exists()  # a refused action wrote nothing
    print(f"answers by status: {dict(sorted(statuses.items()))}; applied: {sum(len(a) for a in applied.values())}")
    assert sum(statuses.values()) == 2 * PAIRS and not any(s >= 500 for s in statuses)
    assert sum(len(a) for a in applied.values()) >= PAIRS // 2  # the pairs really applied work, not only refusals
