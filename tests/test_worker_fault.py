"""Fault test: a task worker killed with SIGKILL in the middle of a recompute, then a fresh worker.

A real `manage.py db_worker` (the database backend, a database of the test's own) takes the Elo recompute queued
by a change of the club's K, or the rating-history rewrite queued by an admin's change of an early game's score
(a long tail: the demo tournament played twice in the season); MAFCLUB_TASK_PAUSE holds it inside its first
chunk, and the test kills it there. The
task row stays RUNNING and its marker ("пересчитывается") stays: only the next worker can heal it. A fresh worker
must bring the Elo and the rating history to what a fresh recompute gives within 60 s, and afterwards no page says
"пересчитывается" and `manage.py tasks` reports nothing stuck.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.own_db import BASE_DIR, KINDS, env_for, manage, own_database, query

pytestmark = pytest.mark.slow

CHANGE_K = """
from ratings.elo import services as services_elo
services_elo.schedule_all()  # what rebuild_ratings queues after the site's ELO_K changed (docs/elo.md)
"""

# The stored Elo and history, then the same after a fresh recompute of everything (inline), then the pages.
DUMP = """
import json
from django.test import Client
from ratings.standings import services
from ratings.elo import services as services_elo
from ratings.models import EloChange, EloRating, RatingPoint

def state():
    return {"elo": sorted(map(list, EloRating.objects.values_list("player_id", "elo", "games"))),
            "changes": sorted(map(list, EloChange.objects.values_list("game_id", "player_id", "before", "after"))),
            "history": sorted(map(list, RatingPoint.objects.values_list("scope_id", "player_id", "game_id", "seq",
                                                                        "rank", "cumulative")))}

stored = state()
client = Client()
pages = {path: client.get(path).content.decode() for path in ["/ratings/elo/", "/ratings/"]}
services_elo.recompute()
services.recompute_all()
fresh = state()
print(json.dumps({"stored": stored, "fresh": fresh,
                  "pending": [p for p, html in pages.items() if "пересчитывается" in html]}, default=str))
"""


# The season holds the demo tournament twice (72 games, the second round on the same days): a change of the first
# tournament's game INLINE_HISTORY games before its end (ratings.standings.services) leaves the tournament a tail
# rewritten in the request and the season one about twice as long, which goes to the worker.
SECOND_ROUND = """
import json
from games.models import Tournament
from games.protocol.selectors_export import export_tournament
from games.protocol.services.imports import import_documents
tournament = Tournament.objects.order_by("pk").first()
document = export_tournament(tournament)
document["tournament"]["name"] += " (второй круг)"
for game in document["games"]:
    game.pop("version", None)
import_documents(documents=[("second.json", json.dumps(document, ensure_ascii=False))], club=tournament.club)
"""

CHANGE_EARLY_SCORE = """
from club.models import Membership
from games.live.apply import live_apply
from games.models import Game
from ratings.standings.services import INLINE_HISTORY
first_round = Game.objects.filter(status="finished").order_by("date", "pk").first().tournament
game = list(Game.objects.filter(status="finished", tournament=first_round).order_by("date", "pk"))[-INLINE_HISTORY]
admin = Membership.objects.filter(club=game.club, role="admin").first().user
live_apply(game_id=game.pk, by=admin, kind="extra", payload={"seat": 1, "points": "0.4"}, version=game.version,
           action_id="fault-extra")
"""


def _worker(env: dict, log) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "manage.py", "db_worker", "--interval", "0.2", "--no-startup-delay",
                             "--no-reload", "-v", "2"], cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def _wait(what: str, done, timeout: float) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if done():
            return time.monotonic() - start
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout} s: {what}")


def _stop(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # the worker and anything it started
    process.wait(timeout=10)


def _queued(kind: str, url: str, env: dict, task: str) -> None:
    """The demo club with one recompute queued for the worker: the Elo (a new K) or a history tail."""
    manage(env, "migrate", "-v", "0")
    manage(env, "seed_demo")
    if task == "elo":
        manage(env, "shell", "-c", CHANGE_K)
    else:
        manage(env_for(url, TASKS_BACKEND="immediate"), "shell", "-c", SECOND_ROUND)
        manage(env, "shell", "-c", CHANGE_EARLY_SCORE)
    paths = query(url, "SELECT task_path FROM django_tasks_database_dbtaskresult")
    assert paths == [(f"ratings.{'elo' if task == 'elo' else 'standings'}.services.recompute_{task}",)], (kind, paths)
    markers = [key for (key,) in query(url, "SELECT key FROM ratings_pendingtail")]
    assert markers and all(key.startswith(f"{task}:") for key in markers)


@pytest.mark.parametrize("task", ["elo", "history"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_worker_killed_mid_recompute_is_healed_by_the_next_worker(kind, task, tmp_path):
    with own_database(kind, tmp_path, "fault") as url:
        env = env_for(url)
        _queued(kind, url, env, task)
        tasks = "SELECT status FROM django_tasks_database_dbtaskresult"
        markers = "SELECT key FROM ratings_pendingtail"
        assert query(url, tasks) == [("READY",)] and query(url, markers)

        workers: list[subprocess.Popen] = []
        log = open(tmp_path / "worker.log", "w")  # noqa: SIM115 — closed in the finally
        try:
            first = _worker({**env, "MAFCLUB_TASK_PAUSE": "300"}, log)
            workers.append(first)
            _wait("the worker takes the task", lambda: query(url, tasks) == [("RUNNING",)], 60)
            time.sleep(1)  # inside the paused chunk
            first.send_signal(signal.SIGKILL)
            first.wait(timeout=10)
            assert query(url, tasks) == [("RUNNING",)] and query(url, markers)  # stuck: the worker is gone

            workers.append(_worker(env, log))
            healed = _wait("a fresh worker heals the queue",
                           lambda: not query(url, markers) and not query(url, tasks + " WHERE status IN "
                                                                             "('READY', 'RUNNING')"), 60)
        finally:
            for process in workers:
                _stop(process)
            log.close()
        assert sorted(query(url, tasks)) == [("FAILED",), ("SUCCESSFUL",)], (tmp_path / "worker.log").read_text()
        dumped = manage(env_for(url, TASKS_BACKEND="immediate"), "shell", "-c", DUMP).stdout
        data = json.loads(dumped.splitlines()[-1])
        assert data["stored"]["elo"] and data["stored"]["history"]
        assert data["stored"] == data["fresh"]
        assert data["pending"] == []
        status = json.loads(manage(env, "tasks", "--format", "json").stdout)
        assert (status["stale"], status["queued"], status["running"], status["failed"]) == (0, 0, 0, 1)
        print(f"{kind} {task}: healed {healed:.1f} s after the fresh worker started")
