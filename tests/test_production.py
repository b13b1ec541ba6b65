"""The site as the README deploys it: DEBUG off, `collectstatic`, gunicorn, the database of this run (PostgreSQL
when the run uses one, in a database of its own) and Redis as the cache — fetched over HTTP like a browser would.

The test migrates a fresh database, collects the static files into a temporary STATIC_ROOT, loads the demo club
(`manage.py seed_demo`), starts gunicorn with DEBUG=0 and fetches every public page of the demo club, the staff
pages as its admin (logged in over the real login form, behind an `X-Forwarded-Proto: https` proxy as the secure
cookies require), a signed game's PDF (signed through the judge action), the blank sheet, a round document and
the static files, asserting 200, the content type, the CSP header on pages and `%PDF` on PDFs.

Redis: the one on 127.0.0.1:6379 (DB 1) when it answers, else a `redis-server` started on a free port; with
neither, the site runs on its memory cache and the Redis test is skipped with the reason.

Marker `production`: `./dev.sh test` runs it once — in the PostgreSQL run when there is one, else in the SQLite run.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

pytestmark = [pytest.mark.production, pytest.mark.slow]

BASE_DIR = Path(__file__).resolve().parents[1]
REDIS_DB = 1  # this project's Redis database on the shared 127.0.0.1:6379
# Variables of this test process the server must not inherit (the browser fixture sets the last one).
CLEARED = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "CACHE_URL", "STATIC_ROOT",
           "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE", "SECURE_SSL_REDIRECT", "MEDIA_ROOT", "SERVE_MEDIA"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _redis_answers(port: int) -> bool:
    try:
        import redis

        return bool(redis.Redis(host="127.0.0.1", port=port, db=REDIS_DB, socket_connect_timeout=1).ping())
    except Exception:
        return False


@dataclass
class Redis:
    url: str | None
    reason: str = ""
    process: subprocess.Popen | None = None
    prefix: str = field(default_factory=lambda: f"mafclub-prodtest-{uuid.uuid4().hex[:8]}")

    def keys(self) -> list[bytes]:
        import redis

        return redis.Redis.from_url(self.url).keys(f"{self.prefix}:*")

    def close(self) -> None:
        if self.url:
            try:
                import redis

                client = redis.Redis.from_url(self.url)
                for key in client.scan_iter(f"{self.prefix}:*"):
                    client.delete(key)
            except Exception:
                pass
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)


def _redis() -> Redis:
    if _redis_answers(6379):
        return Redis(f"redis://127.0.0.1:6379/{REDIS_DB}")
    server = shutil.which("redis-server")
    if not server:
        return Redis(None, "no Redis answers on 127.0.0.1:6379 and redis-server is not installed "
                           "(apt-get install redis-server)")
    port = _free_port()
    process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        if _redis_answers(port):
            return Redis(f"redis://127.0.0.1:{port}/{REDIS_DB}", process=process)
        time.sleep(0.1)
    process.terminate()
    return Redis(None, f"redis-server started on port {port} but did not answer")


@dataclass
class Database:
    url: str
    drop: callable = None
    kind: str = "SQLite"


def _database(tmp: Path) -> Database:
    """The run's own kind of database: a separate PostgreSQL database when DATABASE_URL names PostgreSQL, else a
    SQLite file in the temporary folder."""
    run_url = os.environ.get("DATABASE_URL", "")
    if not run_url.startswith("postgres"):
        return Database(f"sqlite:///{tmp / 'production.sqlite3'}")
    import psycopg

    parts = urlsplit(run_url)
    name = f"{parts.path.lstrip('/') or 'mafclub'}_production_test"[:63]
    admin_url = parts._replace(path="/postgres").geturl().replace("postgres://", "postgresql://", 1)

    def run(sql: str) -> None:
        with psycopg.connect(admin_url, autocommit=True) as connection:
            connection.execute(sql)

    run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    run(f'CREATE DATABASE "{name}"')
    return Database(parts._replace(path=f"/{name}").geturl(), lambda: run(f'DROP DATABASE IF EXISTS "{name}" '
                                                                            "WITH (FORCE)"), "PostgreSQL")


@dataclass
class Site:
    port: int
    env: dict
    urls: dict
    redis: Redis
    database: Database
    cookies: dict = field(default_factory=dict)

    def request(self, method: str, path: str, *, body: dict | None = None, cookies: dict | None = None,
                headers: dict | None = None) -> tuple[int, dict, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = {"Host": "127.0.0.1", "X-Forwarded-Proto": "https", **(headers or {})}
        if cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        data = None
        if body is not None:
            data = urlencode(body)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        content = response.read()
        answer = {k.lower(): v for k, v in response.getheaders()}
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if cookies is not None:
                    cookies[name] = morsel.value
        connection.close()
        return response.status, answer, content

    def manage(self, *args: str) -> str:
        result = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=self.env,
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"manage.py {' '.join(args)}:\n{result.stdout}\n{result.stderr}"
        return result.stdout


IDS_SCRIPT = """
import json
from django.urls import reverse
from club.models import Club, Player
from games.models import Game, Tournament
club = Club.objects.get()
tournament = Tournament.objects.get(club=club, name="Демо-кубок «Полночь» 2026")
finished = Game.objects.filter(tournament=tournament, status="finished").order_by("number")
live = Game.objects.filter(status="in_progress").first()
player = Player.objects.filter(club=club, seats__isnull=False).first()
to_sign = finished.first()
print(json.dumps({
    "to_sign": to_sign.pk, "to_sign_version": to_sign.version,
    "pages": [
        reverse("home"), reverse("player_list"), reverse("player_detail", args=[player.pk]),
        reverse("ratings:club_rating"), reverse("ratings:club_stats"),
        reverse("player_detail", args=[player.pk]) + f"?tournament={tournament.pk}",
        reverse("ratings:tournament_standings", args=[tournament.pk]),
        reverse("games:tournament_list"), reverse("games:tournament_detail", args=[tournament.pk]),
        reverse("games:game_detail", args=[finished.last().pk]), reverse("games:game_detail", args=[live.pk]),
        reverse("games:live", args=[live.pk]), reverse("games:ruleset_list"), reverse("login"),
        reverse("signup"),
    ],
    "staff_pages": [
        reverse("games:judge", args=[live.pk]), reverse("games:protest_queue"), reverse("games:my_protests"),
        reverse("games:import"), reverse("staff"), reverse("claim_list"), reverse("ratings:season_list"),
        reverse("admin:index"), reverse("admin:club_player_changelist"), reverse("admin:games_game_changelist"),
    ],
    "other": {
        "csv": reverse("ratings:tournament_standings_csv", args=[tournament.pk]),
        "json": reverse("ratings:tournament_standings_json", args=[tournament.pk]),
        "signed_pdf": reverse("games:protocol_pdf", args=[to_sign.pk]),
        "blank_pdf": reverse("protocol_blank_pdf"),
        "round_pdf": reverse("games:round_sheets_pdf", args=[tournament.pk]) + "?round=1",
        "sign": reverse("games:judge_action", args=[to_sign.pk, "sign"]),
    },
}))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("production")
    redis = _redis()
    database = _database(tmp)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update({
        "DJANGO_SETTINGS_MODULE": "club.settings", "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "CSRF_TRUSTED_ORIGINS": f"https://127.0.0.1:{port}",
        "SECURE_SSL_REDIRECT": "0", "DATABASE_URL": database.url, "STATIC_ROOT": str(tmp / "static"),
        "MEDIA_ROOT": str(tmp / "media"),
        "CACHE_URL": redis.url or "locmem://", "CACHE_KEY_PREFIX": redis.prefix, "PYTHONUNBUFFERED": "1",
    })
    server = None
    try:
        probe = Site(port, env, {}, redis, database)
        # collectstatic (mostly compressing) runs beside migrate + seed_demo: they share nothing
        collect = subprocess.Popen([sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
                                   cwd=BASE_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        probe.manage("migrate", "--no-input", "-v", "0")
        probe.manage("seed_demo")
        collected = collect.communicate(timeout=300)[0]
        assert collect.returncode == 0, f"collectstatic:\n{collected}"
        urls = json.loads(probe.manage("shell", "-v", "0", "-c", IDS_SCRIPT).strip().splitlines()[-1])
        log = open(tmp / "gunicorn.log", "w")  # noqa: SIM115
        server = subprocess.Popen([sys.executable, "-m", "gunicorn", "club.wsgi", "--workers", "2", "--bind",
                                   f"127.0.0.1:{port}", "--timeout", "120"], cwd=BASE_DIR, env=env, stdout=log,
                                  stderr=subprocess.STDOUT)
        site = Site(port, env, urls, redis, database)
        for _ in range(200):
            try:
                if site.request("GET", "/login/")[0] == 200:
                    break
            except OSError:
                pass
            assert server.poll() is None, (tmp / "gunicorn.log").read_text()
            time.sleep(0.1)
        else:
            pytest.fail("gunicorn did not answer in 20 s:\n" + (tmp / "gunicorn.log").read_text())
        site.log = tmp / "gunicorn.log"
        yield site
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)
        redis.close()
        if database.drop:
            database.drop()


def _login(site: Site, username: str, password: str) -> dict:
    cookies: dict = {}
    status, _, _ = site.request("GET", "/login/", cookies=cookies)
    assert status == 200 and "csrftoken" in cookies
    status, headers, body = site.request(
        "POST", "/login/", cookies=cookies, body={"username": username, "password": password,
                                                  "csrfmiddlewaretoken": cookies["csrftoken"]},
        headers={"Referer": f"https://127.0.0.1:{site.port}/login/", "Origin": f"https://127.0.0.1:{site.port}"})
    assert status == 302 and "sessionid" in cookies, (status, body[:500])
    return cookies


def _assert_page(site: Site, path: str, status: int, headers: dict, body: bytes) -> None:
    assert status == 200, f"{path}: {status}\n{body[:300]!r}\n{site.log.read_text()[-3000:]}"
    assert headers["content-type"].startswith("text/html"), (path, headers["content-type"])
    assert "script-src 'self'" in headers.get("content-security-policy", ""), path
    assert headers.get("x-content-type-options") == "nosniff", path
    assert b"</html>" in body, path


def test_every_page_pdf_and_static_file_answers_in_production(site):
    checked = []
    for path in site.urls["pages"]:
        status, headers, body = site.request("GET", path)
        _assert_page(site, path, status, headers, body)
        checked.append(path)
    # the static files the pages link (hashed names by the manifest storage) and a plain one
    status, headers, home = site.request("GET", "/")
    css = re.findall(rb'href="(/static/[^"]+\.css)"', home)
    scripts = re.findall(rb'src="(/static/[^"]+\.js)"', home)
    assert css and scripts and all(re.search(rb"\.[0-9a-f]{12}\.", url) for url in css + scripts), (css, scripts)
    for url, kind in [*((u.decode(), "text/css") for u in css), *((u.decode(), "text/javascript") for u in scripts),
                      ("/static/css/site.css", "text/css")]:
        status, headers, body = site.request("GET", url)
        assert status == 200 and headers["content-type"].startswith(kind) and body, (url, status, headers)
        checked.append(url)
    for key, kind in [("csv", "text/csv"), ("json", "application/json")]:
        status, headers, body = site.request("GET", site.urls["other"][key])
        assert status == 200 and headers["content-type"].startswith(kind), (key, status, body[:300])
    for key in ("blank_pdf", "round_pdf"):
        status, headers, body = site.request("GET", site.urls["other"][key])
        assert status == 200 and headers["content-type"] == "application/pdf" and body.startswith(b"%PDF"), (
            key, status, body[:300], site.log.read_text()[-3000:])
    assert len(checked) >= 18


def test_staff_pages_and_a_signed_games_pdf_as_the_club_admin(site):
    cookies = _login(site, "admin", "demo-admin-2026")
    for path in site.urls["staff_pages"]:
        status, headers, body = site.request("GET", path, cookies=cookies)
        _assert_page(site, path, status, headers, body)
    # sign a finished game through the judge action, as the judge screen does
    status, headers, body = site.request(
        "POST", site.urls["other"]["sign"], cookies=cookies,
        body={"version": site.urls["to_sign_version"], "action_id": uuid.uuid4().hex,
              "csrfmiddlewaretoken": cookies["csrftoken"]},
        headers={"Referer": f"https://127.0.0.1:{site.port}/", "Origin": f"https://127.0.0.1:{site.port}"})
    assert status in (200, 302), (status, body[:500])
    signed = site.manage("shell", "-v", "0", "-c", f"from games.models import Game; "
                                                   f"print(Game.objects.get(pk={site.urls['to_sign']}).status)")
    assert signed.strip() == "signed", signed
    for who in (None, cookies):  # the public copy and the staff's
        status, headers, body = site.request("GET", site.urls["other"]["signed_pdf"], cookies=who)
        assert status == 200 and headers["content-type"] == "application/pdf" and body.startswith(b"%PDF"), (
            status, body[:300], site.log.read_text()[-3000:])


PHOTO_SCRIPT = """
import io
from PIL import Image
from django.core.files.uploadedfile import SimpleUploadedFile
from club.models import Player
out = io.BytesIO()
Image.new("RGB", (900, 700), (200, 30, 30)).save(out, "JPEG", comment=b"<!-- <script>alert(1)</script> -->")
player = Player.objects.filter(seats__isnull=False).first()
player.photo = SimpleUploadedFile("me.html", out.getvalue() + b"<html></html>", "text/html")
player.save()
print(player.photo.url)
"""


def test_gunicorn_alone_serves_an_uploaded_photo_as_an_image(site):
    """No web server in front: the site serves MEDIA_ROOT itself (club/views_media.py), typed by the bytes."""
    url = site.manage("shell", "-v", "0", "-c", PHOTO_SCRIPT).strip().splitlines()[-1]
    assert url.startswith("/media/players/") and url.endswith(".jpg"), url
    status, headers, body = site.request("GET", url)
    assert status == 200, (status, body[:300], site.log.read_text()[-3000:])
    assert headers["content-type"] == "image/jpeg" and headers.get("x-content-type-options") == "nosniff"
    assert body.startswith(b"\xff\xd8\xff") and b"<script" not in body and b"<html" not in body
    assert "immutable" in headers["cache-control"] and headers["etag"] and headers["last-modified"]
    status, headers, body = site.request("GET", url, headers={"If-None-Match": headers["etag"]})
    assert status == 304 and body == b""
    assert site.request("GET", "/media/players/")[0] == 404
    assert site.request("GET", "/media/../club/settings.py")[0] == 404


def test_the_cache_is_redis(site):
    if site.redis.url is None:
        pytest.skip(site.redis.reason)
    for path in site.urls["pages"][:8]:  # ratings pages write their tables to the cache
        site.request("GET", path)
    keys = site.redis.keys()
    assert keys, f"nothing under {site.redis.prefix}: in {site.redis.url}"


def test_the_server_logged_no_error(site):
    log = site.log.read_text()
    assert "Traceback" not in log and "Internal Server Error" not in log, log[-5000:]
