"""Faults against the site as deployed (DEBUG=0, collectstatic, gunicorn), as tests/test_production.py starts it:

- hostile requests — a foreign Host header, a body over 2.5 MB, more than 1,000 fields — are 400/413 with the
  Russian page, never a 500 (club/views_errors.py); a 60 MB body is refused by its Content-Length before the site
  reads it, and a chunked one (no length) with 411 (club.middleware.RequestSizeMiddleware);
- Redis pointed at a port where nothing listens: every page 200, the outage logged as a warning, no traceback
  (club/cache.py);
- the database stopped under the running site (a PostgreSQL cluster of the test's own, tests/pg_cluster.py):
  pages and judge actions answer 503 with Retry-After and no traceback, /health/ answers 503 naming the
  database, the site answers again at once when the database is back, and every judge write acknowledged before
  the stop is there.

Every server (gunicorn, the cluster) binds a free port of 127.0.0.1, is bounded in time and stopped in teardown.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests import pg_cluster
from tests.test_production import BASE_DIR, CLEARED, IDS_SCRIPT, Site, _free_port, _login

pytestmark = [pytest.mark.production, pytest.mark.slow]

LIVE_SCRIPT = """
import json
from games.models import Game
live = Game.objects.filter(status="in_progress").order_by("pk").first()
print(json.dumps({"live": live.pk, "version": live.version}))
"""


def _env(tmp: Path, database_url: str, static_root: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update({
        "DJANGO_SETTINGS_MODULE": "club.settings", "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "0", "DATABASE_URL": database_url,
        "STATIC_ROOT": str(static_root), "CACHE_URL": "locmem://", "PYTHONUNBUFFERED": "1",
        "TASKS_BACKEND": "immediate", **extra,
    })
    return env


class Server:
    """gunicorn on a free port with `env`; `stop()` ends it (teardown calls it whatever happened)."""

    def __init__(self, tmp: Path, env: dict, name: str):
        self.port = _free_port()
        self.env = {**env, "CSRF_TRUSTED_ORIGINS": f"https://127.0.0.1:{self.port}"}
        self.log = tmp / f"{name}.log"
        self._out = open(self.log, "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "club.wsgi", "--workers", "2", "--bind", f"127.0.0.1:{self.port}",
             "--timeout", "60", "--graceful-timeout", "5"], cwd=BASE_DIR, env=self.env, stdout=self._out,
            stderr=subprocess.STDOUT)
        self.site = Site(self.port, self.env, {}, None, None)
        self.site.log = self.log
        for _ in range(300):
            try:
                if self.site.request("GET", "/static/css/site.css")[0] == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        pytest.fail("gunicorn did not answer in 30 s:\n" + self.log.read_text())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._out.close()


def _manage(env: dict, *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, f"manage.py {' '.join(args)}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def _json_line(output: str) -> dict:
    return json.loads(output.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """A SQLite database with the demo club and the collected static files, shared by the module's servers."""
    tmp = tmp_path_factory.mktemp("faults")
    env = _env(tmp, f"sqlite:///{tmp / 'faults.sqlite3'}", tmp / "static")
    collect = subprocess.Popen([sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
                               cwd=BASE_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        _manage(env, "migrate", "--no-input", "-v", "0")
        _manage(env, "seed_demo")
        collected = collect.communicate(timeout=300)[0]
    finally:
        if collect.poll() is None:
            collect.kill()
    assert collect.returncode == 0, f"collectstatic:\n{collected}"
    urls = _json_line(_manage(env, "shell", "-v", "0", "-c", IDS_SCRIPT))
    return tmp, env, urls


@pytest.fixture
def server(deployed):
    tmp, env, urls = deployed
    started = []

    def start(name: str, **extra: str) -> Server:
        started.append(Server(tmp, {**env, **extra}, name))
        return started[-1]

    yield start
    for each in started:
        each.stop()


def _no_traceback(server: Server) -> None:
    log = server.log.read_text()
    assert "Traceback" not in log and "Internal Server Error" not in log, log[-5000:]


HOSTILE = [
    ("foreign Host", "GET", "/password/reset/", None, {"Host": "evil.example"}, 400, "не обслуживает"),
    ("foreign Host, POST", "POST", "/login/", {"username": "x"}, {"Host": "evil.example"}, 400, "не обслуживает"),
    ("1,001 fields", "POST", "/login/", {f"f{i}": "x" for i in range(1001)}, None, 400, "больше 1000 полей"),
    ("a body over 2.5 MB", "POST", "/password/reset/", {"email": "a" * 2_700_000}, None, 413, "2,5\xa0МБ"),
]


def test_hostile_requests_are_400_or_413_with_the_russian_page(server):
    running = server("hostile")
    site = running.site
    for name, method, path, body, headers, status, words in HOSTILE:
        answer, response_headers, content = site.request(method, path, body=body, headers=headers)
        text = content.decode()
        assert answer == status, (name, answer, text[:500], site.log.read_text()[-3000:])
        assert words in text and "На главную" in text and response_headers["content-type"].startswith("text/html"), (
            name, text[:500])
    # and the site is fine afterwards
    assert site.request("GET", "/login/")[0] == 200
    _no_traceback(running)


def _declare_and_send(port: int, path: str, declared: int, sent: int, *, chunked: bool = False) -> tuple[bytes, float]:
    """POST `path` declaring `declared` bytes (or chunked), send `sent` of them, then read the answer: (answer, s)."""
    boundary = "b0undary"
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: https\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
            + ("Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {declared}\r\n") + "\r\n")
    part = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n").encode() + b"\0" * sent
    if chunked:
        part = f"{len(part):x}\r\n".encode() + part + b"\r\n"
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(head.encode() + part)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = conn.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer, time.monotonic() - started


def test_a_60_mb_body_is_refused_by_its_length_at_once_and_a_chunked_one_with_411(server):
    running = server("big-bodies")
    answer, seconds = _declare_and_send(running.port, "/login/", 60 * 1024 * 1024, 1024 * 1024)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:300]
    assert seconds < 10, seconds  # answered while the client had sent 1 of the declared 60 MB
    chunked, _seconds = _declare_and_send(running.port, "/login/", 0, 4096, chunked=True)
    assert chunked.startswith(b"HTTP/1.1 411 "), chunked[:300]
    status, headers, body = running.site.request("GET", "/login/")
    assert status == 200
    log = running.log.read_text()
    assert log.count("Request Entity Too Large: /login/") == 1 and log.count("Length Required: /login/") == 1, log
    _no_traceback(running)


def test_with_redis_down_every_page_answers_200_and_the_outage_is_a_warning(deployed, server):
    dead = _free_port()  # nothing listens there
    running = server("redis-down", CACHE_URL=f"redis://127.0.0.1:{dead}/3", LOG_LEVEL="WARNING")
    urls = deployed[2]
    for path in urls["pages"] * 2:  # the second round: the cache is still down, nothing was stored
        status, headers, body = running.site.request("GET", path)
        assert status == 200 and b"</html>" in body, (path, status, body[:300], running.log.read_text()[-3000:])
    for key in ("csv", "json"):
        assert running.site.request("GET", urls["other"][key])[0] == 200, key
    cookies = _login(running.site, "admin", "demo-admin-2026")
    for path in urls["staff_pages"]:
        status, _headers, body = running.site.request("GET", path, cookies=cookies)
        assert status == 200, (path, status, body[:300])
    log = running.log.read_text()
    assert "does not answer, pages are computed without it" in log
    assert log.count("does not answer") <= 2, log[-3000:]  # once a minute per worker
    _no_traceback(running)


def _health(site: Site) -> tuple[int, str]:
    """/health/'s status and what it says of the database (club/views_health.py), never cached."""
    status, headers, body = site.request("GET", "/health/")
    assert headers["content-type"] == "application/json" and "no-store" in headers["cache-control"], headers
    answer = json.loads(body)
    assert answer["status"] == answer["database"] and answer["cache"] == "ok", answer
    return status, answer["database"]


@pytest.fixture
def cluster():
    reason = pg_cluster.available()
    if reason:
        pytest.skip(f"no PostgreSQL cluster of the test's own: {reason}")
    cluster = pg_cluster.Cluster(_free_port())
    try:
        cluster.init()
        cluster.start()
        cluster.create_database("mafclub")
        yield cluster
    finally:
        cluster.remove()


def test_with_the_database_stopped_pages_and_judge_actions_answer_503_and_acknowledged_writes_survive(
        deployed, server, cluster):
    tmp, env, _urls = deployed
    env = {**env, "DATABASE_URL": cluster.url("mafclub"), "CONN_MAX_AGE": "60"}
    _manage(env, "migrate", "--no-input", "-v", "0")
    _manage(env, "seed_demo")
    live = _json_line(_manage(env, "shell", "-v", "0", "-c", LIVE_SCRIPT))
    running = server("database-down", DATABASE_URL=env["DATABASE_URL"], CONN_MAX_AGE="60")
    site = running.site
    cookies = _login(site, "admin", "demo-admin-2026")
    origin = {"Referer": f"https://127.0.0.1:{site.port}/", "Origin": f"https://127.0.0.1:{site.port}",
              "HX-Request": "true"}
    action = f"/games/{live['live']}/judge/foul/"
    version, acknowledged = live["version"], []

    def tap(delta: int) -> int:
        action_id = uuid.uuid4().hex
        status, _headers, _body = site.request("POST", action, cookies=cookies, headers=origin, body={
            "seat": "1", "delta": str(delta), "version": str(version), "action_id": action_id,
            "csrfmiddlewaretoken": cookies["csrftoken"]})
        if status == 200:
            acknowledged.append(action_id)
        return status

    for delta in (1, -1, 1, -1, 1):
        assert tap(delta) == 200
        version += 1
    pages = ["/", "/ratings/", "/players/", f"/games/{live['live']}/", f"/games/{live['live']}/judge/"]
    for path in pages:
        assert site.request("GET", path, cookies=cookies)[0] == 200, path
    assert _health(site) == (200, "ok")

    cluster.stop()
    assert _health(site) == (503, "down")  # /health/ says which part is down
    for path in pages:
        status, headers, body = site.request("GET", path, cookies=cookies)
        text = body.decode()
        assert status == 503 and headers.get("retry-after") == "5", (path, status, text[:500])
        assert "База данных не отвечает" in text and "Traceback" not in text, (path, text[:500])
    assert tap(-1) == 503  # the judge's tap: refused, so the screen keeps it queued
    status, headers, _body = site.request("POST", action, cookies=cookies, headers=origin, body={
        "seat": "1", "delta": "-1", "version": str(version), "action_id": uuid.uuid4().hex,
        "csrfmiddlewaretoken": cookies["csrftoken"]})
    assert status == 503 and headers.get("retry-after") == "5"

    cluster.start()
    for path in pages:  # at once: the first request after the restart
        status, _headers, body = site.request("GET", path, cookies=cookies)
        assert status == 200, (path, status, body[:300], running.log.read_text()[-3000:])
    assert _health(site) == (200, "ok")
    assert tap(-1) == 200  # the queued tap goes through with the version it was made on
    stored = _json_line(_manage(env, "shell", "-v", "0", "-c",
                                "import json\nfrom games.models import GameAction\n"
                                f"print(json.dumps(list(GameAction.objects.filter(game_id={live['live']})"
                                ".values_list('action_id', flat=True))))"))
    assert set(acknowledged) <= set(stored), set(acknowledged) - set(stored)
    assert len(acknowledged) == 6
    _no_traceback(running)
